# Edits a PDF that qpdf wrote in QDF mode (qpdf --qdf), for the fixtures
# gen.sh makes: python3 qdfedit.py MODE IN.qdf OUT.qdf, then fix-qdf.
#   badpage  page 2's object becomes a string (no page dictionary)
#   allbad   every page's object becomes a string
#   crop     the one page is shown twice from one shared content stream:
#            page 1 crops the upper half, page 2 the lower half
import re, sys

mode, src, dst = sys.argv[1:4]
s = open(src, 'rb').read()

def pages():
    kids = re.search(rb'/Kids \[\n((?:\s+\d+ 0 R\n)+)\s+\]', s)
    return [int(n) for n in re.findall(rb'(\d+) 0 R', kids.group(1))]

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
else:
    sys.exit('unknown mode ' + mode)
open(dst, 'wb').write(s)
