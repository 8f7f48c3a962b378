package search

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// regexError turns a syntax error of a regex word (foldregex.Compile)
// into a QueryError with the position of the offending text.
func regexError(pattern string, w int, err error) error {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return &QueryError{Msg: fmt.Sprintf(MsgBadRegexWord, w+1, pattern), Word: w, Pos: 0, Cause: err}
	}
	pos := 0
	if i := strings.Index(pattern, se.Expr); i >= 0 && se.Code != syntax.ErrMissingParen {
		pos = utf8.RuneCountInString(pattern[:i])
	} else if se.Code == syntax.ErrMissingParen {
		pos = utf8.RuneCountInString(pattern)
	}
	if se.Code == syntax.ErrMissingParen || se.Expr == "" {
		// The text is missing, not wrong: point at the end of the word.
		return &QueryError{Msg: fmt.Sprintf(MsgBadRegexEnd, w+1, pattern, regexReason(se.Code)), Word: w, Pos: pos, Cause: err}
	}
	return &QueryError{Msg: fmt.Sprintf(MsgBadRegex, w+1, pattern, pos+1, se.Expr, regexReason(se.Code)), Word: w, Pos: pos, Cause: err}
}

// regexReason says in Japanese what a syntax error code means.
func regexReason(c syntax.ErrorCode) string {
	switch c {
	case syntax.ErrMissingParen:
		return "閉じかっこ ) が足りません"
	case syntax.ErrUnexpectedParen:
		return "対応する ( のない ) があります"
	case syntax.ErrMissingBracket:
		return "閉じかっこ ] がありません"
	case syntax.ErrMissingRepeatArgument:
		return "繰り返す対象がありません"
	case syntax.ErrInvalidRepeatOp:
		return "繰り返しの指定が不正です"
	case syntax.ErrInvalidRepeatSize:
		return "繰り返しの回数が不正です（1000 まで）"
	case syntax.ErrInvalidEscape:
		return "使えない \\ の組み合わせです"
	case syntax.ErrInvalidCharRange:
		return "文字の範囲が不正です"
	case syntax.ErrInvalidCharClass:
		return "文字クラスが不正です"
	case syntax.ErrInvalidNamedCapture:
		return "名前付きグループが不正です"
	case syntax.ErrInvalidPerlOp:
		return "(? の使い方が不正です（先読み・後読み・後方参照は使えません）"
	case syntax.ErrTrailingBackslash:
		return "最後が \\ で終わっています"
	case syntax.ErrNestingDepth, syntax.ErrLarge:
		return "式が大きすぎます"
	case syntax.ErrInvalidUTF8:
		return "文字コードが不正です"
	}
	return string(c)
}
