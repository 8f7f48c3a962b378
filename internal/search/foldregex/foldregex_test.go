package foldregex_test

import (
	"errors"
	"regexp/syntax"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/search/foldregex"
	"github.com/fumibako/fumibako/internal/textfold"
)

// TestCompile: a regex word matches lines of the stored text as the user
// means it (.NET classes, folding, kana, never across a line) and names
// the literals every match holds.
func TestCompile(t *testing.T) {
	for _, tt := range []struct {
		name        string
		pattern     string
		fold, kana  bool
		line        string // as stored; folded first when fold
		match       bool
		required    string // one of Required, "" for none asked
		wantSyntaxE syntax.ErrorCode
	}{
		{name: "full-width class finds ASCII", pattern: `[Ａ-Ｚ]+`, fold: true, line: "ABC", match: true},
		{name: "ASCII class finds full-width", pattern: `^[a-z]+$`, fold: true, line: "ＡＢＣ", match: true},
		{name: "\\s is .NET's (U+3000)", pattern: `a\sb`, line: "a\u3000b", match: true},
		{name: "\\s is .NET's (U+2028)", pattern: `a\sb`, line: "a\u2028b", match: true},
		{name: "\\d any digit", pattern: `^\d+$`, line: "１２３", match: true},
		{name: "dot stops at LF", pattern: `a.b`, line: "a\nb", match: false},
		{name: "negated class stops at LF", pattern: `a[^x]b`, line: "a\nb", match: false},
		{name: "kana", pattern: `リンゴ`, fold: true, kana: true, line: "りんご", match: true},
		{name: "no kana", pattern: `リンゴ`, fold: true, line: "りんご", match: false},
		{name: "required literal", pattern: `見積[0-9]+書`, fold: true, line: "見積12書", match: true, required: "見積"},
		{name: "missing paren", pattern: `a(b`, wantSyntaxE: syntax.ErrMissingParen},
		{name: "lookahead refused", pattern: `a(?=b)`, wantSyntaxE: syntax.ErrInvalidPerlOp},
	} {
		t.Run(tt.name, func(t *testing.T) {
			re, err := foldregex.Compile(tt.pattern, tt.fold, tt.kana)
			if tt.wantSyntaxE != "" {
				var se *syntax.Error
				if !errors.As(err, &se) || se.Code != tt.wantSyntaxE {
					t.Fatalf("Compile(%q) = %v, want %s", tt.pattern, err, tt.wantSyntaxE)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile(%q) = %v", tt.pattern, err)
			}
			line := tt.line
			if tt.fold {
				line = textfold.String(line)
				if tt.kana {
					line = textfold.Kana(line)
				}
			}
			if got := re.Re.MatchString(line); got != tt.match {
				t.Errorf("Compile(%q).Re.MatchString(%q) = %v, want %v", tt.pattern, line, got, tt.match)
			}
			if tt.required != "" && !slices.Contains(re.Required, tt.required) {
				t.Errorf("Compile(%q).Required = %q, want %q among them", tt.pattern, re.Required, tt.required)
			}
		})
	}
}

// FuzzCompile: any pattern compiles or gives an error, never a panic, and
// a compiled one never matches across a line.
func FuzzCompile(f *testing.F) {
	for _, p := range []string{`[Ａ-Ｚ]+`, `a\sb`, `見積[0-9]+書`, `a(b`, `(?i)x.y`, `[^\w]`, `\S+\z`} {
		f.Add(p, true, false)
	}
	f.Fuzz(func(t *testing.T, pattern string, fold, kana bool) {
		re, err := foldregex.Compile(pattern, fold, kana)
		if err != nil {
			return
		}
		if loc := re.Re.FindStringIndex("x\ny"); loc != nil && loc[0] < 1 && loc[1] > 2 {
			t.Fatalf("Compile(%q) matched across LF: %v", pattern, loc)
		}
	})
}
