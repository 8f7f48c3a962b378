package officefile

import (
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha1"
	"encoding/binary"
)

// Test helpers shared with package officefile_test: FilePass record data
// (after the 4-byte record header) protecting a workbook with password, for
// each encryption method of [MS-XLS] 2.4.117. They mirror the verifiers in
// filepass.go from the encrypting side.

// FilePassXOR is BIFF8 XOR obfuscation: wEncryptionType 0, key, verifier.
func FilePassXOR(password string) []byte {
	b := make([]byte, 6)
	binary.LittleEndian.PutUint16(b[2:], 0x1234)
	binary.LittleEndian.PutUint16(b[4:], xorVerifier(password))
	return b
}

// FilePassBIFF5 is BIFF5's FilePass: key and verifier only.
func FilePassBIFF5(password string) []byte {
	b := make([]byte, 4)
	binary.LittleEndian.PutUint16(b[2:], xorVerifier(password))
	return b
}

var (
	testSalt     = []byte("0123456789abcdef")
	testVerifier = []byte("fedcba9876543210")
)

// FilePassRC4 is RC4 encryption, version 1.1.
func FilePassRC4(password string) []byte {
	h0 := md5.Sum(utf16le(password))
	var buf []byte
	for range 16 {
		buf = append(append(buf, h0[:5]...), testSalt...)
	}
	h1 := md5.Sum(buf)
	key := md5.Sum(append(h1[:5:5], 0, 0, 0, 0))
	c, _ := rc4.NewCipher(key[:])
	sum := md5.Sum(testVerifier)
	enc := make([]byte, 32)
	c.XORKeyStream(enc, append(append([]byte{}, testVerifier...), sum[:]...))
	b := []byte{1, 0, 1, 0, 1, 0}
	b = append(b, testSalt...)
	return append(b, enc...)
}

// FilePassCryptoAPI is RC4 CryptoAPI encryption, version 4.2, with a key of
// keyBits bits (40 or 128).
func FilePassCryptoAPI(password string, keyBits uint32) []byte {
	le := binary.LittleEndian
	h0 := sha1.Sum(append(append([]byte{}, testSalt...), utf16le(password)...))
	hf := sha1.Sum(append(h0[:], 0, 0, 0, 0))
	key := hf[:keyBits/8]
	if keyBits == 40 {
		key = append(append([]byte{}, hf[:5]...), make([]byte, 11)...)
	}
	c, _ := rc4.NewCipher(key)
	sum := sha1.Sum(testVerifier)
	encV := make([]byte, 16)
	c.XORKeyStream(encV, testVerifier)
	encH := make([]byte, 20)
	c.XORKeyStream(encH, sum[:])

	csp := utf16le("Microsoft Base Cryptographic Provider v1.0\x00")
	eh := make([]byte, 32, 32+len(csp))
	le.PutUint32(eh[0:], 4)       // Flags: fCryptoAPI
	le.PutUint32(eh[8:], 0x6801)  // AlgID: RC4
	le.PutUint32(eh[12:], 0x8004) // AlgIDHash: SHA-1
	le.PutUint32(eh[16:], keyBits)
	le.PutUint32(eh[20:], 1) // ProviderType: PROV_RSA_FULL
	eh = append(eh, csp...)

	b := []byte{1, 0, 4, 0, 2, 0}
	b = le.AppendUint32(b, 4)
	b = le.AppendUint32(b, uint32(len(eh)))
	b = append(b, eh...)
	b = le.AppendUint32(b, 16)
	b = append(b, testSalt...)
	b = append(b, encV...)
	b = le.AppendUint32(b, 20)
	return append(b, encH...)
}

// FilePassAccepts exposes filePassAccepts.
func FilePassAccepts(data []byte, biff5 bool, password string) bool {
	ok, _ := filePassAccepts(data, biff5, password)
	return ok
}
