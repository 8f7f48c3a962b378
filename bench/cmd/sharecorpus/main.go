// Command sharecorpus generates and publishes a search corpus
// (bench/searchcorpus) of a given size, for timing `fumibako export` and
// `fumibako import` on a large index (issue 30):
//
//	go run ./bench/cmd/sharecorpus -dir /tmp/sc -mb 200
//	/usr/bin/time -v fumibako --workspace /tmp/sc/ws export 検索 --out /tmp/sc.zip
//	/usr/bin/time -v fumibako --workspace /tmp/ws2 import /tmp/sc.zip
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/fumibako/fumibako/bench/searchcorpus"
)

func main() {
	dir := flag.String("dir", "", "folder of the corpus (emptied first)")
	mb := flag.Int64("mb", 100, "megabytes of extracted text")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "sharecorpus: -dir is required")
		os.Exit(2)
	}
	start := time.Now()
	c, err := searchcorpus.Generate(*dir, searchcorpus.Spec{TextBytes: *mb << 20, Seed: 1})
	if err == nil {
		err = c.Publish()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharecorpus:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d folders, %d MB of text in %s; workspace %s, index %s\n",
		c.Files, c.Folders, c.TextBytes>>20, time.Since(start).Round(time.Second), c.Workspace(), searchcorpus.Index)
}
