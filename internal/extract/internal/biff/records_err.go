package biff

import (
	"errors"
)

// ErrXlsEncrypted: the workbook is encrypted in a way the reader does not
// decrypt (XOR obfuscation; decrypt.go).
var ErrXlsEncrypted = errors.New("extract: xls workbook encryption not decrypted natively")
