package main

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// Console output on Windows (console_windows.go). fumibako writes UTF-8.
// On a console that is always right: Go writes to a console through
// WriteConsoleW, whatever its code page, in cmd.exe, Windows Terminal and
// PowerShell alike; fumibako does not call SetConsoleOutputCP, which would
// outlive it and change how the shell decodes later commands. Through a
// pipe or a redirection the reader decides: cmd.exe passes bytes on (UTF-8
// is right), but Windows PowerShell 5.1, and PowerShell 7 alike, decode a
// program's output with [Console]::OutputEncoding, the console's code page
// (932 on Japanese Windows) unless the user set it to UTF-8. So when a
// stream that is not a console goes to PowerShell and the console's code
// page is not UTF-8, fumibako writes that code page; characters it lacks
// become "?".

// pipeEncoding chooses the encoding of one output stream: nil keeps UTF-8.
func pipeEncoding(isConsole bool, consoleCP uint32, parentExe string) encoding.Encoding {
	if isConsole || consoleCP == 0 || consoleCP == 65001 {
		return nil
	}
	switch strings.ToLower(parentExe) {
	case "powershell.exe", "pwsh.exe", "powershell_ise.exe":
	default:
		return nil
	}
	return codePages[consoleCP]
}

// codePages are the console code pages fumibako can write.
var codePages = map[uint32]encoding.Encoding{
	932: japanese.ShiftJIS, 936: simplifiedchinese.GBK, 949: korean.EUCKR, 950: traditionalchinese.Big5,
	437: charmap.CodePage437, 850: charmap.CodePage850, 852: charmap.CodePage852, 866: charmap.CodePage866,
	1250: charmap.Windows1250, 1251: charmap.Windows1251, 1252: charmap.Windows1252,
	1253: charmap.Windows1253, 1254: charmap.Windows1254, 1257: charmap.Windows1257,
}

// encodingWriter re-encodes UTF-8 written to it; a rune split between two
// writes (a flushed buffer) waits for its end.
type encodingWriter struct {
	w    io.Writer
	enc  *encoding.Encoder
	rest []byte
}

func newEncodingWriter(w io.Writer, e encoding.Encoding) *encodingWriter {
	return &encodingWriter{w: w, enc: encoding.ReplaceUnsupported(e.NewEncoder())}
}

func (e *encodingWriter) Write(p []byte) (int, error) {
	buf := append(e.rest, p...)
	cut := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	out, err := e.enc.Bytes(buf[:cut])
	if err != nil {
		out = buf[:cut] // not UTF-8 after all: as it is
	} else {
		// x/text marks a missing character with SUB (0x1A, never a byte of
		// a multi-byte character): "?" as Windows' own conversion shows.
		out = bytes.ReplaceAll(out, []byte{0x1a}, []byte{'?'})
	}
	e.rest = append(e.rest[:0:0], buf[cut:]...)
	if _, err := e.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
