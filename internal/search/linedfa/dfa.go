package linedfa

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unicode/utf8"
)

// Transition table entries below zero.
const (
	unknown = -1 // not computed yet
	matched = -2 // the byte completes a match: report the line
)

// cacheBudget bounds the memory of a Scanner's DFA states (rows, NFA sets
// and keys); when a new state would exceed it, every state is dropped and
// the scan goes on from the new one (RE2's policy).
const cacheBudget = 4 << 20

// Scanner holds one goroutine's lazily built DFA states (the Matcher is
// shared and immutable). The zero Scanner is not usable: get one from
// Matcher.NewScanner.
type Scanner struct {
	m *Matcher
	// trans holds stride entries per state. A state's id is the offset
	// of its row, so state 0 is always the start state; an entry is the
	// next state's id, unknown or matched.
	trans  []int32
	sets   []int32 // the NFA sets of the states, one after another
	setAt  []int32 // state i's set is sets[setAt[i]:setAt[i+1]]
	index  map[string]int32
	key    []byte
	used   int
	c      closer
	resets int
}

// Resets returns how many times the state cache was dropped to stay
// within its budget.
func (s *Scanner) Resets() int { return s.resets }

// NewScanner returns a Scanner with an empty DFA cache.
func (m *Matcher) NewScanner() *Scanner {
	s := &Scanner{m: m}
	s.c.init(len(m.states))
	s.clear()
	return s
}

// clear drops every state but the start state.
func (s *Scanner) clear() {
	s.trans = s.trans[:0]
	s.sets = s.sets[:0]
	s.setAt = append(s.setAt[:0], 0)
	s.index = make(map[string]int32)
	s.used = 0
	s.setKey(s.m.startSet)
	s.insert(s.m.startSet)
}

// setKey writes the map key of an NFA set into s.key.
func (s *Scanner) setKey(set []int32) {
	s.key = s.key[:0]
	for _, n := range set {
		s.key = binary.LittleEndian.AppendUint32(s.key, uint32(n))
	}
}

// addState returns the id of the state of an NFA set, adding it if new.
// reset reports that the cache was dropped to make room: every id the
// caller held is then stale.
func (s *Scanner) addState(set []int32) (id int32, reset bool) {
	s.setKey(set)
	if id, ok := s.index[string(s.key)]; ok {
		return id, false
	}
	if s.used+s.cost(set) > cacheBudget {
		s.resets++
		set = slices.Clone(set)
		s.clear()
		s.setKey(set)
		if id, ok := s.index[string(s.key)]; ok {
			return id, true // the start state
		}
		reset = true
	}
	return s.insert(set), reset
}

// cost is the memory a state of set takes: its row, its set and its key.
func (s *Scanner) cost(set []int32) int {
	return s.m.stride*4 + len(set)*8 + 64
}

// insert adds the state of set, whose key is in s.key, and returns its id.
func (s *Scanner) insert(set []int32) int32 {
	s.used += s.cost(set)
	id := int32(len(s.trans))
	for range s.m.stride {
		s.trans = append(s.trans, unknown)
	}
	s.trans[int(id)+int(s.m.lfClass)] = 0 // LF ends the line: back to start
	s.sets = append(s.sets, set...)
	s.setAt = append(s.setAt, int32(len(s.sets)))
	s.index[string(s.key)] = id
	return id
}

// step computes, stores and returns the transition of state id on byte c.
func (s *Scanner) step(id int32, c byte) int32 {
	m := s.m
	i := int(id) / m.stride
	s.c.reset()
	for _, n := range s.sets[s.setAt[i]:s.setAt[i+1]] {
		for _, t := range m.states[n].trans {
			if t.lo <= c && c <= t.hi && s.c.add(m.states, t.next) {
				s.trans[int(id)+int(m.classes[c])] = matched
				return matched
			}
		}
	}
	next, reset := s.addState(s.c.sorted())
	if !reset {
		s.trans[int(id)+int(m.classes[c])] = next
	}
	return next
}

// NextLine returns the start offset of the first line of text at or after
// from (a line start) that may contain a match; ok=false when none. Lines
// end at LF (the last line may lack it); a line starts before len(text).
func (s *Scanner) NextLine(text []byte, from int) (start int, ok bool) {
	from = max(from, 0)
	if from >= len(text) {
		return 0, false
	}
	m := s.m
	if m.nullable {
		return from, true
	}
	end := len(text)
	if i := s.scan(text, from); i < len(text) {
		start = from + bytes.LastIndexByte(text[from:i], '\n') + 1
		end, ok = start, true
	}
	if m.needValid && !utf8.Valid(text[from:end]) {
		return firstInvalid(text, from), true
	}
	return start, ok
}

// scan runs the DFA from the start state at text[i] and returns the
// offset of the byte that completes a match, or len(text).
func (s *Scanner) scan(text []byte, i int) int {
	m := s.m
	cls := &m.classes
	stay := &m.stay
	trans := s.trans
	n := len(text)
	for {
		// The start state: skip the bytes that keep it.
		if m.leave >= 0 {
			j := bytes.IndexByte(text[i:], byte(m.leave))
			if j < 0 {
				return n
			}
			i += j
		} else {
			for ; i+4 <= n; i += 4 {
				w := text[i : i+4 : i+4]
				if stay[w[0]]&stay[w[1]]&stay[w[2]]&stay[w[3]] == 0 {
					break
				}
			}
			for i < n && stay[text[i]] != 0 {
				i++
			}
			if i >= n {
				return n
			}
		}
		// Other states: one lookup per byte until the start state again.
		st := int32(0)
		for i < n {
			c := text[i]
			next := trans[int(st)+int(cls[c])]
			i++
			if next <= 0 {
				if next == 0 {
					break
				}
				if next == matched {
					return i - 1
				}
				if next = s.step(st, c); next == matched {
					return i - 1
				}
				trans = s.trans
				if next == 0 {
					break
				}
			}
			st = next
		}
		if i >= n {
			return n
		}
	}
}

// firstInvalid returns the start of the first line at or after from that
// holds invalid UTF-8 (there is one).
func firstInvalid(text []byte, from int) int {
	for from < len(text) {
		end := bytes.IndexByte(text[from:], '\n')
		if end < 0 {
			break
		}
		if !utf8.Valid(text[from : from+end]) {
			return from
		}
		from += end + 1
	}
	return from
}
