#!/bin/sh
# Regenerates the legacy Word and PowerPoint fixtures from their flat ODF
# sources with LibreOffice (the same program that is the native readers'
# oracle):  cd internal/extract/testdata/legacy && ./gen.sh
set -e
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
soffice -env:UserInstallation="file://$profile" --headless --convert-to doc word.fodt
soffice -env:UserInstallation="file://$profile" --headless --convert-to ppt slides.fodp
