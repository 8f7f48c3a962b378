#!/bin/sh
# Regenerates the SheetJS workbooks and LibreOffice's CSV of them (the
# expected cells of TestXlsbSheetJSShortRecords).
#   npm install --prefix /tmp/sheetjs xlsx
set -e
NODE_PATH=/tmp/sheetjs/node_modules node gen.js
tmp=$(mktemp -d)
cp short.xlsb "$tmp/"
(cd "$tmp" && soffice --headless --convert-to 'csv:Text - txt - csv (StarCalc):9,34,76,1,,0,false,true,false,false,false,-1' short.xlsb >/dev/null)
cp "$tmp/short-短い.csv" libreoffice-sheet1.csv
cp "$tmp/short-Sheet2.csv" libreoffice-sheet2.csv
rm -rf "$tmp"
