package pdfobj

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"hash"
)

// Decryption of a file the standard security handler encrypted with an
// empty user password (PDF 32000-1:2008 7.6.3, ISO 32000-2:2020 7.6.4):
// the PDFs that open without asking, whose owner restricts printing,
// copying or changing only. Japanese offices protect many PDFs that way,
// and their object streams (where fonts often live) and ToUnicode maps
// are encrypted. A file that needs a password the engine cannot open
// either; its streams stay unread here.
//
// Key (Algorithm 2, revisions 2–4): MD5 of the padding string, /O, /P
// (4 bytes, little-endian), the first /ID string and, when
// /EncryptMetadata is false (revision 4), FF FF FF FF; from revision 3 on
// hashed 50 more times over its first n bytes; n = /Length / 8 (5 for
// revision 2). It is checked against /U (Algorithms 4 and 5) before use.
// Revision 6 (AES-256): the key is /UE decrypted (AES-256, CBC, zero IV)
// with the hash of Algorithm 2.B over the empty password and /U's key
// salt, after /U's validation salt proved the password empty; revision 5
// (an Adobe extension) uses a plain SHA-256 for that hash.
//
// Each stream is decrypted before its filters: RC4 or AES-128-CBC (the
// first 16 bytes its IV, PKCS#5 padding) with MD5(key, object number as 3
// bytes and generation as 2, little-endian, and "sAlT" for AES) cut to
// n+5 bytes (at most 16), or AES-256-CBC with the file key (revisions
// 5, 6). Strings of objects outside object streams are decrypted the
// same way; an object stream's members are not encrypted of their own,
// nor are cross-reference streams (7.5.8.2) or the /Encrypt dictionary.
type crypt struct {
	key             []byte
	v               int64
	stm, str        cryptMethod
	encryptMetadata bool
}

// cryptMethod is how a crypt filter decrypts (/CFM).
type cryptMethod int

const (
	cryptNone cryptMethod = iota
	cryptRC4
	cryptAESV2
	cryptAESV3
)

// passwordPad is the padding string of Algorithm 2 (7.6.3.3).
var passwordPad = []byte{
	0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
	0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
}

var errPassword = errors.New("pdfobj: the file needs a password")

// newCrypt reads the trailer's /Encrypt dictionary and derives the file
// key for the empty user password.
func (f *File) newCrypt() (*crypt, error) {
	enc, ok := f.Resolve(f.trailer["Encrypt"]).(Dict)
	if !ok {
		return nil, errors.New("pdfobj: no /Encrypt dictionary")
	}
	if f.name(enc["Filter"]) != "Standard" {
		return nil, errors.New("pdfobj: not the standard security handler")
	}
	v, _ := Int(f.Resolve(enc["V"]))
	r, _ := Int(f.Resolve(enc["R"]))
	o, _ := f.Resolve(enc["O"]).(String)
	u, _ := f.Resolve(enc["U"]).(String)
	c := &crypt{v: v, encryptMetadata: true}
	if b, ok := f.Resolve(enc["EncryptMetadata"]).(bool); ok {
		c.encryptMetadata = b
	}
	switch v {
	case 1, 2:
		c.stm, c.str = cryptRC4, cryptRC4
	case 4, 5:
		cf, _ := f.Resolve(enc["CF"]).(Dict)
		c.stm = f.cryptFilter(cf, enc["StmF"])
		c.str = f.cryptFilter(cf, enc["StrF"])
	default:
		return nil, errors.New("pdfobj: unknown encryption version")
	}
	switch r {
	case 2, 3, 4:
		n := int64(5)
		if r >= 3 {
			bits, ok := Int(f.Resolve(enc["Length"]))
			if !ok {
				bits = 40
			}
			if c.stm == cryptAESV2 || c.str == cryptAESV2 {
				bits = 128
			}
			n = bits / 8
		}
		if n < 5 || n > 16 || len(o) < 32 || len(u) < 16 {
			return nil, errors.New("pdfobj: bad /Encrypt dictionary")
		}
		p, _ := Int(f.Resolve(enc["P"]))
		var id []byte
		if ids, ok := f.Resolve(f.trailer["ID"]).(Array); ok && len(ids) > 0 {
			s, _ := f.Resolve(ids[0]).(String)
			id = []byte(s)
		}
		c.key = legacyKey(r, int(n), []byte(o[:32]), uint32(p), id, c.encryptMetadata)
		if !legacyUserOK(r, c.key, []byte(u), id) {
			return nil, errPassword
		}
	case 5, 6:
		ue, _ := f.Resolve(enc["UE"]).(String)
		if len(u) < 48 || len(ue) < 32 {
			return nil, errors.New("pdfobj: bad /Encrypt dictionary")
		}
		if !bytes.Equal(hash2B(r, []byte(u[32:40])), []byte(u[:32])) {
			return nil, errPassword
		}
		block, err := aes.NewCipher(hash2B(r, []byte(u[40:48])))
		if err != nil {
			return nil, err
		}
		c.key = make([]byte, 32)
		cipher.NewCBCDecrypter(block, make([]byte, 16)).CryptBlocks(c.key, []byte(ue[:32]))
	default:
		return nil, errors.New("pdfobj: unknown security handler revision")
	}
	return c, nil
}

// cryptFilter returns the method of the crypt filter named by ref in cf
// (/Identity, or none named: no encryption).
func (f *File) cryptFilter(cf Dict, ref Object) cryptMethod {
	name := f.name(ref)
	if name == "" || name == "Identity" {
		return cryptNone
	}
	d, _ := f.Resolve(cf[Name(name)]).(Dict)
	switch f.name(d["CFM"]) {
	case "V2":
		return cryptRC4
	case "AESV2":
		return cryptAESV2
	case "AESV3":
		return cryptAESV3
	}
	return cryptNone
}

// legacyKey is Algorithm 2 for the empty password.
func legacyKey(r int64, n int, o []byte, p uint32, id []byte, encryptMetadata bool) []byte {
	h := md5.New()
	h.Write(passwordPad)
	h.Write(o)
	h.Write(binary.LittleEndian.AppendUint32(nil, p))
	h.Write(id)
	if r >= 4 && !encryptMetadata {
		h.Write([]byte{0xFF, 0xFF, 0xFF, 0xFF})
	}
	sum := h.Sum(nil)
	if r >= 3 {
		for range 50 {
			s := md5.Sum(sum[:n])
			sum = s[:]
		}
	}
	return sum[:n]
}

// legacyUserOK checks the key against /U: Algorithm 4 (revision 2) or 5
// (3 and 4, whose /U holds 16 bytes that count).
func legacyUserOK(r int64, key, u, id []byte) bool {
	if r == 2 {
		return len(u) >= 32 && bytes.Equal(rc4Crypt(key, passwordPad), u[:32])
	}
	h := md5.New()
	h.Write(passwordPad)
	h.Write(id)
	x := rc4Crypt(key, h.Sum(nil))
	k := make([]byte, len(key))
	for i := byte(1); i <= 19; i++ {
		for j := range key {
			k[j] = key[j] ^ i
		}
		x = rc4Crypt(k, x)
	}
	return bytes.Equal(x, u[:16])
}

func rc4Crypt(key, b []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		return nil
	}
	out := make([]byte, len(b))
	c.XORKeyStream(out, b)
	return out
}

// hash2B is Algorithm 2.B (revision 6) for the empty password and salt
// (no user key data: the user password's hashes); revision 5 hashes once.
func hash2B(r int64, salt []byte) []byte {
	k := sha256.Sum256(salt)
	if r == 5 {
		return k[:]
	}
	key := k[:]
	for i := 0; ; i++ {
		k1 := bytes.Repeat(key, 64)
		block, err := aes.NewCipher(key[:16])
		if err != nil {
			return nil
		}
		e := make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, key[16:32]).CryptBlocks(e, k1)
		// The first 16 bytes of E as a number modulo 3: 256 ≡ 1 (mod 3),
		// so the sum of the bytes modulo 3.
		sum := 0
		for _, b := range e[:16] {
			sum += int(b)
		}
		var h hash.Hash
		switch sum % 3 {
		case 0:
			h = sha256.New()
		case 1:
			h = sha512.New384()
		default:
			h = sha512.New()
		}
		h.Write(e)
		key = h.Sum(nil)
		if i >= 63 && int(e[len(e)-1]) <= i+1-32 {
			break
		}
	}
	return key[:32]
}

// objectKey is the key of object num gen for method m (Algorithm 1).
func (c *crypt) objectKey(m cryptMethod, num, gen int) []byte {
	if m == cryptAESV3 || c.v == 5 {
		return c.key
	}
	h := md5.New()
	h.Write(c.key)
	h.Write([]byte{byte(num), byte(num >> 8), byte(num >> 16), byte(gen), byte(gen >> 8)})
	if m == cryptAESV2 {
		h.Write([]byte("sAlT"))
	}
	return h.Sum(nil)[:min(len(c.key)+5, 16)]
}

// decrypt decrypts b, a stream's data or a string of object num gen,
// with method m.
func (c *crypt) decrypt(m cryptMethod, num, gen int, b []byte) ([]byte, error) {
	switch m {
	case cryptNone:
		return b, nil
	case cryptRC4:
		return rc4Crypt(c.objectKey(m, num, gen), b), nil
	}
	if len(b) < 16 || len(b)%16 != 0 {
		if len(b) == 0 {
			return b, nil
		}
		return nil, errors.New("pdfobj: encrypted data not in AES blocks")
	}
	block, err := aes.NewCipher(c.objectKey(m, num, gen))
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(b)-16)
	cipher.NewCBCDecrypter(block, b[:16]).CryptBlocks(out, b[16:])
	if n := len(out); n > 0 {
		if pad := int(out[n-1]); pad >= 1 && pad <= 16 && pad <= n {
			out = out[:n-pad]
		}
	}
	return out, nil
}

// decryptStrings decrypts, in place, the strings of o, the object num gen
// read from the file (not from an object stream).
func (c *crypt) decryptStrings(o Object, num, gen int, depth int) Object {
	if c.str == cryptNone || depth > maxDepth {
		return o
	}
	switch v := o.(type) {
	case String:
		if b, err := c.decrypt(c.str, num, gen, []byte(v)); err == nil {
			return String(b)
		}
		return String("")
	case Array:
		for i := range v {
			v[i] = c.decryptStrings(v[i], num, gen, depth+1)
		}
	case Dict:
		for k, x := range v {
			v[k] = c.decryptStrings(x, num, gen, depth+1)
		}
	case Stream:
		c.decryptStrings(v.Dict, num, gen, depth+1)
	}
	return o
}
