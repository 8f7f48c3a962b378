package linedfa

import (
	"errors"
	"fmt"
	"regexp/syntax"
)

// maxStates bounds the NFA: a pattern that needs more states is
// unsupported (Compile fails and the caller keeps Go's regexp).
const maxStates = 1 << 17

// ErrTooLarge is the error of a pattern whose NFA exceeds maxStates.
var ErrTooLarge = errors.New("linedfa: pattern too large")

// nstate is one NFA state: it consumes one byte through trans, or moves
// without consuming to each of eps, or is the match state. A state with
// none of them is dead (an empty class, OpNoMatch).
type nstate struct {
	trans []btrans
	eps   []int32
	match bool
}

// btrans moves on a byte in [lo, hi] to next.
type btrans struct {
	lo, hi byte
	next   int32
}

// builder compiles a syntax tree into NFA states, back to front: each
// piece is compiled with the state that follows it, and returns its
// entry state.
type builder struct {
	states    []nstate
	err       error
	needValid bool                 // a class matches U+FFFD (and so, in Go, invalid bytes)
	classes   map[string]*template // compiled classes, by their runes
	key       []byte
}

func (b *builder) add(s nstate) int32 {
	if len(b.states) >= maxStates {
		b.err = ErrTooLarge
		return 0
	}
	b.states = append(b.states, s)
	return int32(len(b.states) - 1)
}

// anyNotNL and anyChar are the classes of OpAnyCharNotNL and OpAnyChar.
var (
	anyNotNL = []rune{0, '\n' - 1, '\n' + 1, maxRune}
	anyChar  = []rune{0, maxRune}
)

// compile returns the entry state of re followed by next. Empty-width
// assertions (^ $ \A \z \b \B) are taken as always true.
func (b *builder) compile(re *syntax.Regexp, next int32) int32 {
	if b.err != nil {
		return 0
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return b.add(nstate{})
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return next
	case syntax.OpLiteral:
		for i := len(re.Rune) - 1; i >= 0; i-- {
			c := re.Rune[i]
			if re.Flags&syntax.FoldCase != 0 {
				next = b.class(foldOrbit(c), next)
			} else {
				next = b.class([]rune{c, c}, next)
			}
		}
		return next
	case syntax.OpCharClass:
		return b.class(re.Rune, next)
	case syntax.OpAnyCharNotNL:
		return b.class(anyNotNL, next)
	case syntax.OpAnyChar:
		return b.class(anyChar, next)
	case syntax.OpCapture:
		return b.compile(re.Sub[0], next)
	case syntax.OpStar:
		return b.star(re.Sub[0], next, false)
	case syntax.OpPlus:
		return b.star(re.Sub[0], next, true)
	case syntax.OpQuest:
		return b.add(nstate{eps: []int32{b.compile(re.Sub[0], next), next}})
	case syntax.OpRepeat:
		return b.repeat(re, next)
	case syntax.OpConcat:
		for i := len(re.Sub) - 1; i >= 0; i-- {
			next = b.compile(re.Sub[i], next)
		}
		return next
	case syntax.OpAlternate:
		eps := make([]int32, len(re.Sub))
		for i, s := range re.Sub {
			eps[i] = b.compile(s, next)
		}
		return b.add(nstate{eps: eps})
	}
	b.err = fmt.Errorf("linedfa: unsupported operator %v", re.Op)
	return 0
}

// size returns the number of states compile adds for re, or more than
// maxStates when that is more: Compile fails early on a pattern such as
// \pL{1000} without building a hundred thousand states first.
func (b *builder) size(re *syntax.Regexp) int {
	n := 0
	switch re.Op {
	case syntax.OpNoMatch:
		n = 1
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				n += len(b.template(foldOrbit(c)).states)
			} else {
				n += len(b.template([]rune{c, c}).states)
			}
		}
	case syntax.OpCharClass:
		n = len(b.template(re.Rune).states)
	case syntax.OpAnyCharNotNL:
		n = len(b.template(anyNotNL).states)
	case syntax.OpAnyChar:
		n = len(b.template(anyChar).states)
	case syntax.OpCapture:
		n = b.size(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		n = b.size(re.Sub[0]) + 1
	case syntax.OpRepeat:
		sub := b.size(re.Sub[0])
		if re.Max < 0 {
			n = (re.Min+1)*sub + 1
		} else {
			n = re.Max*sub + re.Max - re.Min
		}
	case syntax.OpConcat, syntax.OpAlternate:
		for _, s := range re.Sub {
			if n += b.size(s); n > maxStates {
				break
			}
		}
		n++
	}
	return min(n, maxStates+1)
}

// star compiles sub* (or sub+ when plus): a loop state that enters sub
// or leaves to next, sub returning to the loop.
func (b *builder) star(sub *syntax.Regexp, next int32, plus bool) int32 {
	loop := b.add(nstate{})
	body := b.compile(sub, loop)
	if b.err != nil {
		return 0
	}
	b.states[loop].eps = []int32{body, next}
	if plus {
		return body
	}
	return loop
}

// repeat compiles x{n,m} as n copies of x followed by m-n nested optional
// copies, or by x* when m is unbounded. Simplify rewrites repeats, so
// this only runs on trees built by hand.
func (b *builder) repeat(re *syntax.Regexp, next int32) int32 {
	sub := re.Sub[0]
	if re.Max < 0 {
		next = b.star(sub, next, false)
	} else {
		end := next
		for range re.Max - re.Min {
			next = b.add(nstate{eps: []int32{b.compile(sub, next), end}})
		}
	}
	for range re.Min {
		next = b.compile(sub, next)
	}
	return next
}
