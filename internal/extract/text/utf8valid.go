package text

import "encoding/binary"

// validUTF8 is utf8.Valid (rule 5, strict UTF-8: no overlong forms, no
// surrogates, nothing above U+10FFFF), twice as fast on Japanese text
// (BenchmarkValidUTF8): utf8.Valid branches per character on its length,
// and the lengths alternate in Japanese text mixed with ASCII (12 % of
// the worker's CPU on a share of small text files, issue 35). This is a
// shift-based DFA: each byte's row of utf8DFA holds the next state for
// every state, 6 bits each at the state's own bit offset, so a byte costs
// one load that does not wait for the state and one shift that does. Runs
// of 16 ASCII bytes between characters are skipped whole.
func validUTF8(p []byte) bool {
	state := uint64(dfaAccept)
	for len(p) >= 16 {
		if state&63 == dfaAccept && (binary.LittleEndian.Uint64(p)|binary.LittleEndian.Uint64(p[8:]))&0x8080808080808080 == 0 {
			p = p[16:]
			continue
		}
		// Unrolled: the loop's own counting and moves cost as much as
		// the byte's shift.
		q := p[:16]
		state = utf8DFA[q[0]] >> (state & 63)
		state = utf8DFA[q[1]] >> (state & 63)
		state = utf8DFA[q[2]] >> (state & 63)
		state = utf8DFA[q[3]] >> (state & 63)
		state = utf8DFA[q[4]] >> (state & 63)
		state = utf8DFA[q[5]] >> (state & 63)
		state = utf8DFA[q[6]] >> (state & 63)
		state = utf8DFA[q[7]] >> (state & 63)
		state = utf8DFA[q[8]] >> (state & 63)
		state = utf8DFA[q[9]] >> (state & 63)
		state = utf8DFA[q[10]] >> (state & 63)
		state = utf8DFA[q[11]] >> (state & 63)
		state = utf8DFA[q[12]] >> (state & 63)
		state = utf8DFA[q[13]] >> (state & 63)
		state = utf8DFA[q[14]] >> (state & 63)
		state = utf8DFA[q[15]] >> (state & 63)
		if state&63 == dfaError {
			return false
		}
		p = p[16:]
	}
	for _, c := range p {
		state = utf8DFA[c] >> (state & 63)
	}
	return state&63 == dfaAccept
}

// The states of utf8DFA, each its bit offset in a row: dfaAccept between
// characters; dfaError for good (every row maps it to itself); the others
// wait for continuation bytes: dfaTail1..3 for 1..3 of 80–BF, and the
// second bytes whose range a lead byte narrows (E0: A0–BF against
// overlong forms, ED: 80–9F against surrogates, F0: 90–BF against
// overlong forms, F4: 80–8F against code points above U+10FFFF), each
// followed by the rest of its character.
const (
	dfaAccept = 0
	dfaError  = 6
	dfaTail1  = 12
	dfaTail2  = 18
	dfaTail3  = 24
	dfaE0     = 30
	dfaED     = 36
	dfaF0     = 42
	dfaF4     = 48
)

// utf8DFA is the table of validUTF8: row c holds, at each state's bit
// offset, the state after reading byte c in it (the Unicode standard's
// table 3-7 of well-formed UTF-8 byte sequences).
var utf8DFA = func() (t [256]uint64) {
	set := func(from uint64, lo, hi int, to uint64) {
		for c := lo; c <= hi; c++ {
			t[c] &^= 63 << from
			t[c] |= to << from
		}
	}
	for c := range t {
		// Every transition not set below is an error.
		for s := uint64(0); s <= dfaF4; s += 6 {
			t[c] |= dfaError << s
		}
	}
	set(dfaAccept, 0x00, 0x7F, dfaAccept)
	set(dfaAccept, 0xC2, 0xDF, dfaTail1)
	set(dfaAccept, 0xE0, 0xE0, dfaE0)
	set(dfaAccept, 0xE1, 0xEC, dfaTail2)
	set(dfaAccept, 0xED, 0xED, dfaED)
	set(dfaAccept, 0xEE, 0xEF, dfaTail2)
	set(dfaAccept, 0xF0, 0xF0, dfaF0)
	set(dfaAccept, 0xF1, 0xF3, dfaTail3)
	set(dfaAccept, 0xF4, 0xF4, dfaF4)
	set(dfaTail1, 0x80, 0xBF, dfaAccept)
	set(dfaTail2, 0x80, 0xBF, dfaTail1)
	set(dfaTail3, 0x80, 0xBF, dfaTail2)
	set(dfaE0, 0xA0, 0xBF, dfaTail1)
	set(dfaED, 0x80, 0x9F, dfaTail1)
	set(dfaF0, 0x90, 0xBF, dfaTail2)
	set(dfaF4, 0x80, 0x8F, dfaTail2)
	return t
}()
