package ingestlist

import (
	"regexp"
	"strings"
)

// detailOpen starts the detail that describeIngestError appends to a cause
// (reference/indexing.md §17.3): "<cause>（詳細: <msg>）".
const detailOpen = "（詳細: "

// internals matches what a detail of an earlier fumibako held and a user
// must not see (issue 16): a path ("/srv/…", `C:\…`, `a/b`), an English
// error chain or a Go package prefix ("zip: not a valid zip file"), English
// words ("CLX missing", "Word FIB fEncrypted").
var internals = regexp.MustCompile(`[A-Za-z0-9_.]+: |[/\\][^\s）]|^[A-Za-z]:|[A-Za-z]+ [A-Za-z]+`)

// ShownError is the エラー text of a row as read from the list: a detail
// that an earlier version wrote with a path or an English error chain in
// it ("…（詳細: /srv/営業/a.xlsx: extract: not a ZIP package）") is dropped,
// the cause before it kept; the English text of a failure is written to
// indexing_log.txt only. Any other text is returned unchanged.
func ShownError(s string) string {
	i := strings.Index(s, detailOpen)
	if i < 0 || !strings.HasSuffix(s, "）") {
		return s
	}
	if detail := s[i+len(detailOpen) : len(s)-len("）")]; internals.MatchString(detail) {
		return s[:i]
	}
	return s
}
