package textfold

import "slices"

// VariantSource names the data of the kanji variant table (tools/genvariants).
const VariantSource = variantSource

// variantBMP tells, for each rune of U+3400–U+FAFF, whether it has an
// entry in variantPairs: one bit test keeps the common kanji, which have
// none, off the binary search. (Made at start: 1,400 pairs, a few µs.)
var variantBMP = func() *[(0xFB00 - 0x3400 + 63) / 64]uint64 {
	var bits [(0xFB00 - 0x3400 + 63) / 64]uint64
	for _, p := range variantPairs {
		if p[0] >= 0x3400 && p[0] < 0xFB00 {
			o := p[0] - 0x3400
			bits[o/64] |= 1 << (o % 64)
		}
	}
	return &bits
}()

// variant folds an old or variant kanji to its common form (髙 → 高,
// 國 → 国, 神 U+FA19 → 神); other runes are returned as they are.
func variant(r rune) rune {
	if r < 0x3400 {
		return r
	}
	if r < 0xFB00 {
		o := r - 0x3400
		if variantBMP[o/64]&(1<<(o%64)) == 0 {
			return r
		}
	} else if r < 0x20000 {
		return r
	}
	if i, ok := slices.BinarySearchFunc(variantPairs[:], r, func(p [2]rune, t rune) int { return int(p[0] - t) }); ok {
		return variantPairs[i][1]
	}
	return r
}
