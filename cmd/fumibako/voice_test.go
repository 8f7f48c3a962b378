package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestMessageVoice walks every Japanese string literal in the binary's
// packages (non-test .go files of cmd/ and internal/) and holds it to the
// message voice of DESIGN.md "Messages" (issue 32):
//
//   - one error prefix: only msgErrorHead (and the progress printer's
//     fatalMark, the indexer's log line) spell ＜エラー＞; no Japanese
//     text starts with "fumibako: ";
//   - names and values in 「」: no [%s], no ASCII quotes or %q around them;
//   - no Office package part (word/document.xml) named to the user;
//   - a sentence ends with 。: a text whose last word is a verb's end
//     (ます, ません, した, ください, です), bare or before a closing
//     （…）, lacks its full stop.
//
// voiceAllowed lists the few texts that keep another form, each with why.
func TestMessageVoice(t *testing.T) {
	bracketed := regexp.MustCompile(`\[%[a-z]\]|"%[a-z]"|'%[a-z]'|%q|"[^"\s]*[\p{Han}\p{Hiragana}\p{Katakana}][^"]*"`)
	sentenceEnd := regexp.MustCompile(`(ます|ません|ました|ませんでした|ください|です|でした)(（[^（）]*(（[^（）]*）[^（）]*)*）)?$`)
	packagePart := regexp.MustCompile(`[a-z]+/[a-zA-Z0-9]+\.xml`)
	texts := japaneseTexts(t)
	for _, tx := range texts {
		s, where := tx.text, tx.where
		if m := packagePart.FindString(s); m != "" {
			t.Errorf("%s: %q names a package part %s (say what is missing, the part goes to the English cause)", where, s, m)
		}
		if voiceAllowed[s] != "" || voiceAllowedFiles[tx.path] != "" {
			continue
		}
		if strings.Contains(s, "＜エラー＞") && !voicePrefixHolders[s] {
			t.Errorf("%s: error prefix spelled out in %q (use msgErrorHead)", where, s)
		}
		if strings.HasPrefix(s, "fumibako: ") {
			t.Errorf("%s: English-style prefix in %q", where, s)
		}
		// A help example is a command line, quoted as a shell wants.
		if m := bracketed.FindString(s); m != "" && !strings.HasPrefix(s, "fumibako ") {
			t.Errorf("%s: %q quotes a name or value with %s (use 「」)", where, s, m)
		}
		for _, line := range strings.Split(s, "\n") {
			line = strings.TrimRight(line, " \t")
			if sentenceEnd.MatchString(line) {
				t.Errorf("%s: sentence without 。 at its end: %q", where, line)
			}
		}
	}
	t.Logf("%d Japanese texts", len(texts))
}

// japaneseText is one string literal with Japanese in the binary's code.
type japaneseText struct {
	text  string
	path  string // from the repository root: internal/search/messages.go
	where string // search/messages.go:12, for failures
}

// japaneseTexts walks the non-test .go files of cmd/ and internal/ (but
// voiceSkipDirs) and returns their string literals that hold Japanese.
func japaneseTexts(t *testing.T) []japaneseText {
	t.Helper()
	japanese := regexp.MustCompile(`[\p{Han}\p{Hiragana}\p{Katakana}]`)
	var files []string
	for _, dir := range []string{".", "../../internal"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && voiceSkipDirs[filepath.Base(path)] {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) < 100 {
		t.Fatalf("walked %d files, want the binary's packages", len(files))
	}
	var out []japaneseText
	for _, path := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../../"))
		if !strings.HasPrefix(rel, "internal/") {
			rel = "cmd/fumibako/" + rel
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !japanese.MatchString(s) {
				return true
			}
			line := fset.Position(lit.Pos()).Line
			out = append(out, japaneseText{s, rel, filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path) + ":" + strconv.Itoa(line)})
			return true
		})
	}
	return out
}

// voiceSkipDirs are packages whose Japanese strings are test data or
// generated documents, never messages.
var voiceSkipDirs = map[string]bool{"testdata": true, "fixture": true, "testcorpus": true, "testutil": true, "layers": true}

// voicePrefixHolders are the texts that hold the error prefix itself.
var voicePrefixHolders = map[string]bool{
	msgErrorHead: true,
	// progress.go's fatalMark, and the indexer's log line (run.go) that it
	// recognises: reference/indexing.md prints a fatal error so.
	fatalMark: true,
}

// voiceAllowedFiles hold texts in a format other than a message.
// The ingest list's エラー cells are written as the seed writes them, without
// 。 (seed/ingest-list.ja.md, reference/indexing.md §17.2); the web's status
// bar keeps reference/gui.md's exact status wording (no 。 either).
var voiceAllowedFiles = map[string]string{
	"internal/extract/internal/numfmt/date.go":       "era names and date formats, not messages",
	"internal/extract/errors.go":                     "ingest-list エラー cells",
	"internal/extract/source.go":                     "ingest-list エラー cells",
	"internal/extract/pdf/pdf.go":                    "ingest-list エラー cells",
	"internal/extract/pdf/engine.go":                 "ingest-list エラー cells",
	"internal/extract/internal/ocrpages/ocrpages.go": "ingest-list エラー cells",
	"internal/worker/describe.go":                    "ingest-list エラー cells",
	"internal/worker/supervisor.go":                  "ingest-list エラー cells",
	"internal/journal/messages.go":                   "ingest-list エラー cells",
	"internal/indexer/poison.go":                     "ingest-list エラー cells",
	"internal/ocr/find.go":                           "ingest-list エラー cells",
	"internal/ocr/image.go":                          "ingest-list エラー cells",
	"internal/ocr/tesseract.go":                      "ingest-list エラー cells",
	"internal/crawl/crawl.go":                        "skip reasons, shown after a path and a colon",
	"internal/search/regex.go":                       "regex error details, inside MsgBadRegex's （…）",
	"internal/search/fresh.go":                       "a hit's freshness mark (削除されています), a label",
	"internal/ingestlist/errors.go":                  "line faults, inside the reader's message",
	"internal/ingestlist/skips.go":                   "skip reasons, after a line number",
	"internal/workspace/settings_recover.go":         "settings faults, inside msgSettingsRecovered's （…）",
	"internal/watch/status.go":                       "watcher states and causes: labels after 「index」 path:",
	"internal/web/messages.go":                       "status-bar lines, reference/gui.md wording",
	"internal/web/indexing/messages.go":              "the run's banner lines, reference/gui.md wording",
	"internal/web/export.go":                         "status-bar line, reference/gui.md wording",
	"internal/web/open_unix.go":                      "fragments joined to a path",
}

// voiceAllowed are single texts in another form, with why.
var voiceAllowed = map[string]string{
	msgHintBool:         "inside msgFlagBadValue's （…）",
	msgHintInt:          "inside msgFlagBadValue's （…）",
	msgHintDuration:     "inside msgFlagBadValue's （…）",
	msgHintText:         "inside msgFlagBadValue's （…）",
	msgBadColor:         "inside msgFlagBadValue's （…）",
	msgOpenerNotStarted: "inside msgOpenFailed's （…）",
	"%s が見つかりません（xdg-utils を入れてください）": "desktop: the why inside msgOpenFailed's （…）",
	"%s を起動できませんでした":                  "desktop: the why inside msgOpenFailed's （…）",
	"%s が終了コード %d で終わりました（このファイルを開くアプリが設定されていない可能性があります）": "desktop: the why inside msgOpenFailed's （…）",
	"書き出しています":                     "a progress label (share.go)",
	"確かめて取り込んでいます":                 "a progress label (share.go)",
	"設定にありません":                     "indexer: a reason after msgOnlySkipped's colon",
	"取り込み対象から外れています":               "indexer: a reason after msgOnlySkipped's colon",
	"インデックスのファイルを置けませんでした":         "indexer: an ingest-list エラー cell (msgSwapFailed)",
	"中止しました（%d 件まで表示）":             "reference/gui.md §4.3 exact status",
	"%s に出力しました（%d 件）":             "reference/search.md §8 exact status",
	"元のフォルダを確かめてください":              "a dialog title (reference/gui.md §6)",
	"%s が見つかりません":                  "a dialog title (reference/gui.md §6)",
	"インデックス「%s」の元のフォルダを %s に変えました": "reference/search.md §9 status",
	"%s の値の種類が正しくありません":            "settings fault detail",
}
