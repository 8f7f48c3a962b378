package pdfobj

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// StreamData returns a stream's data, decrypted (crypt.go), through its
// filters: none or /FlateDecode (with a PNG predictor); another filter,
// or a stream of an encrypted file that needs a password, is an error.
func (f *File) StreamData(s Stream) ([]byte, error) {
	decrypt := f.trailer["Encrypt"] != nil && s.Dict["Type"] != Name("XRef")
	if decrypt && f.crypt == nil {
		return nil, errPassword
	}
	if decrypt && s.Dict["Type"] == Name("Metadata") && !f.crypt.encryptMetadata {
		decrypt = false
	}
	length, ok := Int(f.Resolve(s.Dict["Length"]))
	if !ok || length < 0 || s.offset+length > f.size {
		// A wrong length: the data ends at `endstream`.
		b := f.read(s.offset, maxStreamBytes)
		i := bytes.Index(b, []byte("endstream"))
		if i < 0 {
			return nil, errors.New("pdfobj: stream without endstream")
		}
		length = int64(i)
	}
	if length > maxStreamBytes {
		return nil, errors.New("pdfobj: stream too long")
	}
	data := bytes.Clone(f.read(s.offset, int(length)))
	if decrypt {
		var err error
		if data, err = f.crypt.decrypt(f.crypt.stm, s.num, s.gen, data); err != nil {
			return nil, err
		}
	}
	filters := f.Resolve(s.Dict["Filter"])
	parms := f.Resolve(s.Dict["DecodeParms"])
	if n, ok := filters.(Name); ok {
		filters, parms = Array{n}, Array{parms}
	}
	fa, _ := filters.(Array)
	pa, _ := parms.(Array)
	for i, fo := range fa {
		switch f.Resolve(fo) {
		case Name("FlateDecode"), Name("Fl"):
			out, err := inflate(data)
			if err != nil {
				return nil, err
			}
			var dp Dict
			if i < len(pa) {
				dp, _ = f.Resolve(pa[i]).(Dict)
			}
			if data, err = unpredict(out, dp); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("pdfobj: filter %v not read", fo)
		}
	}
	return data, nil
}

func inflate(b []byte) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("pdfobj: inflate: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxStreamBytes+1))
	if len(out) > maxStreamBytes {
		return nil, errors.New("pdfobj: stream inflates too far")
	}
	if err != nil && len(out) == 0 {
		return nil, fmt.Errorf("pdfobj: inflate: %w", err)
	}
	// A cut stream keeps what inflated (readers do the same).
	return out, nil
}

// unpredict undoes a PNG predictor (/Predictor 10–15, each row led by its
// filter type byte); /Predictor 1 or none leaves the data.
func unpredict(b []byte, dp Dict) ([]byte, error) {
	pred, _ := Int(dp["Predictor"])
	if pred < 10 {
		if pred == 2 {
			return nil, errors.New("pdfobj: TIFF predictor not read")
		}
		return b, nil
	}
	cols, ok := Int(dp["Columns"])
	if !ok {
		cols = 1
	}
	colors, ok := Int(dp["Colors"])
	if !ok {
		colors = 1
	}
	bpc, ok := Int(dp["BitsPerComponent"])
	if !ok {
		bpc = 8
	}
	if cols <= 0 || colors <= 0 || bpc <= 0 || cols*colors*bpc > 1<<20 {
		return nil, errors.New("pdfobj: bad predictor parameters")
	}
	bpp := int(max((colors*bpc)/8, 1))
	row := int((cols*colors*bpc + 7) / 8)
	prev := make([]byte, row)
	out := make([]byte, 0, len(b))
	for i := 0; i+1+row <= len(b); i += row + 1 {
		typ, cur := b[i], b[i+1:i+1+row]
		for j := range cur {
			var left, upLeft byte
			if j >= bpp {
				left, upLeft = cur[j-bpp], prev[j-bpp]
			}
			up := prev[j]
			switch typ {
			case 1:
				cur[j] += left
			case 2:
				cur[j] += up
			case 3:
				cur[j] += byte((int(left) + int(up)) / 2)
			case 4:
				cur[j] += paeth(left, up, upLeft)
			}
		}
		out = append(out, cur...)
		prev = cur
	}
	return out, nil
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
