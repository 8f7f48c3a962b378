package libreoffice

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkLegacyConvert measures LibreOffice's cost per file when every
// file gets its own soffice process (with a warm or a fresh profile) and
// when one soffice converts a batch (ConvertBatch). Run with
// -benchtime=1x: one iteration converts benchFiles files.
func BenchmarkLegacyConvert(b *testing.B) {
	soffice := lgNeedSoffice(b)
	root := b.TempDir()
	fx := lgFixtures(b, soffice, root)
	const benchFiles = 8
	for _, ext := range []string{".doc", ".xls"} {
		target := target[ext]
		var files []string
		src, err := os.ReadFile(fx[ext].path)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < benchFiles; i++ {
			p := filepath.Join(root, "in"+ext[1:], strconv.Itoa(i)+ext)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, src, 0o644); err != nil {
				b.Fatal(err)
			}
			files = append(files, p)
		}
		scratch := filepath.Join(root, "scratch"+ext[1:])
		os.MkdirAll(scratch, 0o755)
		ctx := context.Background()
		// Warm the profile once, outside the timings.
		if _, err := ConvertBatch(ctx, soffice, files[:1], target, scratch); err != nil {
			b.Fatal(err)
		}
		perFile := func(b *testing.B, start time.Time) {
			b.ReportMetric(time.Since(start).Seconds()/float64(b.N*benchFiles), "s/file")
		}
		b.Run(ext[1:]+"/single", func(b *testing.B) {
			start := time.Now()
			for range b.N {
				for _, f := range files {
					got, err := ConvertBatch(ctx, soffice, []string{f}, target, scratch)
					if err != nil || len(got) != 1 {
						b.Fatalf("convert %s: %v %v", f, got, err)
					}
				}
			}
			perFile(b, start)
		})
		b.Run(ext[1:]+"/single-fresh-profile", func(b *testing.B) {
			start := time.Now()
			for i := range b.N {
				for j, f := range files {
					s := filepath.Join(root, "fresh", strconv.Itoa(i), strconv.Itoa(j))
					os.MkdirAll(s, 0o755)
					got, err := ConvertBatch(ctx, soffice, []string{f}, target, s)
					if err != nil || len(got) != 1 {
						b.Fatalf("convert %s: %v %v", f, got, err)
					}
				}
			}
			perFile(b, start)
		})
		b.Run(ext[1:]+"/batch", func(b *testing.B) {
			start := time.Now()
			for range b.N {
				got, err := ConvertBatch(ctx, soffice, files, target, scratch)
				if err != nil || len(got) != len(files) {
					b.Fatalf("convert batch: %v %v", got, err)
				}
			}
			perFile(b, start)
		})
	}
}
