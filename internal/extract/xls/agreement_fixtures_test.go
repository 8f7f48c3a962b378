package xls_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/xls"
)

// The .xlsx reader's generated workbooks join the native readers'
// agreement report (xls_agreement_internal_test.go) as .xls fixtures.
func init() {
	xls.AgreementXlsxFixtures = func(tb testing.TB) map[string][]byte {
		return map[string][]byte{
			"cells":      fixture.XlsxCells(tb),
			"layout":     fixture.XlsxLayout(tb),
			"visibility": fixture.XlsxVisibility(tb),
			"objects":    fixture.XlsxObjects(tb),
		}
	}
}
