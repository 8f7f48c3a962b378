package linedfa

import (
	"regexp/syntax"
	"slices"
)

// Matcher is a compiled line prefilter. It is immutable and safe for
// concurrent use; each goroutine scans through its own Scanner.
type Matcher struct {
	states   []nstate
	start    int32 // the entry: the any-byte loop and the pattern
	classes  [256]byte
	stride   int // number of classes: the width of a DFA state's row
	lfClass  byte
	startSet []int32 // the DFA start state: closure of start, sorted
	// stay[c] is 1 when byte c leads from the start state back to it
	// (LF, and bytes no first transition of the pattern takes).
	stay [256]uint8
	// leave is the only byte that leaves the start state, or -1.
	leave int
	// nullable: the pattern matches the empty string, so every line.
	nullable bool
	// needValid: some class holds U+FFFD, which Go's regexp also matches
	// at each invalid UTF-8 byte; lines holding invalid UTF-8 are then
	// reported without asking the DFA.
	needValid bool
}

// Compile builds a line prefilter for a parsed RE2 tree (regexp/syntax,
// Perl flags). LF is removed from its classes: no line holds one. It
// fails (ErrTooLarge) only when the pattern needs more than maxStates NFA
// states, such as \pL{1000}; re is not modified.
func Compile(re *syntax.Regexp) (*Matcher, error) {
	b := &builder{}
	match := b.add(nstate{match: true})
	start := b.add(nstate{})
	loop := b.add(nstate{trans: []btrans{{0, '\n' - 1, start}, {'\n' + 1, 0xFF, start}}})
	re = re.Simplify()
	size := b.size(re)
	if size > maxStates-len(b.states) {
		return nil, ErrTooLarge
	}
	b.states = slices.Grow(b.states, size)
	pat := b.compile(re, match)
	if b.err != nil {
		return nil, b.err
	}
	b.states[start].eps = []int32{loop, pat}
	m := &Matcher{states: b.states, start: start, needValid: b.needValid, leave: -1}
	m.byteClasses()
	var c closer
	c.init(len(m.states))
	m.nullable = c.add(m.states, start)
	m.startSet = slices.Clone(c.sorted())
	leaving := 0
	for v := range 256 {
		m.stay[v] = 1
	}
	for _, id := range m.startSet {
		if id == loop {
			continue
		}
		for _, t := range m.states[id].trans {
			for v := int(t.lo); v <= int(t.hi); v++ {
				if m.stay[v] == 1 {
					m.stay[v] = 0
					leaving++
					m.leave = v
				}
			}
		}
	}
	if leaving != 1 {
		m.leave = -1
	}
	return m, nil
}

// byteClasses splits the 256 byte values into classes that no transition
// tells apart, LF in a class of its own.
func (m *Matcher) byteClasses() {
	var cut [257]bool
	cut['\n'], cut['\n'+1] = true, true
	for _, s := range m.states {
		for _, t := range s.trans {
			cut[t.lo], cut[int(t.hi)+1] = true, true
		}
	}
	cls := -1
	for v := range 256 {
		if v == 0 || cut[v] {
			cls++
		}
		m.classes[v] = byte(cls)
	}
	m.stride = cls + 1
	m.lfClass = m.classes['\n']
}

// closer collects the epsilon closure of NFA states: the states that
// consume a byte, and whether the match state is reached.
type closer struct {
	sparse []int32 // sparse set of visited states
	dense  []int32
	out    []int32 // consuming states, in visit order
	stack  []int32
}

func (c *closer) init(n int) {
	c.sparse = make([]int32, n)
	c.dense = make([]int32, 0, n)
}

func (c *closer) reset() {
	c.dense = c.dense[:0]
	c.out = c.out[:0]
}

// add adds the closure of id and reports whether it reaches the match
// state (then the collection stops: the caller reports a match).
func (c *closer) add(states []nstate, id int32) bool {
	c.stack = append(c.stack[:0], id)
	for len(c.stack) > 0 {
		id := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		if i := c.sparse[id]; int(i) < len(c.dense) && c.dense[i] == id {
			continue
		}
		c.sparse[id] = int32(len(c.dense))
		c.dense = append(c.dense, id)
		s := &states[id]
		if s.match {
			return true
		}
		if len(s.trans) > 0 {
			c.out = append(c.out, id)
		}
		for i := len(s.eps) - 1; i >= 0; i-- {
			c.stack = append(c.stack, s.eps[i])
		}
	}
	return false
}

// sorted returns the consuming states collected, sorted (a DFA state's
// canonical form).
func (c *closer) sorted() []int32 {
	slices.Sort(c.out)
	return c.out
}
