// Command dist builds the release archives (make dist): for each target,
// the executable with its version stamped (-X main.version) and the
// Japanese README (README.ja.txt, made from the repository's README.ja.md
// by readmeText); a zip for Windows, a tar.gz elsewhere, in dist/, named
// fumibako-<version>-<os>-<arch>. The version is v0.N.M from
// `git describe` of a v0.N.M tag, v0.N.M-<n>-g<hash> after it, and
// v0.0.0-<n>-g<hash> when no tag is there (releaseVersion); -print-version
// prints it for the Makefile.
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

var targets = []struct{ goos, goarch string }{
	{"windows", "amd64"}, {"linux", "amd64"}, {"darwin", "arm64"}, {"darwin", "amd64"},
}

func main() {
	version := flag.String("version", "", "version to stamp (default: releaseVersion from git)")
	out := flag.String("out", "dist", "output folder")
	printVersion := flag.Bool("print-version", false, "print the release version and exit")
	flag.Parse()
	if *version == "" {
		v, err := releaseVersion(gitOutput)
		if err != nil {
			fail(err)
		}
		*version = v
	}
	if *printVersion {
		fmt.Println(*version)
		return
	}
	md, err := os.ReadFile("README.ja.md")
	if err != nil {
		fail(err)
	}
	readme := readmeText(string(md))
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	build, err := os.MkdirTemp("", "fumibako-dist")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(build)
	for _, t := range targets {
		exe := "fumibako"
		if t.goos == "windows" {
			exe += ".exe"
		}
		bin := filepath.Join(build, t.goos+"-"+t.goarch, exe)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+*version, "-o", bin, "./cmd/fumibako")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.goos, "GOARCH="+t.goarch)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fail(fmt.Errorf("build %s/%s: %w", t.goos, t.goarch, err))
		}
		dir := fmt.Sprintf("fumibako-%s-%s-%s", *version, t.goos, t.goarch)
		var path string
		if t.goos == "windows" {
			// Notepad of every Windows version reads a BOM and CRLF.
			text := "\ufeff" + strings.ReplaceAll(readme, "\n", "\r\n")
			path, err = writeZip(filepath.Join(*out, dir+".zip"), dir, bin, exe, text)
		} else {
			path, err = writeTarGz(filepath.Join(*out, dir+".tar.gz"), dir, bin, exe, readme)
		}
		if err != nil {
			fail(err)
		}
		st, _ := os.Stat(path)
		fmt.Printf("%s\t%d bytes\n", path, st.Size())
	}
}

func writeZip(path, dir, bin, exe, readme string) (string, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	z := zip.NewWriter(f)
	now := time.Now()
	add := func(name string, mode os.FileMode, r io.Reader) error {
		h := &zip.FileHeader{Name: dir + "/" + name, Method: zip.Deflate, Modified: now}
		h.SetMode(mode)
		w, err := z.CreateHeader(h)
		if err == nil {
			_, err = io.Copy(w, r)
		}
		return err
	}
	b, err := os.Open(bin)
	if err != nil {
		return "", err
	}
	defer b.Close()
	if err := add(exe, 0o755, b); err != nil {
		return "", err
	}
	if err := add("README.ja.txt", 0o644, strings.NewReader(readme)); err != nil {
		return "", err
	}
	return path, z.Close()
}

func writeTarGz(path, dir, bin, exe, readme string) (string, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	now := time.Now()
	data, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	for _, e := range []struct {
		name string
		mode int64
		data []byte
	}{{exe, 0o755, data}, {"README.ja.txt", 0o644, []byte(readme)}} {
		if err := tw.WriteHeader(&tar.Header{Name: dir + "/" + e.name, Mode: e.mode, Size: int64(len(e.data)), ModTime: now, Typeflag: tar.TypeReg}); err != nil {
			return "", err
		}
		if _, err := tw.Write(e.data); err != nil {
			return "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	return path, gz.Close()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "dist:", err)
	os.Exit(1)
}

// gitOutput runs git in the current folder and returns its trimmed output.
func gitOutput(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	return strings.TrimSpace(string(out)), err
}
