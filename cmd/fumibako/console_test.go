package main

import (
	"bytes"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

func TestPipeEncoding(t *testing.T) {
	for _, tt := range []struct {
		console bool
		cp      uint32
		parent  string
		want    bool
	}{
		{false, 932, "powershell.exe", true}, // Windows PowerShell 5.1 reading a pipe
		{false, 932, "PWSH.EXE", true},
		{true, 932, "powershell.exe", false}, // a console: WriteConsoleW
		{false, 65001, "powershell.exe", false},
		{false, 932, "cmd.exe", false},      // cmd passes bytes on
		{false, 932, "fumibako.exe", false}, // a worker's protocol pipe
		{false, 0, "powershell.exe", false}, // no console at all
		{false, 12345, "powershell.exe", false},
	} {
		if got := pipeEncoding(tt.console, tt.cp, tt.parent) != nil; got != tt.want {
			t.Errorf("pipeEncoding(%v, %d, %q) chosen = %v, want %v", tt.console, tt.cp, tt.parent, got, tt.want)
		}
	}
}

// TestEncodingWriter: UTF-8 split anywhere between writes comes out as the
// same Shift_JIS bytes; a character cp932 lacks becomes "?".
func TestEncodingWriter(t *testing.T) {
	text := "見積.xlsx [シート]売上!D5 ①㈱ 😀\r\n"
	want, _ := japanese.ShiftJIS.NewEncoder().String("見積.xlsx [シート]売上!D5 ①㈱ ?\r\n")
	for cut := 0; cut <= len(text); cut++ {
		var b bytes.Buffer
		w := newEncodingWriter(&b, japanese.ShiftJIS)
		w.Write([]byte(text[:cut]))
		w.Write([]byte(text[cut:]))
		if b.String() != want {
			t.Fatalf("cut at %d: %q, want %q", cut, b.Bytes(), want)
		}
	}
}
