#!/bin/sh
# Regenerates the OpenDocument fixtures and the RTF fixture from the flat
# ODF sources src-*.f* with LibreOffice, so every fixture is written by a
# program other than fumibako:  cd internal/extract/odf/testdata && ./gen.sh
set -e
profile=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$profile" "$out"' EXIT
lo() { soffice -env:UserInstallation="file://$profile" --headless "$@" >/dev/null; }
lo --convert-to odt --outdir "$out" src-text.fodt
lo --convert-to fodt --outdir "$out/flat" src-text.fodt
lo --convert-to rtf --outdir "$out" src-text.fodt
lo --convert-to ods --outdir "$out" src-sheet.fods
lo --convert-to fods --outdir "$out/flat" src-sheet.fods
lo --convert-to odp --outdir "$out" src-slides.fodp
lo --convert-to fodp --outdir "$out/flat" src-slides.fodp
cp "$out/src-text.odt" text.odt
cp "$out/flat/src-text.fodt" text.fodt
cp "$out/src-sheet.ods" sheet.ods
cp "$out/flat/src-sheet.fods" sheet.fods
cp "$out/src-slides.odp" slides.odp
cp "$out/flat/src-slides.fodp" slides.fodp
cp "$out/src-text.rtf" ../../rtf/testdata/text.rtf

# ooo2-manifest.odt: text.odt with META-INF/manifest.xml as OpenOffice.org
# 2.x wrote it (a DOCTYPE naming Manifest.dtd, no internal subset; issue
# 33), repacked by Info-ZIP's zip with mimetype stored first.
./ooo2.sh
