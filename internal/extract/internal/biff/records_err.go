package biff

import (
	"errors"
)

// ErrEncrypted: the workbook is encrypted in a way the reader does not
// decrypt (XOR obfuscation; decrypt.go).
var ErrEncrypted = errors.New("extract: xls workbook encryption not decrypted natively")
