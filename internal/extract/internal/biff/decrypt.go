package biff

import (
	"bytes"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"unicode/utf16"
)

// Workbooks encrypted with Excel's default password "VelvetSweatshop"
// ([MS-XLS] 2.2.10: Excel writes them when the workbook structure is
// protected, and opens them without asking) are decrypted natively; the
// protection check (package officefile) has already sent every workbook
// with a real read password to MsgPassword.
//
// RC4 ([MS-OFFCRYPTO] 2.3.6) and RC4 CryptoAPI (2.3.5) encrypt the stream
// in blocks of 1,024 bytes counted from the start of the stream, each block
// with its own key; record headers, the records BOF, FILEPASS,
// INTERFACEHDR, USREXCL, FILELOCK, RRDINFO and RRDHEAD, and the lbPlyPos
// field of BOUNDSHEET are stored in clear, while the key stream still runs
// over them. XOR obfuscation (2.3.7, Excel 95 and some 97 files) is not
// decrypted: such workbooks go to LibreOffice.

const DefaultPassword = "VelvetSweatshop"

// RC4Block is the re-keying interval of BIFF8 encryption.
const RC4Block = 1024

// Decrypter holds the key schedule of one encrypted workbook stream.
type Decrypter struct {
	blockKey func(block uint32) []byte
	c        *rc4.Cipher
	block    int64 // block the cipher is keyed for; -1 none
	pos      int64 // stream offset the cipher has reached
	skip     [256]byte
}

// ErrPassword: the FILEPASS verifier rejects the default password.
var ErrPassword = errors.New("extract: xls workbook has a read password")

// NewDecrypter reads a FILEPASS record: ErrEncrypted when the
// encryption is not RC4, ErrPassword when the default password does not
// open it.
func NewDecrypter(data []byte) (*Decrypter, error) {
	le := binary.LittleEndian
	if len(data) < 6 || le.Uint16(data) != 1 {
		return nil, ErrEncrypted
	}
	major, minor := le.Uint16(data[2:]), le.Uint16(data[4:])
	pw := UTF16LE(DefaultPassword)
	var key func(uint32) []byte
	switch {
	case major == 1 && minor == 1:
		h := data[6:]
		if len(h) < 48 {
			return nil, ErrEncrypted
		}
		key = RC4Keys(h[:16], pw)
		if !verify(key(0), h[16:32], h[32:48], func(v []byte) []byte { s := md5.Sum(v); return s[:] }) {
			return nil, ErrPassword
		}
	case major >= 2 && major <= 4 && minor == 2:
		h := data[6:]
		if len(h) < 8 {
			return nil, ErrEncrypted
		}
		hs := int64(le.Uint32(h[4:]))
		if hs < 32 || hs > int64(len(h)-8) {
			return nil, ErrEncrypted
		}
		eh := h[8 : 8+hs]
		bits := le.Uint32(eh[16:])
		if bits == 0 {
			bits = 40
		}
		if bits < 40 || bits > 128 || bits%8 != 0 {
			return nil, ErrEncrypted
		}
		v := h[8+hs:]
		if len(v) < 60 || le.Uint32(v) != 16 || le.Uint32(v[36:]) != 20 {
			return nil, ErrEncrypted
		}
		h0 := sha1.Sum(append(append([]byte(nil), v[4:20]...), pw...))
		key = func(b uint32) []byte {
			hf := sha1.Sum(binary.LittleEndian.AppendUint32(append([]byte(nil), h0[:]...), b))
			k := make([]byte, 16)
			copy(k, hf[:bits/8])
			if bits != 40 {
				k = hf[:bits/8]
			}
			return k
		}
		// CryptoAPI decrypts verifier and hash with one running stream.
		c, err := rc4.NewCipher(key(0))
		if err != nil {
			return nil, ErrEncrypted
		}
		dec := make([]byte, 36)
		c.XORKeyStream(dec[:16], v[20:36])
		c.XORKeyStream(dec[16:], v[40:60])
		sum := sha1.Sum(dec[:16])
		if !bytes.Equal(sum[:], dec[16:]) {
			return nil, ErrPassword
		}
	default:
		return nil, ErrEncrypted
	}
	return &Decrypter{blockKey: key, block: -1}, nil
}

// RC4Keys derives the block keys of RC4 encryption ([MS-OFFCRYPTO]
// 2.3.6.2): MD5 of the password, its first 5 bytes and the salt repeated
// 16 times hashed again and cut to 5 bytes, then per block MD5 of that and
// the block number.
func RC4Keys(salt, password []byte) func(uint32) []byte {
	h0 := md5.Sum(password)
	buf := make([]byte, 0, 16*21)
	for range 16 {
		buf = append(append(buf, h0[:5]...), salt...)
	}
	h1 := md5.Sum(buf)
	base := h1[:5]
	return func(b uint32) []byte {
		k := md5.Sum(binary.LittleEndian.AppendUint32(append([]byte(nil), base...), b))
		return k[:]
	}
}

// verify decrypts an RC4 verifier and its hash with one running key
// stream and compares.
func verify(key, verifier, hash []byte, sum func([]byte) []byte) bool {
	c, err := rc4.NewCipher(key)
	if err != nil {
		return false
	}
	v := make([]byte, len(verifier))
	c.XORKeyStream(v, verifier)
	h := make([]byte, len(hash))
	c.XORKeyStream(h, hash)
	return bytes.Equal(sum(v), h)
}

func UTF16LE(s string) []byte {
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return b
}

// clearRecord reports whether records of type typ are stored without
// encryption ([MS-XLS] 2.2.10: BOF, FILEPASS, INTERFACEHDR, USREXCL,
// FILELOCK, RRDInfo and RRDHead).
func clearRecord(typ uint16) bool {
	switch typ {
	case RBOF, RFilePass, 0x00E1, 0x0194, 0x0195, 0x0196, 0x0138:
		return true
	}
	return false
}

// Record decrypts the data of one record in place; off is the stream
// offset of the data.
func (d *Decrypter) Record(typ uint16, off int64, data []byte) {
	if clearRecord(typ) {
		return
	}
	if typ == RBoundSheet && len(data) >= 4 {
		off += 4
		data = data[4:]
	}
	d.xor(off, data)
}

// xor applies the key stream at stream offset off to b.
func (d *Decrypter) xor(off int64, b []byte) {
	for len(b) > 0 {
		blk := off / RC4Block
		if blk != d.block || d.pos > off {
			c, err := rc4.NewCipher(d.blockKey(uint32(blk)))
			if err != nil {
				return
			}
			d.c, d.block, d.pos = c, blk, blk*RC4Block
		}
		for d.pos < off {
			n := min(int64(len(d.skip)), off-d.pos)
			d.c.XORKeyStream(d.skip[:n], d.skip[:n])
			d.pos += n
		}
		n := min(int64(len(b)), (blk+1)*RC4Block-off)
		d.c.XORKeyStream(b[:n], b[:n])
		d.pos += n
		off += n
		b = b[n:]
	}
}
