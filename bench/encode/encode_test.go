// Package encode measures the body index's encoder on small files (issue
// 35): the publish of a folder of 25 files of ~20 KB of generated
// Japanese/English text (bench/searchcorpus), which is most of the
// coordinator's CPU in a build of many small files.
//
//	go test ./bench/encode -bench . -benchtime 20x -count 5
//
// The parts are encoded and hashed as a publish does, not written.
package encode

import (
	"testing"

	"github.com/fumibako/fumibako/bench/searchcorpus"
	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/extract"
)

// folders is the benchmark's input: 8 folders of 25 files of ~20 KB.
func folders() [][]format.FileText {
	files := searchcorpus.SampleFiles(35, 200, 20000)
	var out [][]format.FileText
	for i := 0; i < len(files); i += 25 {
		var texts []format.FileText
		for j, places := range files[i:min(i+25, len(files))] {
			texts = append(texts, format.FileText{Name: "f" + string(rune('a'+j)) + ".txt", Index: j, Places: places})
		}
		out = append(out, texts)
	}
	return out
}

func textBytes(fs [][]format.FileText) int64 {
	n := int64(0)
	for _, texts := range fs {
		for _, t := range texts {
			n += placesBytes(t.Places)
		}
	}
	return n
}

func placesBytes(places []extract.Place) int64 {
	n := int64(0)
	for _, p := range places {
		for _, l := range p.Lines {
			n += int64(len(l)) + 1
		}
	}
	return n
}

// BenchmarkEncode encodes each folder as one publish does: a new encoder
// per folder, a chunk of files per Encode call, every part's bytes taken.
func BenchmarkEncode(b *testing.B) {
	fs := folders()
	b.SetBytes(textBytes(fs))
	b.ReportAllocs()
	parts := 0
	for b.Loop() {
		for _, texts := range fs {
			enc := format.NewEncoder(func(p format.BuiltPart) error {
				parts++
				return nil
			})
			for k := 0; k < len(texts); k += 5 {
				enc.Encode(texts[k:min(k+5, len(texts))])
			}
			enc.Release()
			if enc.Err != nil {
				b.Fatal(enc.Err)
			}
		}
	}
	b.ReportMetric(float64(len(fs)*25*b.N)/b.Elapsed().Seconds(), "files/s")
}
