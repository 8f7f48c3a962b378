#!/bin/sh
# Writes the glyph-name tables the PDF reader embeds, from the copies that
# Debian's python3-fonttools ships:  cd internal/extract/pdf/fontprog/glyphdata && ./gen.sh
#   glyphlist.txt         the Adobe Glyph List (fontTools.agl; Copyright
#                         Adobe, BSD-3-Clause, the licence is its header)
#   cff-strings.txt       the 391 standard strings of CFF (Adobe Technical
#                         Note #5176, Appendix A; fontTools.cffLib), one a
#                         line, SID 0 first
set -e
/usr/bin/python3 -c 'import sys; from fontTools import agl; sys.stdout.write(agl._aglText)' >glyphlist.txt
/usr/bin/python3 -c 'from fontTools import cffLib; print("\n".join(cffLib.cffStandardStrings))' >cff-strings.txt
