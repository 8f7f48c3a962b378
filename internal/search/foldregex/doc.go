// Package foldregex compiles a search's regex word (search --regex, the web
// UI's 正規表現) for the text as the body index stores it: folded, in lines.
//
// Regular expressions are RE2 (Go's regexp), so matching is linear in the
// text and needs no time limit. A pattern is parsed as the user wrote it
// (errors say where it is wrong), then adjusted:
//
//   - like tebunko's .NET engine, \s also matches U+2028 (an in-cell
//     newline) and U+3000, \w matches letters and digits of any script, \d
//     any decimal digit (reference/search.md §2.3, §15);
//   - without --case it runs on the folded text: its literals are folded
//     like the text, and a character class matches a folded rune when a
//     rune of the class folds to it (negated classes: when none does); so
//     `[Ａ-Ｚ]+` and `[A-Z]+` both find `abc`, as (?i) does for case;
//   - with --kana, katakana in literals and classes become hiragana;
//   - it never matches across a line: classes lose LF, `.` never matches
//     LF, and ^ $ \A \z anchor at the line (or, for shape and comment
//     lines, at the text after the cell).
//
// The literals that every match must contain are extracted from the
// adjusted pattern; they feed the n-gram filter and the first scan
// (a byte search) exactly as the words of a literal query do. A lazy DFA
// (linedfa) built from the same adjusted pattern then drops the lines
// that hold the literal but cannot match (a short literal such as `-` is
// in many lines), or, with no literal, scans whole blocks for the lines
// that may match at several hundred MB/s; regexp verifies those lines.
package foldregex
