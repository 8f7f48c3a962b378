// Package linedfa finds the lines of a text that may hold a match of a
// regular expression, at close to memory speed, so that Go's regexp (an
// NFA, and slow on whole blocks) only verifies the lines it reports.
//
// # Why
//
// A regex search with no long required literal has nothing for a byte
// search to find first: Go's regexp then runs FindIndex over every block
// (an NFA simulation, under 100 MB/s), or matches every line holding a
// common literal. A DFA reads each byte once with one table lookup, and
// skips the bytes that cannot start a match with a simpler loop (600 MB/s
// to 2 GB/s, see bench_test.go).
//
// # How
//
// Compile turns the syntax tree (after Simplify) into a byte-level NFA:
//
//   - A rune class (a literal rune, `.`, `[ぁ-ん]`, `\p{Han}`; a case-folded
//     literal as its unicode.SimpleFold orbit) becomes the UTF-8 byte
//     sequences of its scalar values: ranges are split by encoded length
//     and until each byte of the encoding ranges independently (RE2's
//     rune-range compiler, Rust's utf8-ranges). The sequences form a trie
//     whose equal subtrees share states. Surrogates are dropped (valid
//     UTF-8 never encodes them) and so is LF (no line holds it).
//   - Empty-width assertions (^ $ \A \z \b \B) are taken as always true:
//     the matcher may report a line where the pattern does not match, and
//     the caller verifies.
//   - The search is unanchored: an entry state loops on every byte but LF
//     and enters the pattern at every byte. Starting inside a character
//     is harmless in valid UTF-8: every encoding starts with a byte that
//     is never a continuation byte, so such threads die at once.
//
// A Scanner determinizes that NFA lazily: a DFA state is a sorted set of
// NFA states, and its row in one []int32 table (index state*stride +
// byte class; the 256 byte values fall into the classes no transition
// tells apart) holds the next state, "unknown" or "matched". A state's
// id is its row's offset, so the inner loop is one byte-class load, one
// table load and a sign test per byte. LF always leads back to the
// start state; reaching the match state reports the line and the next
// call starts at the next line. From the start state the loop first
// skips the bytes that keep it there (four at a time through a table, or
// bytes.IndexByte when only one byte leaves it). States are added on
// demand until the cache reaches cacheBudget; then all are dropped and
// the scan goes on (RE2's policy): a scan never fails.
//
// # Exactness
//
// Without assertions, on valid UTF-8, a line is reported exactly when
// regexp finds a match in it; a pattern that matches the empty string
// reports every line. Invalid UTF-8: Go's regexp reads each invalid byte
// as U+FFFD, so only a class holding U+FFFD (`.`, negated classes) can
// match there; for such patterns every line holding invalid UTF-8 is
// reported (utf8.Valid over the lines scanned), and other patterns can
// match only valid characters, which the DFA sees as they are.
package linedfa
