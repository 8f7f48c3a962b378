#!/bin/sh
# Regenerates the issue-33 fixtures, every one written by a program other
# than fumibako (LibreOffice, qpdf):  cd internal/extract/pdf/testdata && ./gen.sh
#   lo-supplementary.pdf  soffice from src/supplementary.fodt (Noto Serif CJK
#                         JP for 𠮟 𩸽 𠀋 𠮷, DejaVu Sans for 😀)
#   lo-form.pdf           soffice through UNO (mkform.py): filled text, combo,
#                         list box and check box controls exported as AcroForm
#   lo-crop.pdf           soffice from src/crop.fodt, one page with text at the
#                         top and the bottom
#   qpdf-cropped.pdf      lo-crop.pdf's page twice from one content stream,
#                         cropped to its halves (qdfedit.py crop)
#   qpdf-badpage.pdf      lo-horizontal.pdf with page 2 no dictionary
#   qpdf-allbad.pdf       lo-horizontal.pdf with no page a dictionary
#   qpdf-rotated.pdf      lo-horizontal.pdf with pages 1 and 3 turned (/Rotate)
#   junk-header.pdf       lo-horizontal.pdf after a mail header (the %PDF-
#                         header at byte 80, as readers accept within 1,024)
# Needs soffice, /usr/bin/python3 with LibreOffice's uno module, qpdf, fix-qdf.
set -e
profile=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$profile" "$out"' EXIT
lo() { soffice -env:UserInstallation="file://$profile" --headless "$@" >/dev/null; }
lo --convert-to pdf --outdir "$out" src/supplementary.fodt
cp "$out/supplementary.pdf" lo-supplementary.pdf
lo --convert-to pdf --outdir "$out" src/crop.fodt
cp "$out/crop.pdf" lo-crop.pdf

PIPE=fumibako-gen-$$
export PIPE
soffice -env:UserInstallation="file://$profile" --headless --invisible --norestore "--accept=pipe,name=$PIPE;urp;" >/dev/null 2>&1 &
timeout 120 /usr/bin/python3 mkform.py lo-form.pdf
wait

qdf() { # qdf MODE IN OUT
	qpdf --qdf --object-streams=disable "$2" "$out/in.qdf"
	python3 qdfedit.py "$1" "$out/in.qdf" "$out/out.qdf"
	fix-qdf "$out/out.qdf" >"$3"
}
qdf crop lo-crop.pdf qpdf-cropped.pdf
qdf badpage lo-horizontal.pdf qpdf-badpage.pdf
qdf allbad lo-horizontal.pdf qpdf-allbad.pdf
qpdf --rotate=+90:1 --rotate=+270:3 lo-horizontal.pdf qpdf-rotated.pdf
{ printf 'From: soumu@example.jp\r\nSubject: mitsumori\r\nContent-Type: application/pdf\r\n\r\n'; cat lo-horizontal.pdf; } >junk-header.pdf
