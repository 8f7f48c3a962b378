package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// readmeText turns README.ja.md into the plain text of README.ja.txt,
// which Notepad shows as it is: a `#` heading is underlined with `=`, a
// `##` heading becomes 【見出し】, back quotes and ** go, a [text](url)
// link becomes text（url）, and an indented block stays indented. The
// zip's README is so always the repository's, never a second copy that
// drifts from the UI (issue 32).
func readmeText(md string) string {
	link := regexp.MustCompile(`\[([^\]]+)\]\(([^)]+)\)`)
	var b strings.Builder
	for _, line := range strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "# "):
			title := strings.TrimPrefix(line, "# ")
			b.WriteString(title + "\n" + strings.Repeat("=", textWidth(title)) + "\n")
			continue
		case strings.HasPrefix(line, "## "):
			b.WriteString("【" + strings.TrimPrefix(line, "## ") + "】\n")
			continue
		}
		line = link.ReplaceAllString(line, "$1（$2）")
		line = strings.NewReplacer("`", "", "**", "").Replace(line)
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// textWidth counts a wide character as two columns, for the underline.
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 {
			n++
		}
	}
	return n
}

// releaseVersion is the version a release is named and stamped with:
// `git describe --tags --match v0.*` gives v0.N.M on a tagged commit and
// v0.N.M-<n>-g<hash> after it; with no such tag, v0.0.0-<n>-g<hash> where
// n counts the commits. git runs git with the arguments and returns its
// trimmed output.
func releaseVersion(git func(args ...string) (string, error)) (string, error) {
	if v, err := git("describe", "--tags", "--match", "v0.*", "--dirty"); err == nil && releaseRe.MatchString(v) {
		return v, nil
	}
	count, err := git("rev-list", "--count", "HEAD")
	if err != nil {
		return "", fmt.Errorf("dist: no v0.N.M tag and no commit count: %w", err)
	}
	if _, err := strconv.Atoi(count); err != nil {
		return "", fmt.Errorf("dist: commit count %q", count)
	}
	hash, err := git("rev-parse", "--short", "HEAD")
	if err != nil {
		return "", fmt.Errorf("dist: no commit hash: %w", err)
	}
	return "v0.0.0-" + count + "-g" + hash, nil
}

// releaseRe is what git describe gives for a v0.N.M tag.
var releaseRe = regexp.MustCompile(`^v0\.[0-9]+\.[0-9]+(-[0-9]+-g[0-9a-f]+)?(-dirty)?$`)
