package libreoffice

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/workspace"
)

// LibreOffice's locale in the private profile (convert.go).
//
// LibreOffice creates a profile on its first start in it and takes the
// process locale, which on servers is C. Locale-bound built-in formats
// then convert as in an English LibreOffice: an .xls cell of Excel format
// 14 comes out as 1/15/2024, the Japanese era and kanji date formats 27–36
// and 50–58 as plain dates, and format 37 shows negatives in parentheses.
// The locale setting (Tools ▸ Options ▸ Language Settings ▸ Languages ▸
// Locale setting) is one item of the profile's
// user/registrymodifications.xcu:
//
//	<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>ja-JP</value></prop></item>
//
// ensureLocale puts it there before soffice starts with the profile:
//
//   - no registrymodifications.xcu yet (a new profile folder): one holding
//     just the item is written, and LibreOffice builds the rest of the
//     profile around it. LibreOffice 7.4 honours such a pre-seeded file on
//     its very first start and keeps the item when it saves the file, so
//     no extra start with --terminate_after_init is needed (checked: the
//     first conversion already shows 2024/1/15, and later ones too);
//   - a file with the item: left alone; this is all later conversions
//     cost, one read of a small file;
//   - a file with ooSetupSystemLocale set to another value: the item is
//     replaced;
//   - any other file: the item is added before </oor:items>; a file without
//     </oor:items> is unreadable to LibreOffice and is replaced.
//
// Files are written whole through workspace.WriteFileAtomic, so a worker
// killed meanwhile never leaves a half-written settings file.

// locale is the locale LibreOffice converts in, a Japanese Excel's.
const locale = "ja-JP"

// Locale is locale, for tools that run LibreOffice with a
// profile of their own (tools/xlsxagree).
const Locale = locale

// EnsureLocale makes such a profile folder carry locale, as
// the conversions' own profiles do (ensureLocale).
func EnsureLocale(profile string) error { return ensureLocale(profile) }

// localeItem is the profile setting of locale, as LibreOffice writes it.
const localeItem = `<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>` + locale + `</value></prop></item>`

// settingsHead and settingsTail enclose the items of
// registrymodifications.xcu.
const (
	settingsHead = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` + "\n"
	settingsTail = "</oor:items>\n"
)

// settingsFile is the settings file of a profile folder.
func settingsFile(profile string) string {
	return filepath.Join(profile, "user", "registrymodifications.xcu")
}

// ensureLocale makes the profile folder carry locale (see above).
func ensureLocale(profile string) error {
	xcu := settingsFile(profile)
	b, err := os.ReadFile(xcu)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(xcu), 0o755); err != nil {
			return fmt.Errorf("extract: create LibreOffice profile: %w", err)
		}
		b, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("extract: read LibreOffice settings: %w", err)
	}
	out, changed := withLocaleItem(b)
	if !changed {
		return nil
	}
	if err := workspace.WriteFileAtomic(xcu, out); err != nil {
		return fmt.Errorf("extract: set LibreOffice's locale: %w", err)
	}
	return nil
}

// withLocaleItem returns the settings file b with localeItem in it, and
// whether that changed anything; an empty b gives a new file.
func withLocaleItem(b []byte) ([]byte, bool) {
	if bytes.Contains(b, []byte(localeItem)) {
		return b, false
	}
	if i, j, ok := localeItemAt(b); ok {
		return concat(b[:i], []byte(localeItem), b[j:]), true
	}
	end := bytes.LastIndex(b, []byte("</oor:items>"))
	if end < 0 {
		return []byte(settingsHead + localeItem + "\n" + settingsTail), true
	}
	return concat(b[:end], []byte(localeItem+"\n"), b[end:]), true
}

// localeItemAt finds the item that sets ooSetupSystemLocale: b[i:j].
func localeItemAt(b []byte) (i, j int, ok bool) {
	const head = `<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale"`
	i = bytes.Index(b, []byte(head))
	if i < 0 {
		return 0, 0, false
	}
	n := bytes.Index(b[i:], []byte("</item>"))
	if n < 0 {
		return 0, 0, false
	}
	return i, i + n + len("</item>"), true
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
