# Edits a PDF that qpdf wrote in QDF mode (qpdf --qdf), for the fixtures
# gen.sh makes: python3 qdfedit.py MODE IN.qdf OUT.qdf, then fix-qdf.
#   badpage  page 2's object becomes a string (no page dictionary)
#   allbad   every page's object becomes a string
#   crop     the one page is shown twice from one shared content stream:
#            page 1 crops the upper half, page 2 the lower half
#   cropglyphs  each page gets its own crop box, which cuts off part of
#            its text (qpdf merged py-shifted.pdf, py-type3.pdf and
#            py-cid.pdf): fonts without a ToUnicode map on cropped pages
#   signature  a signed signature field on page 1 (lo-form.pdf): a /Sig
#            widget whose appearance stream shows who signed and when, as
#            signing tools draw it (Helvetica, no embedded font)
#   notounicode  every font loses its /ToUnicode map (what many writers
#            leave out): the text can only come from the font itself
#   type1c   as glyphnames, and each Type 1 font program becomes the bare
#            CFF program (FontFile3 /Type1C) of the same glyphs and built-in
#            encoding, as Acrobat Distiller and Ghostscript embed them
#   brokenmap, brokenmap1c  as glyphnames (brokenmap1c: as type1c), but
#            each font keeps a ToUnicode map, rewritten as broken writers
#            and deliberate ones write them: the TrueType font's gives
#            Hangul (each character plus U+AC00), the Latin Type 1 font's
#            Greek (plus U+0350), both contradicting the glyph names; the
#            kanji Type 1 font's gives each glyph the text of the next one
#            (日 for 本 ...; the space an ideographic space): a map that
#            contradicts the names in their own script, which must stay
#   glyphnames   as notounicode, and each font's glyphs get the names
#            other writers give them, taken from the map removed: a
#            TrueType font program gets a 'post' table of format 2 (Adobe
#            Glyph List names, uniXXXX, ligatures as f_f_i), a Type 1
#            font's glyphs are renamed the same instead of cidNNN (its
#            CharStrings and built-in /Encoding); needs python3-fonttools
#            (Debian)
import re, sys

mode, src, dst = sys.argv[1:4]
s = open(src, 'rb').read()

def pages():
    kids = re.search(rb'/Kids \[\n((?:\s+\d+ 0 R\n)+)\s+\]', s)
    return [int(n) for n in re.findall(rb'(\d+) 0 R', kids.group(1))]

def stream(s, num):
    """The data of stream object num (QDF streams are not compressed)."""
    i = s.index(b'\n%d 0 obj\n' % num) + 1
    n = int(re.search(rb'/Length (\d+) 0 R', s[i:]).group(1))
    length = int(re.search(rb'\n%d 0 obj\n(\d+)\n' % n, s).group(1))
    j = s.index(b'stream\n', i) + len(b'stream\n')
    return s[j:j + length]

def replace_stream(s, num, data):
    """Replaces stream object num's data and its /Length object."""
    i = s.index(b'\n%d 0 obj\n' % num) + 1
    j = s.index(b'stream\n', i) + len(b'stream\n')
    k = s.index(b'endstream', j)
    head = re.sub(rb'/Length1 \d+', b'/Length1 %d' % len(data), s[i:j])
    s = s[:i] + head + data + b'\n' + s[k:]
    n = int(re.search(rb'/Length (\d+) 0 R', head).group(1))
    return re.sub(rb'\n%d 0 obj\n\d+\n' % n, b'\n%d 0 obj\n%d\n' % (n, len(data)), s, count=1)

def to_unicode(cmap):
    """code -> text of a ToUnicode CMap's bfchar entries (LibreOffice's)."""
    m = {}
    for sec in re.findall(rb'beginbfchar\n(.*?)endbfchar', cmap, re.S):
      for code, hexs in re.findall(rb'<([0-9A-Fa-f]+)> <([0-9A-Fa-f]+)>', sec):
        m[int(code, 16)] = bytes.fromhex(hexs.decode()).decode('utf-16-be')
    return m

def glyph_name(text):
    """A glyph's name as the Adobe Glyph List spec forms it."""
    from fontTools import agl
    def one(c):
        if ord(c) in agl.UV2AGL:
            return agl.UV2AGL[ord(c)]
        return 'uni%04X' % ord(c) if ord(c) < 0x10000 else 'u%05X' % ord(c)
    return '_'.join(one(c) for c in text)

def name_glyphs(s, tu, desc):
    i = s.index(b'\n%d 0 obj\n' % desc) + 1
    d = s[i:s.index(b'endobj', i)]
    tt = re.search(rb'/FontFile2 (\d+) 0 R', d)
    t1 = re.search(rb'/FontFile (\d+) 0 R', d)
    if tt:
        return replace_stream(s, int(tt.group(1)), post_names(stream(s, int(tt.group(1))), tu))
    if t1:
        data, lengths = type1_names(stream(s, int(t1.group(1))), tu)
        s = replace_stream(s, int(t1.group(1)), data)
        i = s.index(b'\n%s 0 obj\n' % t1.group(1)) + 1
        j = s.index(b'stream\n', i)
        head = s[i:j]
        for k, n in zip((b'/Length1', b'/Length2', b'/Length3'), lengths):
            head = re.sub(k + rb' \d+', k + b' %d' % n, head)
        return s[:i] + head + s[j:]
    return s

def type1_names(data, tu):
    """A Type 1 program whose glyphs (cidNNN in LibreOffice's) are
    renamed, in its built-in /Encoding and its encrypted CharStrings
    alike, and the lengths of its clear-text, eexec and trailer parts."""
    from fontTools.misc import eexec
    a = data.index(b'eexec') + len(b'eexec')
    while data[a:a + 1] in (b'\r', b'\n', b' '):
        a += 1
    b = data.index(b'0' * 64)
    while data[b - 1:b] in (b'\r', b'\n'):
        b -= 1
    clear, private = data[:a], eexec.decrypt(data[a:b], 55665)[0]
    for code, text in tu.items():
        m = re.search(rb'dup %d /([^ ]+) put' % code, clear)
        if not m or m.group(1) == b'.notdef':
            continue
        old, new = m.group(1), glyph_name(text).encode()
        clear = clear.replace(b'/%s put' % old, b'/%s put' % new)
        private = re.sub(rb'/%s (\d+ (RD|-\|) )' % re.escape(old), lambda x: b'/' + new + b' ' + x.group(1), private, count=1)
    enc = eexec.encrypt(private, 55665)[0]
    out = clear + enc + data[b:]
    return out, (len(clear), len(enc), len(data) - b)

def post_names(ttf, tu):
    """ttf with a 'post' table of format 2 naming each glyph that a code
    of tu reaches through the font's (3,0) or (1,0) cmap."""
    import io, struct
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables.DefaultTable import DefaultTable
    f = TTFont(io.BytesIO(ttf))
    n = f['maxp'].numGlyphs
    names = ['.notdef'] + ['glyph%d' % g for g in range(1, n)]
    for sub in f['cmap'].tables:
        for code, gname in sub.cmap.items():
            if (code & 0xff) in tu and code in (code & 0xff, 0xf000 | (code & 0xff)):
                names[f.getGlyphID(gname)] = glyph_name(tu[code & 0xff])
    old = f.reader['post']
    data = struct.pack('>I', 0x20000) + old[4:32] + struct.pack('>H', n)
    data += b''.join(struct.pack('>H', 258 + g) for g in range(n))
    data += b''.join(bytes([len(x)]) + x.encode() for x in names)
    post = DefaultTable('post')
    post.data = data
    f['post'] = post
    out = io.BytesIO()
    f.save(out)
    return out.getvalue()

def to_type1c(s, num):
    """Stream num, a Type 1 program, becomes the CFF program of its
    glyphs (charstrings converted by fontTools) and built-in encoding."""
    import io, os, tempfile
    from fontTools import t1Lib
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.recordingPen import RecordingPen
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    with tempfile.NamedTemporaryFile(suffix='.pfa', delete=False) as f:
        f.write(stream(s, num))
    try:
        t1 = t1Lib.T1Font(f.name)
        t1.parse()
    finally:
        os.unlink(f.name)
    cs = t1.font['CharStrings']
    names = list(cs.keys())
    charstrings = {}
    for n in names:
        rec = RecordingPen()
        cs[n].draw(rec)
        pen = T2CharStringPen(cs[n].width, None)
        rec.replay(pen)
        charstrings[n] = pen.getCharString()
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    fb.setupCFF(t1.font['FontName'], {}, charstrings, {})
    cff = fb.font['CFF '].cff
    cff.topDictIndex[0].Encoding = list(t1.font['Encoding'])
    out = io.BytesIO()
    cff.compile(out, fb.font)
    s = replace_stream(s, num, out.getvalue())
    i = s.index(b'\n%d 0 obj\n' % num) + 1
    j = s.index(b'stream\n', i)
    head = re.sub(rb'\n  /Length[123] \d+', b'', s[i:j])
    head = head.replace(b'<<\n', b'<<\n  /Subtype /Type1C\n', 1)
    return s[:i] + head + s[j:]

def broken_map(tu, truetype):
    """A ToUnicode CMap of tu's codes (one byte), its text transformed as
    the brokenmap mode says."""
    codes = sorted(tu)
    if truetype:
        text = {c: ''.join(chr(ord(x) + 0xac00) for x in tu[c]) for c in codes}
    elif any(ord(x) >= 0x3000 for c in codes for x in tu[c]):
        ring = [c for c in codes if tu[c] != ' ']
        text = {c: tu[ring[(ring.index(c) + 1) % len(ring)]] if c in ring else '\u3000' for c in codes}
    else:
        text = {c: ''.join(chr(ord(x) + 0x350) for x in tu[c]) for c in codes}
    pairs = b''.join(b'<%02X> <%s>\n' % (c, text[c].encode('utf-16-be').hex().upper().encode()) for c in codes)
    return (b'/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n'
            b'/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n'
            b'/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n'
            b'1 begincodespacerange\n<00> <FF>\nendcodespacerange\n'
            b'%d beginbfchar\n' % len(codes) + pairs + b'endbfchar\nendcmap\n'
            b'CMapName currentdict /CMap defineresource pop\nend\nend\n')

def replace_object(s, num, body):
    i = s.index(b'\n%d 0 obj\n' % num) + 1
    j = s.index(b'endobj', i)
    return s[:i] + b'%d 0 obj\n' % num + body + b'\n' + s[j:]

if mode == 'badpage':
    s = replace_object(s, pages()[1], b'(a page that is no dictionary)')
elif mode == 'allbad':
    for n in pages():
        s = replace_object(s, n, b'(a page that is no dictionary)')
elif mode == 'crop':
    first = pages()[0]
    i = s.index(b'\n%d 0 obj\n' % first) + 1
    j = s.index(b'endobj', i)
    obj = s[i:j]
    body = obj[obj.index(b'<<'):obj.rindex(b'>>') + 2]
    top = body[:-2] + b'  /CropBox [ 0 421 595.3 841.9 ]\n>>'
    bottom = body[:-2] + b'  /CropBox [ 0 0 595.3 421 ]\n>>'
    s = replace_object(s, first, top)
    new = max(int(n) for n in re.findall(rb'\n(\d+) 0 obj\n', s)) + 1
    x = s.index(b'\nxref\n') + 1
    s = s[:x] + b'%d 0 obj\n' % new + bottom + b'\nendobj\n\n' + s[x:]
    s = re.sub(rb'/Count 1\n', b'/Count 2\n', s, count=1)
    s = re.sub(rb'(/Kids \[\n\s+%d 0 R\n)' % first, lambda m: m.group(1) + b'    %d 0 R\n' % new, s, count=1)
elif mode == 'cropglyphs':
    # Page 1 (py-shifted): the first line's first three words; page 2
    # (py-type3): the Type 3 line's first three words and the Helvetica
    # line whole; page 3 (py-cid): the left part of both lines.
    boxes = [b'0 690 175 842', b'0 600 160 842', b'0 600 130 842']
    for num, box in zip(pages(), boxes):
        i = s.index(b'\n%d 0 obj\n' % num) + 1
        j = s.index(b'endobj', i)
        obj = s[i:j]
        body = obj[obj.index(b'<<'):obj.rindex(b'>>') + 2]
        s = replace_object(s, num, body[:-2] + b'  /CropBox [ ' + box + b' ]\n>>')
elif mode == 'signature':
    new = max(int(n) for n in re.findall(rb'\n(\d+) 0 obj\n', s)) + 1
    # fix-qdf wants a stream's length object right after the stream.
    widget, ap, length, font = new, new + 1, new + 2, new + 3
    content = (b'BT /F1 11 Tf 8 38 Td (Signed by YAMADA Taro SIGNERZZ) Tj '
               b'0 -16 Td (2026-12-05 SIGDATEYY) Tj ET\n')
    # The value: a signature dictionary (its /Contents a stand-in, no
    # real PKCS#7: the fixture tests the text shown, not the signing).
    objs = (b'%d 0 obj\n<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /F 4\n'
            b'   /Rect [ 300 80 540 140 ] /AP << /N %d 0 R >>\n'
            b'   /V << /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached\n'
            b'         /Name (YAMADA Taro) /M (D:20261205090000+09\'00\') /Reason (SIGREASONXX)\n'
            b'         /ByteRange [ 0 0 0 0 ] /Contents <00> >> >>\nendobj\n\n' % (widget, ap))
    objs += (b'%d 0 obj\n<< /Type /XObject /Subtype /Form /BBox [ 0 0 240 60 ]\n'
             b'   /Resources << /Font << /F1 %d 0 R >> >> /Length %d 0 R >>\nstream\n' % (ap, font, length))
    objs += content + b'endstream\nendobj\n\n'
    objs += b'%d 0 obj\n%d\nendobj\n\n' % (length, len(content))
    objs += b'%d 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>\nendobj\n\n' % font
    x = s.index(b'\nxref\n') + 1
    s = s[:x] + objs + s[x:]
    s = s.replace(b'  /Annots [\n', b'  /Annots [\n    %d 0 R\n' % widget, 1)
    s = s.replace(b'    /Fields [\n', b'    /Fields [\n      %d 0 R\n' % widget, 1)
elif mode in ('notounicode', 'glyphnames', 'type1c', 'brokenmap', 'brokenmap1c'):
    if mode != 'notounicode':
        for font in re.findall(rb'\n(\d+) 0 obj\n<<\n((?:  .*\n)+?)>>', s):
            tu = re.search(rb'/ToUnicode (\d+) 0 R', font[1])
            fd = re.search(rb'/FontDescriptor (\d+) 0 R', font[1])
            if tu and fd:
                m = to_unicode(stream(s, int(tu.group(1))))
                s = name_glyphs(s, m, int(fd.group(1)))
                if mode.startswith('brokenmap'):
                    s = replace_stream(s, int(tu.group(1)), broken_map(m, b'/Subtype /TrueType' in font[1]))
    if not mode.startswith('brokenmap'):
        s = re.sub(rb'\n  /ToUnicode \d+ 0 R', b'', s)
    if mode in ('type1c', 'brokenmap1c'):
        for num in re.findall(rb'\n  /FontFile (\d+) 0 R', s):
            s = to_type1c(s, int(num))
        s = re.sub(rb'\n  /FontFile (\d+ 0 R)', rb'\n  /FontFile3 \1', s)
else:
    sys.exit('unknown mode ' + mode)
open(dst, 'wb').write(s)
