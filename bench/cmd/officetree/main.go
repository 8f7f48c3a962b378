// Command officetree writes issue 35's folder of small Office files: N
// .docx, .xlsx and .pptx files (in turn) of 1–30 KB of Japanese and
// English text in nested Japanese folders of about 40 files, written by
// the repo's fixture writers (testcorpus.WriteDocx, WriteXlsx,
// WritePptx). Used by bench/small-files.sh office.
//
//	go run ./bench/cmd/officetree [-n 1000] [-seed 35] DIR
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/testcorpus"
)

func main() {
	n := flag.Int("n", 1000, "number of files")
	seed := flag.Int64("seed", 35, "random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: officetree [-n N] [-seed S] DIR")
		os.Exit(2)
	}
	if err := write(flag.Arg(0), *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "officetree:", err)
		os.Exit(1)
	}
	fmt.Printf("%d Office files written to %s\n", *n, flag.Arg(0))
}

var words = []string{"見積書", "打ち合わせ", "納期", "株式会社", "確認", "お願いします", "承認", "進捗", "予算",
	"report", "deadline", "invoice", "東京", "大阪", "担当", "売上", "請求", "契約"}

// line is about size bytes of words.
func line(rng *rand.Rand, size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(words[rng.Intn(len(words))])
		b.WriteByte(' ')
	}
	return b.String()
}

func write(root string, n int, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	depts := []string{"営業部", "総務部", "経理部", "開発部"}
	for i := range n {
		folder := i / 40
		dir := filepath.Join(root, depts[folder%len(depts)], fmt.Sprintf("%d年度", 2020+folder%5), fmt.Sprintf("案件%03d", folder))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		text := 1024 + rng.Intn(29*1024) // 1–30 KB of text
		token := fmt.Sprintf("整理番号 qo%06dk", i)
		var err error
		switch i % 3 {
		case 0:
			var paras []string
			for size := 0; size < text; {
				p := line(rng, 80+rng.Intn(200))
				paras = append(paras, p)
				size += len(p)
			}
			paras[rng.Intn(len(paras))] += token
			err = testcorpus.WriteDocx(filepath.Join(dir, fmt.Sprintf("報告%05d.docx", i)), paras)
		case 1:
			var rows [][]string
			for size := 0; size < text; {
				row := []string{line(rng, 20), line(rng, 30), fmt.Sprint(rng.Intn(100000))}
				rows = append(rows, row)
				size += len(row[0]) + len(row[1]) + 6
			}
			rows[rng.Intn(len(rows))][0] += token
			err = testcorpus.WriteXlsx(filepath.Join(dir, fmt.Sprintf("見積%05d.xlsx", i)), map[string][][]string{"明細": rows})
		default:
			var slides [][]string
			for size := 0; size < text; {
				s := []string{line(rng, 40), line(rng, 200+rng.Intn(400))}
				slides = append(slides, s)
				size += len(s[0]) + len(s[1])
			}
			slides[rng.Intn(len(slides))][1] += token
			err = testcorpus.WritePptx(filepath.Join(dir, fmt.Sprintf("提案%05d.pptx", i)), slides)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
