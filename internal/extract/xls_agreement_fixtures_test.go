package extract_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// The .xlsx reader's generated workbooks join the native readers'
// agreement report (xls_agreement_internal_test.go) as .xls fixtures.
func init() {
	extract.AgreementXlsxFixtures = func(tb testing.TB) map[string][]byte {
		return map[string][]byte{
			"cells":      xlsxCellsFixture(tb),
			"layout":     xlsxLayoutFixture(tb),
			"visibility": xlsxVisibilityFixture(tb),
			"objects":    xlsxObjectsFixture(tb),
		}
	}
}
