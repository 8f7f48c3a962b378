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
#   lo-glyphs.pdf         soffice from src/glyphs.fodt: a TrueType subset
#                         (DejaVu Serif) and a Type 1 one (Noto Serif CJK JP)
#   qpdf-signature.pdf    lo-form.pdf with a signed signature field whose
#                         widget shows who signed and when (qdfedit.py
#                         signature)
#   qpdf-notounicode.pdf  lo-glyphs.pdf without its ToUnicode maps and so
#                         without text (the fonts give no names)
#   qpdf-glyphnames.pdf   lo-glyphs.pdf without its ToUnicode maps, its fonts'
#                         glyphs named as other writers name them (qdfedit.py
#                         glyphnames: a 'post' table, Type 1 glyph names)
#   qpdf-type1c.pdf       the same with the Type 1 fonts as bare CFF
#                         (FontFile3 /Type1C, qdfedit.py type1c)
#   qpdf-brokenmap.pdf, qpdf-brokenmap1c.pdf  lo-glyphs.pdf with its fonts'
#                         glyphs named (as qpdf-glyphnames.pdf; -1c: Type 1
#                         as Type1C) and ToUnicode maps rewritten: Hangul
#                         and Greek for Latin (broken), and a kanji map
#                         shifted by one glyph (deliberate; qdfedit.py
#                         brokenmap)
#   py-type3.pdf          a Type 3 font without ToUnicode whose /Differences
#                         names its glyphs (mkfonts.py, rewritten by qpdf)
#   py-shifted.pdf        TrueType subsets without ToUnicode whose codes are
#                         not their letters (mkfonts.py, rewritten by qpdf)
#   py-shifted-objstm.pdf the same in object streams and an xref stream
#                         (qpdf --object-streams=generate)
#   py-shifted-badxref.pdf  the same with startxref pointing nowhere (the
#                         objects are found by a scan)
#   py-shifted-aes128.pdf, py-shifted-rc4.pdf, py-shifted-rc40.pdf,
#   py-shifted-aes256.pdf py-shifted.pdf in object streams, encrypted with an
#                         empty user password (opens without asking; printing
#                         and copying restricted): AES-128 (revision 4), RC4
#                         128-bit (revision 3), RC4 40-bit (revision 2),
#                         AES-256 (revision 6)
#   py-cid-aes256.pdf     py-cid.pdf encrypted so (its ToUnicode map too)
#   py-cid.pdf            CID TrueType fonts (Identity), one with a ToUnicode
#                         map giving Hangul for Russian, one with none
#                         (mkfonts.py, rewritten by qpdf)
#   qpdf-cropglyphs.pdf   the pages of py-shifted.pdf, py-type3.pdf and
#                         py-cid.pdf, each cropped to part of its text
#                         (qdfedit.py cropglyphs)
#   py-numeric.pdf        Type 3 fonts whose /Differences names are numbers
#                         (a76, G4C, cid76), one a page (mkfonts.py,
#                         rewritten by qpdf)
#   py-cidcff.pdf         CID-keyed CFF fonts without ToUnicode, Adobe-Japan1,
#                         GB1, CNS1 and Korea1 (mkfonts.py, rewritten by qpdf)
#   py-type3-junk.pdf     py-type3.pdf after a mail header (offsets off by
#                         the header's length)
# Needs soffice, /usr/bin/python3 with LibreOffice's uno module and
# fontTools (python3-fonttools), DejaVu Sans (fonts-dejavu-core), Noto Sans
# CJK (fonts-noto-cjk), qpdf,
# fix-qdf.
set -e
profile=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$profile" "$out"' EXIT
lo() { soffice -env:UserInstallation="file://$profile" --headless "$@" >/dev/null; }
lo --convert-to pdf --outdir "$out" src/supplementary.fodt
cp "$out/supplementary.pdf" lo-supplementary.pdf
lo --convert-to pdf --outdir "$out" src/crop.fodt
cp "$out/crop.pdf" lo-crop.pdf
lo --convert-to pdf --outdir "$out" src/glyphs.fodt
cp "$out/glyphs.pdf" lo-glyphs.pdf

PIPE=fumibako-gen-$$
export PIPE
soffice -env:UserInstallation="file://$profile" --headless --invisible --norestore "--accept=pipe,name=$PIPE;urp;" >/dev/null 2>&1 &
timeout 120 /usr/bin/python3 mkform.py lo-form.pdf
wait

qdf() { # qdf MODE IN OUT
	qpdf --qdf --object-streams=disable "$2" "$out/in.qdf"
	/usr/bin/python3 qdfedit.py "$1" "$out/in.qdf" "$out/out.qdf"
	fix-qdf "$out/out.qdf" >"$3"
}
qdf crop lo-crop.pdf qpdf-cropped.pdf
qdf badpage lo-horizontal.pdf qpdf-badpage.pdf
qdf allbad lo-horizontal.pdf qpdf-allbad.pdf
qdf signature lo-form.pdf qpdf-signature.pdf
qdf notounicode lo-glyphs.pdf qpdf-notounicode.pdf
qdf glyphnames lo-glyphs.pdf qpdf-glyphnames.pdf
qdf type1c lo-glyphs.pdf qpdf-type1c.pdf
qdf brokenmap lo-glyphs.pdf qpdf-brokenmap.pdf
qdf brokenmap1c lo-glyphs.pdf qpdf-brokenmap1c.pdf
# The font programs of those (QDF files: the first /FontFile2, /FontFile
# and /FontFile3 of each), seeds of FuzzFontProgram.
prog() { # prog PDF KEY OUT
	qpdf --show-object="$(grep -a -m1 "/$2 " "$1" | awk '{print $2}')" --filtered-stream-data "$1" >"$3"
}
mkdir -p fontprog
prog qpdf-glyphnames.pdf FontFile2 fontprog/dejavu-post.ttf
prog qpdf-glyphnames.pdf FontFile fontprog/noto-type1.pfa
prog qpdf-notounicode.pdf FontFile2 fontprog/dejavu-nopost.ttf
prog qpdf-type1c.pdf FontFile3 fontprog/noto-type1c.cff
/usr/bin/python3 mkfonts.py "$out/raw"
qpdf "$out/raw-type3.pdf" py-type3.pdf
qpdf "$out/raw-shifted.pdf" py-shifted.pdf
qpdf "$out/raw-cid.pdf" py-cid.pdf
qpdf "$out/raw-numeric.pdf" py-numeric.pdf
qpdf "$out/raw-cidcff.pdf" py-cidcff.pdf
qpdf --object-streams=generate py-shifted.pdf py-shifted-objstm.pdf
qpdf --encrypt "" soumu 128 --use-aes=y --print=none --extract=n -- --object-streams=generate py-shifted.pdf py-shifted-aes128.pdf
qpdf --allow-weak-crypto --encrypt "" soumu 128 --use-aes=n --print=none --extract=n -- --object-streams=generate py-shifted.pdf py-shifted-rc4.pdf
qpdf --allow-weak-crypto --encrypt "" soumu 40 --print=n --extract=n -- --object-streams=generate py-shifted.pdf py-shifted-rc40.pdf
qpdf --encrypt "" soumu 256 --print=none --extract=n -- --object-streams=generate py-shifted.pdf py-shifted-aes256.pdf
qpdf --encrypt "" soumu 256 --print=none --extract=n -- --object-streams=generate py-cid.pdf py-cid-aes256.pdf
/usr/bin/python3 -c 'import re, sys; s = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(re.sub(rb"startxref\s+\d+", b"startxref\n9999999", s))' py-shifted.pdf py-shifted-badxref.pdf
{ printf 'From: soumu@example.jp\r\nSubject: type3\r\n\r\n'; cat py-type3.pdf; } >py-type3-junk.pdf
qpdf --empty --pages py-shifted.pdf py-type3.pdf py-cid.pdf -- "$out/merged.pdf"
qdf cropglyphs "$out/merged.pdf" qpdf-cropglyphs.pdf
qpdf --rotate=+90:1 --rotate=+270:3 lo-horizontal.pdf qpdf-rotated.pdf
{ printf 'From: soumu@example.jp\r\nSubject: mitsumori\r\nContent-Type: application/pdf\r\n\r\n'; cat lo-horizontal.pdf; } >junk-header.pdf
