package searchcorpus

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a corpus size as the bench commands take it: a number
// with an optional GB, MB or KB suffix (decimal units, any case), e.g.
// "1GB", "100mb", "0.5GB". Negative sizes are refused.
func ParseSize(s string) (int64, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, x := range []struct {
		suf string
		m   int64
	}{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}} {
		if strings.HasSuffix(u, x.suf) {
			mult, u = x.m, strings.TrimSuffix(u, x.suf)
			break
		}
	}
	n, err := strconv.ParseFloat(u, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(n * float64(mult)), nil
}
