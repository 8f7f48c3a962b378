// Package numfmt renders cell values through Excel number formats as a
// Japanese Excel shows them (reference/extraction.md §5.2; ECMA-376 Part 1
// §18.8.31): sections and conditions, digit placeholders, fractions,
// exponents, currency and locale tags, dates and times with Japanese eras,
// [DBNum] kanji digits, and the built-in formats (numfmt.go states the
// rules).
package numfmt
