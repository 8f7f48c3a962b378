// Package textfold is what makes the default search forgiving: the one
// normalisation ("folding") that the body index applies to every line it
// stores and that search applies to every query, and the gram keys that
// both derive from folded text. A plain byte search of the folded query in
// the folded line then finds `ａｂｃ`, `ABC` and `abc` alike.
//
// One rune folds as follows:
//
//   - width: full-width ASCII becomes ASCII (`Ａ１＄` → `a1$`), the
//     ideographic space U+3000 a space, half-width katakana and
//     punctuation become full-width (`ｶﾀｶﾅ｡` → `カタカナ。`), as
//     golang.org/x/text/width.Fold does;
//   - case: simple case folding to the lower-case member of the rune's
//     orbit (unicode.ToLower(unicode.ToUpper(r)): `K` (Kelvin) → `k`,
//     `ς` → `σ`);
//   - a kana followed by a voiced or semi-voiced sound mark (the combining
//     U+3099/U+309A, or the half-width ﾞ ﾟ that width folding turns into
//     them) is composed into one rune where Unicode has one (`ｶﾞ` → `ガ`,
//     NFD `パ` → `パ`).
//
// Folding never maps a rune to LF, so lines stay lines. Its output may be
// shorter or longer than its input (`Ａ` is 3 bytes, `a` one); a Scanner
// walks a text unit by unit (the source bytes that fold together and what
// they fold to), which is the way back for highlighting (MapSpans) and
// for the body index's patches; a KeyScanner also makes the gram keys of
// the folded text as it goes (the body index's encoder).
//
// With --kana, hiragana and katakana are also made equal (AppendKana) on
// top of the folded text; it keeps byte offsets.
package textfold
