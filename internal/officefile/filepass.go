package officefile

import (
	"bytes"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha1"
	"encoding/binary"
	"unicode/utf16"
)

// Excel encrypts a workbook whose structure or windows are protected with
// the password "VelvetSweatshop" and opens it without asking ([MS-XLS]
// 2.2.10). Such files are not password files: Excel and LibreOffice open
// them silently, so the FilePass verifier is checked against this password
// before a workbook is called Password.
const defaultPassword = "VelvetSweatshop"

// filePassAccepts reports whether the FilePass record data accepts password,
// and names the encryption method. Short or unknown records answer false.
func filePassAccepts(data []byte, biff5 bool, password string) (bool, string) {
	le := binary.LittleEndian
	if biff5 {
		// BIFF5: XOR obfuscation, key (2) and verifier (2) only.
		return len(data) >= 4 && le.Uint16(data[2:]) == xorVerifier(password), "XOR"
	}
	if len(data) < 2 {
		return false, "unknown"
	}
	switch le.Uint16(data) {
	case 0: // XOR obfuscation: key (2), verificationBytes (2)
		return len(data) >= 6 && le.Uint16(data[4:]) == xorVerifier(password), "XOR"
	case 1: // RC4: EncryptionVersionInfo then the header of that version
		if len(data) < 6 {
			return false, "RC4"
		}
		major, minor := le.Uint16(data[2:]), le.Uint16(data[4:])
		switch {
		case major == 1 && minor == 1:
			return rc4Verify(data[6:], password), "RC4"
		case major >= 2 && major <= 4 && minor == 2:
			return cryptoAPIVerify(data[6:], password), "RC4 CryptoAPI"
		}
	}
	return false, "unknown"
}

// xorVerifier is CreatePasswordVerifier_Method1 ([MS-OFFCRYPTO] 2.3.7.1):
// the password as single bytes, preceded by its length, folded from the
// last byte to the first.
func xorVerifier(password string) uint16 {
	u := utf16.Encode([]rune(password))
	arr := make([]byte, 0, len(u)+1)
	arr = append(arr, byte(len(u)))
	for _, c := range u {
		arr = append(arr, byte(c))
	}
	var v uint16
	for i := len(arr) - 1; i >= 0; i-- {
		hi := (v >> 14) & 1
		v = ((v << 1) & 0x7FFF) | hi
		v ^= uint16(arr[i])
	}
	return v ^ 0xCE4B
}

func utf16le(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return b
}

// rc4Verify checks an RC4 encryption header ([MS-OFFCRYPTO] 2.3.6.1: Salt,
// EncryptedVerifier, EncryptedVerifierHash, 16 bytes each) with the key of
// block 0 (2.3.6.2).
func rc4Verify(h []byte, password string) bool {
	if len(h) < 48 {
		return false
	}
	salt := h[:16]
	h0 := md5.Sum(utf16le(password))
	buf := make([]byte, 0, 16*21)
	for range 16 {
		buf = append(buf, h0[:5]...)
		buf = append(buf, salt...)
	}
	h1 := md5.Sum(buf)
	key := md5.Sum(append(h1[:5:5], 0, 0, 0, 0))
	c, err := rc4.NewCipher(key[:])
	if err != nil {
		return false
	}
	dec := make([]byte, 32)
	c.XORKeyStream(dec, h[16:48])
	sum := md5.Sum(dec[:16])
	return bytes.Equal(sum[:], dec[16:])
}

// cryptoAPIVerify checks an RC4 CryptoAPI header ([MS-OFFCRYPTO] 2.3.5.1:
// Flags (4), HeaderSize (4), EncryptionHeader, EncryptionVerifier) with the
// SHA-1 key of block 0 (2.3.5.2); a 40-bit key is padded to 128 bits with
// zeros, as Office does.
func cryptoAPIVerify(h []byte, password string) bool {
	le := binary.LittleEndian
	if len(h) < 8 {
		return false
	}
	hs := int64(le.Uint32(h[4:]))
	if hs < 32 || hs > int64(len(h)-8) {
		return false
	}
	eh := h[8 : 8+hs]
	keyBits := le.Uint32(eh[16:])
	if keyBits == 0 {
		keyBits = 40
	}
	if keyBits < 40 || keyBits > 128 || keyBits%8 != 0 {
		return false
	}
	v := h[8+hs:]
	// SaltSize (4), Salt (16), EncryptedVerifier (16), VerifierHashSize (4),
	// EncryptedVerifierHash (20 for RC4).
	if len(v) < 60 || le.Uint32(v) != 16 {
		return false
	}
	salt := v[4:20]
	hsz := le.Uint32(v[36:])
	if hsz != 20 {
		return false
	}
	h0 := sha1.Sum(append(append([]byte{}, salt...), utf16le(password)...))
	hf := sha1.Sum(append(h0[:], 0, 0, 0, 0))
	key := make([]byte, 16)
	copy(key, hf[:keyBits/8])
	if keyBits != 40 {
		key = hf[:keyBits/8]
	}
	c, err := rc4.NewCipher(key)
	if err != nil {
		return false
	}
	dec := make([]byte, 36)
	c.XORKeyStream(dec[:16], v[20:36])
	c.XORKeyStream(dec[16:], v[40:60])
	sum := sha1.Sum(dec[:16])
	return bytes.Equal(sum[:], dec[16:])
}
