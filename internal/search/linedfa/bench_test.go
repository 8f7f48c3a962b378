package linedfa_test

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// benchPatterns are the patterns of the benchmarks: no usable literal,
// a script class, and case folding.
var benchPatterns = []struct{ name, pattern string }{
	{"digits", `[0-9]{3}-[0-9]{4}`},
	{"katakana", `\p{Katakana}{5,}`},
	{"foldcase", `(?i)error [0-9]+`},
}

// benchSize is the size of the benchmark text.
const benchSize = 8 << 20

// generated returns about 8 MB of mixed Japanese and English lines, the
// same on every run: business words, codes, dates, amounts and log lines.
func generated() []byte {
	words := []string{"見積", "請求書", "株式会社東京物産", "打合せ", "納品", "決裁", "担当", "山田",
		"カタカナ", "マネジメント", "データベース", "システム", "ひらがな", "の", "を", "です", "order", "shipment",
		"status", "Error", "WARNING", "error", "total", "東京", "大阪", "本社"}
	r := rand.New(rand.NewPCG(7, 11))
	var b bytes.Buffer
	for b.Len() < benchSize {
		for k := range 3 + r.IntN(8) {
			if k > 0 {
				b.WriteByte("\t "[r.IntN(2)])
			}
			switch r.IntN(10) {
			case 0:
				b.WriteString([]string{"UX-", "OR-", "03-", "TEL 0"}[r.IntN(4)])
				for range 3 + r.IntN(2) {
					b.WriteByte(byte('0' + r.IntN(10)))
				}
				if r.IntN(3) == 0 {
					b.WriteString("-5678")
				}
			case 1:
				b.WriteString("2024/0")
				b.WriteByte(byte('1' + r.IntN(9)))
				b.WriteString("/1")
				b.WriteByte(byte('0' + r.IntN(10)))
			case 2:
				for range 1 + r.IntN(3) {
					b.WriteByte(byte('0' + r.IntN(10)))
				}
				b.WriteString(",")
				b.WriteString("458")
			default:
				b.WriteString(words[r.IntN(len(words))])
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// benchCorpus returns about 8 MB of the bench command's extracted text
// (go run ./bench/cmd/bench), or nil when it is absent.
func benchCorpus() []byte {
	var b bytes.Buffer
	root := "/tmp/fumibako-bench-100mb/text"
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || b.Len() >= benchSize {
			return fs.SkipDir
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err == nil {
				b.Write(data)
				if !bytes.HasSuffix(data, []byte{'\n'}) {
					b.WriteByte('\n')
				}
			}
		}
		return nil
	})
	if b.Len() == 0 {
		return nil
	}
	return b.Bytes()
}

// BenchmarkNextLine reports every matching line of the text: with the DFA,
// and with regexp.FindIndex from each line after a match (what the search
// did before).
func BenchmarkNextLine(b *testing.B) {
	texts := []struct {
		name string
		text func() []byte
	}{{"generated", generated}, {"corpus", benchCorpus}}
	for _, tx := range texts {
		text := tx.text()
		for _, p := range benchPatterns {
			m, re, _ := compile(b, p.pattern)
			b.Run(tx.name+"/"+p.name+"/dfa", func(b *testing.B) {
				if text == nil {
					b.Skip("no corpus in /tmp/fumibako-bench-100mb/text")
				}
				s := m.NewScanner()
				b.SetBytes(int64(len(text)))
				n := 0
				for b.Loop() {
					n = 0
					for from := 0; ; n++ {
						start, ok := s.NextLine(text, from)
						if !ok {
							break
						}
						end := bytes.IndexByte(text[start:], '\n')
						if end < 0 {
							break
						}
						from = start + end + 1
					}
				}
				b.ReportMetric(float64(n), "lines")
			})
			b.Run(tx.name+"/"+p.name+"/regexp", func(b *testing.B) {
				if text == nil {
					b.Skip("no corpus in /tmp/fumibako-bench-100mb/text")
				}
				b.SetBytes(int64(len(text)))
				n := 0
				for b.Loop() {
					n = 0
					regexpLines(re, text, &n)
				}
				b.ReportMetric(float64(n), "lines")
			})
		}
	}
}

// regexpLines counts the lines holding a match of re, one FindIndex per
// matching line.
func regexpLines(re *regexp.Regexp, text []byte, n *int) {
	for from := 0; from < len(text); {
		loc := re.FindIndex(text[from:])
		if loc == nil {
			return
		}
		*n++
		end := bytes.IndexByte(text[from+loc[0]:], '\n')
		if end < 0 {
			return
		}
		from += loc[0] + end + 1
	}
}
