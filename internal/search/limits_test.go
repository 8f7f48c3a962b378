package search_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
)

func words(w string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = w
	}
	return out
}

func distinct(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("w%d", i)
	}
	return out
}

// TestIssue36QueryLimits: a query past MaxQueryBytes or MaxWords is
// refused with its message, before anything is compiled (the probe's
// 200,000 × a took the server to 5 GiB); repeats count once for MaxWords.
func TestIssue36QueryLimits(t *testing.T) {
	tooLong := fmt.Sprintf(search.MsgQueryTooLong, "4,096")
	tooMany := fmt.Sprintf(search.MsgTooManyWords, 64)
	tests := []struct {
		name  string
		words []string
		opts  search.Options
		msg   string // "" = accepted
	}{
		{"200,000 a", words("a", 200000), search.Options{}, tooLong},
		{"200,000 a, regex", words("a", 200000), search.Options{Regex: true}, tooLong},
		{"50,000 exclusions", append([]string{"a"}, words("-b", 50000)...), search.Options{}, tooLong},
		{"one word of 4,096 bytes", []string{strings.Repeat("a", 4096)}, search.Options{}, ""},
		{"one word of 4,097 bytes", []string{strings.Repeat("a", 4097)}, search.Options{}, tooLong},
		{"1,365 Japanese characters", []string{strings.Repeat("あ", 1365)}, search.Options{}, ""},
		{"1,366 Japanese characters", []string{strings.Repeat("あ", 1366)}, search.Options{}, tooLong},
		{"64 words", distinct(64), search.Options{}, ""},
		{"65 words", distinct(65), search.Options{}, tooMany},
		{"64 words and repeats", append(distinct(64), distinct(64)...), search.Options{}, ""},
		{"64 words and an exclusion", append(distinct(64), "-x"), search.Options{}, tooMany},
		{"name filter too long", []string{"a"}, search.Options{Names: strings.Repeat("*.xlsx;", 600)}, fmt.Sprintf(search.MsgNamesTooLong, "4,096")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := search.Parse(tt.words, tt.opts)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("Parse = %v, want accepted", err)
				}
				return
			}
			var qe *search.QueryError
			if !errors.As(err, &qe) || qe.Msg != tt.msg {
				t.Fatalf("Parse = %v, want %q", err, tt.msg)
			}
			// Refused in one pass: a few allocations whatever the size (the
			// count of distinct words stops at MaxWords+1).
			if n := testing.AllocsPerRun(3, func() { search.Parse(tt.words, tt.opts) }); n > 20 {
				t.Errorf("refusing took %v allocations", n)
			}
		})
	}
}

// TestIssue36RepeatsSameHits: repeating a word or an exclusion finds what
// the word once finds.
func TestIssue36RepeatsSameHits(t *testing.T) {
	root, ix := buildCorpus(t, knownCorpus)
	for _, tt := range []struct{ once, repeated []string }{
		{[]string{"りんご"}, []string{"りんご", "りんご", "りんご"}},
		{[]string{"りんご", "-旧"}, []string{"-旧", "りんご", "-旧", "りんご"}},
	} {
		once, _, err := runQuery(t, root, ix, tt.once, search.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep, _, err := runQuery(t, root, ix, tt.repeated, search.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var a, b []string
		for _, h := range once {
			a = append(a, hitString(h))
		}
		for _, h := range rep {
			b = append(b, hitString(h))
		}
		if len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%q found\n%s\n%q found\n%s", tt.once, strings.Join(a, "\n"), tt.repeated, strings.Join(b, "\n"))
		}
	}
}
