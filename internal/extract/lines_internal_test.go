package extract

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// join puts split pieces back together: each continuation loses its mark
// and the overlap it repeats.
func join(t *testing.T, pieces []string) string {
	t.Helper()
	var b strings.Builder
	for i, p := range pieces {
		if i == 0 {
			b.WriteString(p)
			continue
		}
		body, ok := strings.CutPrefix(p, ContinuationMark)
		if !ok {
			t.Fatalf("piece %d is not a continuation: %.20q", i, p)
		}
		prev := []rune(strings.TrimPrefix(pieces[i-1], ContinuationMark))
		over := string(prev[len(prev)-LineOverlapRunes:])
		if !strings.HasPrefix(body, over) {
			t.Fatalf("piece %d does not repeat the last %d runes of the one before", i, LineOverlapRunes)
		}
		b.WriteString(body[len(over):])
	}
	return b.String()
}

func TestAppendLine(t *testing.T) {
	kana := strings.Repeat("あ", LineMaxRunes)
	for _, tc := range []struct {
		name   string
		line   string
		pieces int
	}{
		{"empty", "", 1},
		{"short", "見積書", 1},
		{"exactly the cap in bytes", strings.Repeat("a", LineMaxRunes), 1},
		{"exactly the cap in runes", kana, 1},
		{"one rune over", kana + "い", 2},
		{"ascii over", strings.Repeat("x", LineMaxRunes+1), 2},
		{"three pieces", strings.Repeat("漢", 2*LineMaxRunes), 3},
		{"leading noncharacter", ContinuationMark + "本文", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AppendLine(nil, tc.line)
			if len(got) != tc.pieces {
				t.Fatalf("AppendLine gave %d pieces, want %d", len(got), tc.pieces)
			}
			if IsContinuation(got[0]) {
				t.Errorf("first piece is a continuation: %.20q", got[0])
			}
			for i, p := range got {
				if n := utf8.RuneCountInString(strings.TrimPrefix(p, ContinuationMark)); n > LineMaxRunes {
					t.Errorf("piece %d holds %d runes", i, n)
				}
				if !utf8.ValidString(p) {
					t.Errorf("piece %d is not valid UTF-8", i)
				}
			}
			want := tc.line
			if IsContinuation(want) {
				want = replacedMark + want[len(ContinuationMark):]
			}
			if j := join(t, got); j != want {
				t.Errorf("joined pieces differ from the line (%d vs %d bytes)", len(j), len(want))
			}
		})
	}
}

// TestAppendLineStraddle: a word across a cut is whole in the
// continuation line.
func TestAppendLineStraddle(t *testing.T) {
	word := strings.Repeat("語", LineOverlapRunes)
	for _, at := range []int{LineMaxRunes - LineOverlapRunes, LineMaxRunes - LineOverlapRunes/2, LineMaxRunes - 1} {
		line := strings.Repeat("a", at) + word + strings.Repeat("b", LineMaxRunes)
		got := AppendLine(nil, line)
		found := false
		for _, p := range got {
			found = found || strings.Contains(p, word)
		}
		if !found {
			t.Errorf("word at rune %d: in no piece", at)
		}
	}
}

func TestAppendStored(t *testing.T) {
	long := strings.Repeat("x", 2*LineMaxRunes)
	for _, tc := range []struct {
		name string
		line string
		want []bool // which pieces are continuations
	}{
		{"plain", "abc", []bool{false}},
		{"continuation kept", ContinuationMark + "abc", []bool{true}},
		{"continuation at the cap", ContinuationMark + strings.Repeat("x", LineMaxRunes), []bool{true}},
		{"long line of an earlier version", long, []bool{false, true, true}},
		{"long continuation", ContinuationMark + long, []bool{true, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if NeedsSplit(tc.line) != (len(tc.want) > 1) {
				t.Errorf("NeedsSplit = %v", !(len(tc.want) > 1))
			}
			got := AppendStored(nil, tc.line)
			if len(got) != len(tc.want) {
				t.Fatalf("AppendStored gave %d pieces, want %d", len(got), len(tc.want))
			}
			for i, p := range got {
				if IsContinuation(p) != tc.want[i] {
					t.Errorf("piece %d: continuation %v, want %v", i, IsContinuation(p), tc.want[i])
				}
			}
		})
	}
}

func TestCapResult(t *testing.T) {
	long := strings.Repeat("長", LineMaxRunes+10)
	for _, tc := range []struct {
		name   string
		places []Place
		budget int64
		lines  []int // lines per place after the cap; nil: must fail
	}{
		{"nothing to do", []Place{{Name: "本文", Lines: []string{"a", "b"}}}, 100, []int{2}},
		{"long line split in place", []Place{{Name: "本文", Lines: []string{"a", long, "c"}}, {Name: "脚注", Lines: []string{"d"}}}, 1 << 20, []int{4, 1}},
		{"at the budget", []Place{{Name: "本文", Lines: []string{"12345", "67890"}}}, 10, []int{2}},
		{"over the budget", []Place{{Name: "本文", Lines: []string{"12345", "678901"}}}, 10, nil},
		{"over the budget in two places", []Place{{Name: "a", Lines: []string{"123456"}}, {Name: "b", Lines: []string{"123456"}}}, 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &Result{Places: tc.places}
			err := capResult(res, tc.budget)
			if tc.lines == nil {
				var xerr *Error
				if !errors.As(err, &xerr) || xerr.Msg != MsgTextTooLarge {
					t.Fatalf("capResult = %v, want %q", err, MsgTextTooLarge)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range res.Places {
				if len(p.Lines) != tc.lines[i] {
					t.Errorf("place %s: %d lines, want %d", p.Name, len(p.Lines), tc.lines[i])
				}
			}
		})
	}
}

// TestTextBudgetMessage keeps the message's number in step with the
// constant.
func TestTextBudgetMessage(t *testing.T) {
	want := " " + strconv.Itoa(DefaultTextBudget>>20) + " MB"
	if !strings.Contains(MsgTextTooLarge, want) {
		t.Errorf("MsgTextTooLarge %q does not name%s", MsgTextTooLarge, want)
	}
}
