# Writes PDFs whose fonts have no ToUnicode map, as pdf.js's test suite
# has them (issue 33), with fontTools for the font programs and this
# script for the PDF objects (gen.sh runs it, then qpdf rewrites the
# cross-reference sections):  /usr/bin/python3 mkfonts.py OUT-PREFIX
#   PREFIX-type3.pdf    a Type 3 font (square glyph procedures) whose
#                       /Differences names its glyphs: Adobe Glyph List
#                       names, ligatures (f_f_i, T_h), uniXXXX and
#                       uniXXXXXXXX names, and g12 (no name of a text);
#                       and Helvetica whose /Differences names f_f_i, T_h
#                       and uni30C630C8
#   PREFIX-cid.pdf      CID TrueType subsets of DejaVu Sans (Type 0,
#                       Identity-H, /CIDToGIDMap /Identity, a (3,1) cmap),
#                       Russian text: one font's ToUnicode map gives Hangul
#                       (a broken map: each code's character plus U+AC00),
#                       the other has none (CIDSystemInfo Adobe-Identity-0;
#                       glyph indexes of the whole font, in the hundreds)
#   PREFIX-shifted.pdf  TrueType subsets of DejaVu Sans whose codes are
#                       given in order of first use from 0x21 (space at
#                       0x20), reached through a (3,0) cmap at F000+code,
#                       flagged symbolic, no /Encoding: the engine reads
#                       the codes as letters ("!\"#$%" for "Lorem"); one
#                       font names its glyphs in a 'post' table, the other
#                       has no names but a (3,1) cmap
#   PREFIX-numeric.pdf  Type 3 fonts whose /Differences names are numbers,
#                       one font a page, codes from 1: decimal after a
#                       letter (a76 for L), hexadecimal after a letter (G4C
#                       for L), and cid76 (no number to poppler: its codes
#                       pass through as text there)
#   PREFIX-cidcff.pdf   CID-keyed CFF fonts (FontFile3 /CIDFontType0C, a
#                       subset of Noto Sans CJK JP) without ToUnicode, one
#                       a page, Identity-H codes (CIDs) read by the
#                       /CIDSystemInfo ordering each declares: Adobe-Japan1,
#                       -GB1, -CNS1, -Korea1 (CIDs 34-36 are A-C in each;
#                       Japan1 843, 845, 847 are あいう)
# Needs fontTools (python3-fonttools), DejaVu Sans (fonts-dejavu-core) and
# Noto Sans CJK (fonts-noto-cjk).
import io, sys, zlib

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import cmap_format_4

DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
NOTOCJK = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'


class PDF:
    def __init__(self):
        self.objs = []

    def add(self, body):
        self.objs.append(body)
        return len(self.objs)

    def stream(self, data, extra=b''):
        z = zlib.compress(data)
        return self.add(b'<< /Length %d /Filter /FlateDecode %s>>\nstream\n' % (len(z), extra) + z + b'\nendstream')

    def write(self, path, root):
        out = io.BytesIO()
        out.write(b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')
        offs = []
        for i, body in enumerate(self.objs):
            offs.append(out.tell())
            out.write(b'%d 0 obj\n' % (i + 1) + body + b'\nendobj\n')
        x = out.tell()
        out.write(b'xref\n0 %d\n0000000000 65535 f \n' % (len(self.objs) + 1))
        for o in offs:
            out.write(b'%010d 00000 n \n' % o)
        out.write(b'trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(self.objs) + 1, root, x))
        open(path, 'wb').write(out.getvalue())


def page(pdf, content, fonts):
    c = pdf.stream(content)
    res = b' '.join(b'/%s %d 0 R' % (n.encode(), o) for n, o in fonts)
    pages = len(pdf.objs) + 2
    p = pdf.add(b'<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R /Resources << /Font << %s >> >> >>' % (pages, c, res))
    pdf.add(b'<< /Type /Pages /Kids [%d 0 R] /Count 1 >>' % p)
    return pdf.add(b'<< /Type /Catalog /Pages %d 0 R >>' % pages)


def type3(path):
    # code: glyph name; the text line shows them in this order.
    names = [
        (0x02, 'T_h'), (0x03, 'e'), (0x04, 'space'), (0x05, 'o'), (0x06, 'f_f_i'), (0x07, 'c'),
        (0x08, 'uni65E5672C'), (0x09, 'g12'), (0x41, 'T'), (0x42, 'Y'), (0x43, 'P'), (0x44, 'E'),
        (0x45, 'H'), (0x46, 'R'), (0x47, 'uni30C6'), (0x48, 'f_l'),
    ]
    line = [0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x03, 0x04, 0x08, 0x09, 0x04,
            0x41, 0x42, 0x43, 0x44, 0x41, 0x45, 0x46, 0x44, 0x44, 0x04, 0x47, 0x48]
    pdf = PDF()
    proc = pdf.stream(b'500 0 0 0 450 700 d1 0 0 450 700 re f\n')
    diffs, procs, prev = b'', b'', -2
    for code, name in names:
        if code != prev + 1:
            diffs += b' %d' % code
        diffs += b' /' + name.encode()
        procs += b' /%s %d 0 R' % (name.encode(), proc)
        prev = code
    first, last = min(c for c, _ in names), max(c for c, _ in names)
    widths = b' '.join(b'500' for _ in range(first, last + 1))
    font = pdf.add(b'<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0]'
                   b' /CharProcs <<%s >> /Encoding << /Type /Encoding /Differences [%s] >>'
                   b' /FirstChar %d /LastChar %d /Widths [%s] /Resources << >> >>' % (procs, diffs, first, last, widths))
    text = b''.join(b'%02X' % c for c in line)
    # Helvetica (not embedded) whose /Differences names ligatures and
    # a two-character uni name, which the engine does not read.
    helv = pdf.add(b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding'
                   b' /BaseEncoding /WinAnsiEncoding /Differences [1 /f_f_i /T_h /uni30C630C8] >> >>')
    content = (b'BT /T3 24 Tf 40 700 Td <%s> Tj ET\n' % text +
               b'BT /F1 14 Tf 40 650 Td (DIFF\001 \002e \003 DIFFSAA) Tj ET\n')
    pdf.write(path, page(pdf, content, [('T3', font), ('F1', helv)]))


def numeric_page(pdf, text, name):
    """A Type 3 font whose glyphs are text's characters in order of first
    use, coded from 1 and named name(character), and a content stream
    showing text."""
    order = []
    for ch in text:
        if ch not in order:
            order.append(ch)
    proc = pdf.stream(b'500 0 0 0 450 700 d1 0 0 450 700 re f\n')
    diffs = b' '.join(b'/' + name(ch).encode() for ch in order)
    procs = b''.join(b' /%s %d 0 R' % (name(ch).encode(), proc) for ch in order)
    widths = b' '.join(b'500' for _ in order)
    font = pdf.add(b'<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0]'
                   b' /CharProcs <<%s >> /Encoding << /Type /Encoding /Differences [1 %s] >>'
                   b' /FirstChar 1 /LastChar %d /Widths [%s] /Resources << >> >>' % (procs, diffs, len(order), widths))
    codes = b''.join(b'%02X' % (order.index(ch) + 1) for ch in text)
    return font, b'BT /T3 24 Tf 40 700 Td <%s> Tj ET\n' % codes


def numeric(path):
    pdf = PDF()
    pages = [
        numeric_page(pdf, 'Lorem NUMDECAA', lambda ch: 'a%d' % ord(ch)),
        numeric_page(pdf, 'Hex HEXNUMBB', lambda ch: 'G%02X' % ord(ch)),
        numeric_page(pdf, 'CIDNAMES', lambda ch: 'cid%d' % ord(ch)),
    ]
    kids = []
    tree = len(pdf.objs) + 2 * len(pages) + 1
    for font, content in pages:
        c = pdf.stream(content)
        kids.append(pdf.add(b'<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R'
                            b' /Resources << /Font << /T3 %d 0 R >> >> >>' % (tree, c, font)))
    pdf.add(b'<< /Type /Pages /Kids [%s] /Count %d >>' % (b' '.join(b'%d 0 R' % k for k in kids), len(kids)))
    pdf.write(path, pdf.add(b'<< /Type /Catalog /Pages %d 0 R >>' % tree))


def cidcff(path):
    f = TTFont(NOTOCJK, fontNumber=0)
    opts = subset.Options()
    opts.notdef_outline = True
    opts.desubroutinize = True
    sub = subset.Subsetter(opts)
    sub.populate(text='ABCあいう')
    sub.subset(f)
    prog = io.BytesIO()
    f['CFF '].cff.compile(prog, f)
    pdf = PDF()
    ff = pdf.stream(prog.getvalue(), b'/Subtype /CIDFontType0C ')
    desc = pdf.add(b'<< /Type /FontDescriptor /FontName /EAAAAA+NotoSansCJKjp-Regular /Flags 4 /FontBBox [0 -120 1000 880]'
                   b' /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 /FontFile3 %d 0 R >>' % ff)
    cids = [34, 35, 36, 1, 843, 845, 847, 1, 3056, 3057, 3058]
    content = pdf.stream(b'BT /F1 24 Tf 40 700 Td <%s> Tj ET\n' % b''.join(b'%04X' % c for c in cids))
    orderings = [(b'Japan1', 6), (b'GB1', 5), (b'CNS1', 7), (b'Korea1', 2)]
    tree = len(pdf.objs) + 3 * len(orderings) + 1
    kids = []
    for ordering, supplement in orderings:
        cid = pdf.add(b'<< /Type /Font /Subtype /CIDFontType0 /BaseFont /EAAAAA+NotoSansCJKjp-Regular'
                      b' /CIDSystemInfo << /Registry (Adobe) /Ordering (%s) /Supplement %d >> /FontDescriptor %d 0 R'
                      b' /DW 1000 >>' % (ordering, supplement, desc))
        font = pdf.add(b'<< /Type /Font /Subtype /Type0 /BaseFont /EAAAAA+NotoSansCJKjp-Regular /Encoding /Identity-H'
                       b' /DescendantFonts [%d 0 R] >>' % cid)
        kids.append(pdf.add(b'<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R'
                            b' /Resources << /Font << /F1 %d 0 R >> >> >>' % (tree, content, font)))
    pdf.add(b'<< /Type /Pages /Kids [%s] /Count %d >>' % (b' '.join(b'%d 0 R' % k for k in kids), len(kids)))
    pdf.write(path, pdf.add(b'<< /Type /Catalog /Pages %d 0 R >>' % tree))


def truetype(pdf, text, post):
    """A TrueType font of text's glyphs whose codes are given in order of
    first use, and text's codes."""
    f = TTFont(DEJAVU)
    best = f.getBestCmap()
    order = []
    for ch in text:
        if ch != ' ' and ch not in order:
            order.append(ch)
    codes = {' ': 0x20}
    for i, ch in enumerate(order):
        codes[ch] = 0x21 + i
    opts = subset.Options()
    opts.glyph_names = post
    opts.notdef_outline = True
    opts.name_IDs = ['*']
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in codes])
    sub.subset(f)
    best = f.getBestCmap()
    sym = cmap_format_4(4)
    sym.platformID, sym.platEncID, sym.language = 3, 0, 0
    sym.cmap = {0xf000 + code: best[ord(ch)] for ch, code in codes.items()}
    tables = [sym]
    if not post:
        # No names: the (3,1) cmap tells each glyph's character.
        uni = cmap_format_4(4)
        uni.platformID, uni.platEncID, uni.language = 3, 1, 0
        uni.cmap = {ord(ch): best[ord(ch)] for ch in codes}
        tables.append(uni)
        f['post'].formatType = 3.0
    f['cmap'].tables = tables
    out = io.BytesIO()
    f.save(out)
    prog = out.getvalue()
    ff = pdf.stream(prog, b'/Length1 %d ' % len(prog))
    name = b'AAAAAA+DejaVuSans' if post else b'BAAAAA+DejaVuSans'
    desc = pdf.add(b'<< /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [-1021 -463 1793 1232]'
                   b' /ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 %d 0 R >>' % (name, ff))
    last = max(codes.values())
    gs = f.getGlyphSet()
    inv = {v: k for k, v in codes.items()}
    widths = b' '.join(b'%d' % (gs[best[ord(inv[c])]].width * 1000 // 2048 if c in inv else 0) for c in range(0x20, last + 1))
    font = pdf.add(b'<< /Type /Font /Subtype /TrueType /BaseFont /%s /FirstChar 32 /LastChar %d'
                   b' /Widths [%s] /FontDescriptor %d 0 R >>' % (name, last, widths, desc))
    return font, b''.join(b'%02X' % codes[ch] for ch in text)


def shifted(path):
    pdf = PDF()
    f1, t1 = truetype(pdf, 'Lorem ipsum dolor SHIFTEDAA', True)
    f2, t2 = truetype(pdf, 'Quick brown fox SHIFTEDBB', False)
    content = b'BT /F1 14 Tf 40 700 Td <%s> Tj ET\nBT /F2 14 Tf 40 670 Td <%s> Tj ET\n' % (t1, t2)
    pdf.write(path, page(pdf, content, [('F1', f1), ('F2', f2)]))


def cidfont(pdf, text, name, hangul):
    """A Type 0 font of text's glyphs (CID = glyph index), and text's
    codes; with hangul, a ToUnicode map that is off by U+AC00; without,
    the glyphs keep their indexes in DejaVu Sans (in the hundreds: codes
    that are no control characters)."""
    f = TTFont(DEJAVU)
    opts = subset.Options()
    opts.retain_gids = not hangul
    opts.notdef_outline = True
    opts.name_IDs = ['*']
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in set(text)])
    sub.subset(f)
    best = f.getBestCmap()
    uni = cmap_format_4(4)
    uni.platformID, uni.platEncID, uni.language = 3, 1, 0
    uni.cmap = dict(best)
    f['cmap'].tables = [uni]
    f['post'].formatType = 3.0
    out = io.BytesIO()
    f.save(out)
    prog = out.getvalue()
    gid = {c: f.getGlyphID(best[ord(c)]) for c in set(text)}
    ff = pdf.stream(prog, b'/Length1 %d ' % len(prog))
    desc = pdf.add(b'<< /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [-1021 -463 1793 1232]'
                   b' /ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 %d 0 R >>' % (name, ff))
    gs = f.getGlyphSet()
    widths = b' '.join(b'%d [%d]' % (g, gs[best[ord(c)]].width * 1000 // 2048) for c, g in sorted(gid.items(), key=lambda x: x[1]))
    cid = pdf.add(b'<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /CIDSystemInfo << /Registry (Adobe)'
                  b' /Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /CIDToGIDMap /Identity /W [%s] >>' % (name, desc, widths))
    tu = b''
    if hangul:
        pairs = b''.join(b'<%04X> <%04X>\n' % (g, ord(c) + 0xac00) for c, g in sorted(gid.items(), key=lambda x: x[1]))
        cmap = (b'/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n'
                b'/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n'
                b'/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n'
                b'1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n'
                b'%d beginbfchar\n' % len(gid) + pairs + b'endbfchar\nendcmap\n'
                b'CMapName currentdict /CMap defineresource pop\nend\nend\n')
        tu = b' /ToUnicode %d 0 R' % pdf.stream(cmap)
    font = pdf.add(b'<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H'
                   b' /DescendantFonts [%d 0 R]%s >>' % (name, cid, tu))
    return font, b''.join(b'%04X' % gid[c] for c in text)


def cid(path):
    pdf = PDF()
    f1, t1 = cidfont(pdf, 'Привет мир CIDHANGULAA', b'CAAAAA+DejaVuSans', True)
    f2, t2 = cidfont(pdf, 'Добрый день CIDNONEBB', b'DAAAAA+DejaVuSansCID', False)
    content = b'BT /F1 14 Tf 40 700 Td <%s> Tj ET\nBT /F2 14 Tf 40 670 Td <%s> Tj ET\n' % (t1, t2)
    pdf.write(path, page(pdf, content, [('F1', f1), ('F2', f2)]))


prefix = sys.argv[1]
cid(prefix + '-cid.pdf')
type3(prefix + '-type3.pdf')
shifted(prefix + '-shifted.pdf')
numeric(prefix + '-numeric.pdf')
cidcff(prefix + '-cidcff.pdf')
