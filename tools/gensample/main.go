// Command gensample writes the demo folder of `make demo`: a few dozen
// Japanese text and Office files with known content.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fumibako/fumibako/internal/testcorpus"
)

func main() {
	n := flag.Int("n", 60, "number of files")
	seed := flag.Int64("seed", 1, "random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gensample [-n N] [-seed S] DIR")
		os.Exit(2)
	}
	files, err := testcorpus.Generate(flag.Arg(0), *n, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensample:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files written to %s\n", len(files), flag.Arg(0))
}
