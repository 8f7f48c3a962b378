package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// SettingKey is one user setting of settings.json as `fumibako settings
// list|get|set` and the web UI's 設定 screen show and change it (issue 32,
// reference/gui.md §5). SettingKeys is the one table of them: a later
// option is one more row, and both front ends follow.
//
// Values are typed by Type: bool (true/false; on the command line also
// on/off), int (Min..Max), text, choice (one of Choices) and list (a
// subset of Choices, comma-separated on the command line).
type SettingKey struct {
	Key      string      // the JSON name in settings.json (`search.case`: key case of the object search)
	Type     SettingType // how the value is written and checked
	Section  string      // the 設定 screen's group: 検索, インデックス作成, 開く, 自動で更新, OCR, ワークスペース
	Label    string      // Japanese label
	Help     string      // Japanese help line (defaults, units)
	Choices  []string    // choice and list: the allowed values
	Min, Max int         // int: the allowed range
	// ReadOnly keys are shown, never set (the workspace folder).
	ReadOnly bool

	get func(w *Workspace, s *Settings) any
	set func(s *Settings, v any)
}

// SettingType is how a SettingKey's value is written.
type SettingType string

// Setting value types.
const (
	SettingBool   SettingType = "bool"
	SettingInt    SettingType = "int"
	SettingText   SettingType = "text"
	SettingChoice SettingType = "choice"
	SettingList   SettingType = "list"
)

// SearchKinds are the file kinds a search can be limited to (the web UI's
// kind chips, search --kind), in the order they are shown.
var SearchKinds = []string{"excel", "word", "powerpoint", "pdf", "text", "image"}

// settingKeys is the table. Keep it in the order of the 設定 screen.
var settingKeys = []SettingKey{
	{Key: "search.kinds", Type: SettingList, Section: "検索", Label: "検索する種類", Choices: SearchKinds,
		Help: "excel, word, powerpoint, pdf, text, image から選びます。空なら、すべての種類を検索します。",
		get:  func(_ *Workspace, s *Settings) any { return slices.Clone(s.Search.Kinds) },
		set:  func(s *Settings, v any) { s.Search.Kinds = v.([]string) }},
	searchBool("search.case", "大文字と小文字を区別", "全角・半角、長音、旧字・異体字の違いも区別します。既定: off。", false,
		func(o *SearchOptions) **bool { return &o.Case }),
	searchBool("search.kana", "ひらがなとカタカナを区別しない", "既定: off。", false,
		func(o *SearchOptions) **bool { return &o.Kana }),
	searchBool("search.regex", "正規表現を使う", "既定: off。", false,
		func(o *SearchOptions) **bool { return &o.Regex }),
	searchBool("search.shapes", "図形も検索", "図形・テキストボックスの文字も検索します。既定: on。", true,
		func(o *SearchOptions) **bool { return &o.Shapes }),
	searchBool("search.comments", "コメントも検索", "セルや文書のコメントも検索します。既定: on。", true,
		func(o *SearchOptions) **bool { return &o.Comments }),
	searchBool("search.fileNames", "ファイル名も検索", "ファイル名だけに検索する文字列があるファイルも見つけます。既定: on。", true,
		func(o *SearchOptions) **bool { return &o.FileNames }),
	{Key: "workers", Type: SettingInt, Section: "インデックス作成", Label: "同時に取り込むプロセスの数", Min: 0, Max: 64,
		Help: "0 なら CPU の数です。",
		get:  func(_ *Workspace, s *Settings) any { return s.Workers },
		set:  func(s *Settings, v any) { s.Workers = v.(int) }},
	{Key: "fileTimeoutMinutes", Type: SettingInt, Section: "インデックス作成", Label: "1 ファイルの制限時間（分）", Min: 0, Max: 1440,
		Help: "この時間を過ぎたファイルは失敗にして、次のファイルに進みます。0 なら 10 分です。",
		get:  func(_ *Workspace, s *Settings) any { return s.FileTimeoutMinutes },
		set:  func(s *Settings, v any) { s.FileTimeoutMinutes = v.(int) }},
	{Key: "openMode", Type: SettingChoice, Section: "開く", Label: "ファイルの開き方", Choices: OpenModes,
		Help: "normal: そのまま開く、readOnly: 読み取り専用で開く、new: 新しい文書として開く。既定: normal。",
		get: func(_ *Workspace, s *Settings) any {
			if s.OpenMode == "" {
				return "normal"
			}
			return s.OpenMode
		},
		set: func(s *Settings, v any) {
			s.OpenMode = v.(string)
			if s.OpenMode == "normal" {
				s.OpenMode = ""
			}
		}},
	{Key: "autoUpdate", Type: SettingBool, Section: "自動で更新", Label: "自動で更新する",
		Help: "fumibako serve の間、フォルダの変更を見張って取り込みます。既定: off。",
		get:  func(_ *Workspace, s *Settings) any { return s.AutoUpdate },
		set:  func(s *Settings, v any) { s.AutoUpdate = v.(bool) }},
	{Key: "watchFullRescanHours", Type: SettingInt, Section: "自動で更新", Label: "すべてを調べ直す間隔（時間）", Min: -1, Max: 8760,
		Help: "見張っている間も、この間隔でフォルダ全体を調べ直します。0 なら 24 時間、-1 なら起動したときだけです。",
		get:  func(_ *Workspace, s *Settings) any { return s.WatchFullRescanHours },
		set:  func(s *Settings, v any) { s.WatchFullRescanHours = v.(int) }},
	{Key: "tesseractPath", Type: SettingText, Section: "OCR", Label: "Tesseract のプログラム",
		Help: "空なら、PATH とインストール先から探します。",
		get:  func(_ *Workspace, s *Settings) any { return s.TesseractPath },
		set:  func(s *Settings, v any) { s.TesseractPath = v.(string) }},
	{Key: "ocrSecondsPerPage", Type: SettingInt, Section: "OCR", Label: "OCR 1 ページの持ち時間（秒）", Min: 0, Max: 3600,
		Help: "OCR で読むページごとに、1 ファイルの制限時間へ足す秒数です。0 なら 60 秒です。",
		get:  func(_ *Workspace, s *Settings) any { return s.OCRSecondsPerPage },
		set:  func(s *Settings, v any) { s.OCRSecondsPerPage = v.(int) }},
	{Key: "workspace", Type: SettingText, Section: "ワークスペース", Label: "ワークスペース", ReadOnly: true,
		Help: "インデックスと設定の置き場所です。--workspace か環境変数 FUMIBAKO_WORKSPACE で変えます。",
		get: func(w *Workspace, _ *Settings) any {
			if w == nil {
				return ""
			}
			return w.Root
		}},
}

// searchBool is a row for one on/off search option with its default.
func searchBool(key, label, help string, def bool, field func(*SearchOptions) **bool) SettingKey {
	return SettingKey{Key: key, Type: SettingBool, Section: "検索", Label: label, Help: help,
		get: func(_ *Workspace, s *Settings) any {
			if p := *field(&s.Search); p != nil {
				return *p
			}
			return def
		},
		set: func(s *Settings, v any) {
			b := v.(bool)
			if b == def {
				*field(&s.Search) = nil // the default is not written
				return
			}
			*field(&s.Search) = &b
		}}
}

// SettingKeys returns the table of settings, in the 設定 screen's order.
func SettingKeys() []SettingKey { return slices.Clone(settingKeys) }

// LookupSetting finds a key, ignoring case.
func LookupSetting(key string) (SettingKey, bool) {
	for _, k := range settingKeys {
		if strings.EqualFold(k.Key, key) {
			return k, true
		}
	}
	return SettingKey{}, false
}

// Messages of a refused setting (issue 32).
const (
	msgKeyUnknown  = "設定「%s」はありません。fumibako settings list で一覧を表示できます。"
	msgKeyReadOnly = "設定「%s」は変えられません。%s"
	msgValueBool   = "設定「%s」には on か off を指定してください（指定された値: 「%s」）。"
	msgValueInt    = "設定「%s」には %d から %d までの整数を指定してください（指定された値: 「%s」）。"
	msgValueChoice = "設定「%s」には %s のどれかを指定してください（指定された値: 「%s」）。"
	msgValueList   = "設定「%s」には %s から選んで、コンマで区切って指定してください（使えない値: 「%s」）。"
	msgValueText   = "設定「%s」には改行や制御文字を含まない文字列を指定してください。"
)

// SettingError is a refused key or value: Msg is the Japanese text the
// user reads, Cause the English reason.
type SettingError struct {
	Msg   string
	Cause error
}

func (e *SettingError) Error() string { return e.Msg }
func (e *SettingError) Unwrap() error { return e.Cause }

// ErrUnknownSetting is the cause of a SettingError for a key that is not
// in the table.
var ErrUnknownSetting = errors.New("workspace: unknown setting")

// UnknownSettingError is the error for a key that is not in the table.
func UnknownSettingError(key string) error {
	return &SettingError{Msg: fmt.Sprintf(msgKeyUnknown, key), Cause: fmt.Errorf("%w %q", ErrUnknownSetting, key)}
}

func badValue(cause string, format string, a ...any) error {
	return &SettingError{Msg: fmt.Sprintf(format, a...), Cause: errors.New("workspace: setting: " + cause)}
}

// Value returns the key's value in s (its default when unset): bool, int,
// string or []string.
func (k SettingKey) Value(w *Workspace, s *Settings) any { return k.get(w, s) }

// Text writes a value as `settings get` prints it: on/off, a number, the
// text, or a list joined by commas.
func (k SettingKey) Text(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "on"
		}
		return "off"
	case int:
		return strconv.Itoa(x)
	case []string:
		return strings.Join(x, ",")
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// ParseText reads a value typed on the command line (`settings set KEY
// VALUE`) and checks it.
func (k SettingKey) ParseText(text string) (any, error) {
	if k.ReadOnly {
		return nil, badValue("read-only "+k.Key, msgKeyReadOnly, k.Key, k.Help)
	}
	t := strings.TrimSpace(text)
	switch k.Type {
	case SettingBool:
		switch strings.ToLower(t) {
		case "on", "true", "yes", "1":
			return true, nil
		case "off", "false", "no", "0":
			return false, nil
		}
		return nil, badValue("not a boolean: "+text, msgValueBool, k.Key, text)
	case SettingInt:
		n, err := strconv.Atoi(t)
		if err != nil {
			return nil, badValue("not an integer: "+text, msgValueInt, k.Key, k.Min, k.Max, text)
		}
		return k.Check(n)
	case SettingList:
		var items []string
		for _, it := range strings.Split(t, ",") {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, it)
			}
		}
		return k.Check(items)
	}
	return k.Check(text)
}

// Check checks a value for the key and returns it in its Go type: JSON
// numbers (float64) become int, a []any of strings a []string; list
// items are put in the table's order, each once, and matched ignoring
// case, as choices are.
func (k SettingKey) Check(v any) (any, error) {
	if k.ReadOnly {
		return nil, badValue("read-only "+k.Key, msgKeyReadOnly, k.Key, k.Help)
	}
	shown := func() string {
		b, _ := json.Marshal(v)
		return strings.Trim(string(b), `"`)
	}
	switch k.Type {
	case SettingBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, badValue("not a boolean: "+shown(), msgValueBool, k.Key, shown())
	case SettingInt:
		var n int
		switch x := v.(type) {
		case int:
			n = x
		case float64:
			if x != math.Trunc(x) || x < math.MinInt32 || x > math.MaxInt32 {
				return nil, badValue("not an integer: "+shown(), msgValueInt, k.Key, k.Min, k.Max, shown())
			}
			n = int(x)
		default:
			return nil, badValue("not an integer: "+shown(), msgValueInt, k.Key, k.Min, k.Max, shown())
		}
		if n < k.Min || n > k.Max {
			return nil, badValue(fmt.Sprintf("%d out of %d..%d", n, k.Min, k.Max), msgValueInt, k.Key, k.Min, k.Max, strconv.Itoa(n))
		}
		return n, nil
	case SettingChoice:
		s, _ := v.(string)
		for _, c := range k.Choices {
			if strings.EqualFold(c, strings.TrimSpace(s)) {
				return c, nil
			}
		}
		return nil, badValue("not a choice: "+shown(), msgValueChoice, k.Key, strings.Join(k.Choices, "、"), shown())
	case SettingList:
		var items []string
		switch x := v.(type) {
		case []string:
			items = x
		case []any:
			for _, it := range x {
				s, ok := it.(string)
				if !ok {
					return nil, badValue("not a list of strings", msgValueList, k.Key, strings.Join(k.Choices, "、"), shown())
				}
				items = append(items, s)
			}
		case nil:
		default:
			return nil, badValue("not a list", msgValueList, k.Key, strings.Join(k.Choices, "、"), shown())
		}
		var out []string
		for _, c := range k.Choices {
			for _, it := range items {
				if strings.EqualFold(c, strings.TrimSpace(it)) {
					out = append(out, c)
					break
				}
			}
		}
		for _, it := range items {
			if !slices.ContainsFunc(k.Choices, func(c string) bool { return strings.EqualFold(c, strings.TrimSpace(it)) }) {
				return nil, badValue("not a choice: "+it, msgValueList, k.Key, strings.Join(k.Choices, "、"), it)
			}
		}
		return out, nil
	}
	s, ok := v.(string)
	if !ok || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, badValue("not a one-line text", msgValueText, k.Key)
	}
	return strings.TrimSpace(s), nil
}

// Set checks v (Check) and stores it in s.
func (k SettingKey) Set(s *Settings, v any) error {
	v, err := k.Check(v)
	if err != nil {
		return err
	}
	k.set(s, v)
	return nil
}

// SearchOptions are the search page's options, shared by every browser
// on the workspace (the object search of settings.json; issue 32: they
// were per browser). A nil flag means its default (shapes, comments and
// file names on; the others off). Kinds empty: every kind.
type SearchOptions struct {
	Kinds     []string `json:"kinds,omitempty"`
	Case      *bool    `json:"case,omitempty"`
	Kana      *bool    `json:"kana,omitempty"`
	Regex     *bool    `json:"regex,omitempty"`
	Shapes    *bool    `json:"shapes,omitempty"`
	Comments  *bool    `json:"comments,omitempty"`
	FileNames *bool    `json:"fileNames,omitempty"`
}

// msgSearchIgnored is the notice when the object search could not be read
// in full (the rest of the file is used).
const msgSearchIgnored = "設定ファイルの検索のオプション（search）の %d 件を読み取れなかったため、既定の値にしました。"

// readSearch sets s.Search from the search key of data tolerantly: a value
// that is no object, an option that is no boolean and a kind that is not
// in SearchKinds are left out and counted in s.Ignored (openMode is read
// by readOpenMode).
func (s *Settings) readSearch(data []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return
	}
	var notes []string
	if s.Ignored != "" {
		notes = append(notes, s.Ignored)
	}
	if raw, ok := top["search"]; ok && string(raw) != "null" {
		bad := 0
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			bad++
		}
		for name, v := range obj {
			k, ok := LookupSetting("search." + name)
			if !ok {
				continue // an option of a later version: ignored
			}
			var val any
			if json.Unmarshal(v, &val) != nil || k.Set(s, val) != nil {
				bad++
			}
		}
		if bad > 0 {
			notes = append(notes, fmt.Sprintf(msgSearchIgnored, bad))
		}
	}
	s.Ignored = strings.Join(notes, "")
}
