#!/bin/sh
# Writes glyphlist.txt, the Adobe Glyph List (Copyright Adobe, BSD-3-Clause,
# the licence is the file's header), from the copy Debian's
# python3-fonttools ships in fontTools.agl:  cd internal/extract/pdf/agl && ./gen.sh
set -e
/usr/bin/python3 -c 'import sys; from fontTools import agl; sys.stdout.write(agl._aglText)' >glyphlist.txt
