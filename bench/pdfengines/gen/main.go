// Command gen writes the second producer's fixture for internal/extract/pdf:
// a Japanese PDF from a Go PDF writer with an embedded TrueType font
// (Identity-H CID font with a ToUnicode map, as fpdf's UTF-8 fonts are).
//
//	go run ./gen /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf out.pdf
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/go-pdf/fpdf"
)

func main() {
	pdf := fpdf.New("P", "mm", "A4", filepath.Dir(os.Args[1]))
	pdf.AddUTF8Font("ipag", "", filepath.Base(os.Args[1]))
	pdf.SetTitle("第二の作成元FPDFTITLE", true)
	pdf.SetSubject("件名FPDFSUBJECT", true)
	for _, text := range []string{"一頁目の見積書FPDFONE　御中", "二頁目の請求書FPDFTWO、金額１２３４円"} {
		pdf.AddPage()
		pdf.SetFont("ipag", "", 14)
		pdf.Cell(0, 10, text)
		pdf.Ln(12)
		pdf.Cell(0, 10, "株式会社文箱")
	}
	if err := pdf.OutputFileAndClose(os.Args[2]); err != nil {
		log.Fatal(err)
	}
}
