# fumibako — see README.md. Every target works on a fresh Debian machine
# with Go; `make setup` installs the Debian packages the tests and legacy
# formats need.
GO ?= go
BIN := bin/fumibako
# The release version: v0.N.M from a v0.N.M tag (git describe), with
# -<n>-g<hash> after it, v0.0.0-<n>-g<hash> without one (tools/dist).
VERSION ?= $(shell $(GO) run ./tools/dist -print-version 2>/dev/null || echo v0.0.0-dev)

.PHONY: build demo test race check setup cross bench clean dist test-windows setup-windows

# CGO_ENABLED=0: a static binary starts faster (no dynamic loader, no
# libc threads), which a search pays on every call; nothing needs cgo.
# The version (fumibako version) is stamped from git.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/fumibako

# dist: dist/fumibako-<version>-windows-amd64.zip and the Linux and macOS
# archives, each with the executable and README.ja.txt made from
# README.ja.md (tools/dist).
dist:
	$(GO) run ./tools/dist -version $(VERSION) -out dist

# test-windows: the Windows build's tests under Wine (tools/winelane.sh);
# setup-windows installs Wine and mingw-w64 for it.
test-windows:
	tools/winelane.sh

setup-windows:
	sudo=$$(command -v sudo || true); \
	for i in 1 2 3 4 5 6 7 8 9 10; do \
		$$sudo apt-get install -y --no-install-recommends wine64 gcc-mingw-w64-x86-64-win32 && exit 0; \
		echo "apt-get busy, retrying"; sleep 30; \
	done; exit 1

# demo: build, generate a sample folder, index it, search it.
demo: build
	rm -rf demo
	$(GO) run ./tools/gensample -n 60 demo/sample
	$(BIN) --workspace demo/ws folder add demo/sample --name サンプル
	$(BIN) --workspace demo/ws index --plain
	$(BIN) --workspace demo/ws status
	$(BIN) --workspace demo/ws search 見積

# test: every test of the module (the command CI runs), then the race run.
test:
	$(GO) test -timeout 30m ./...
	$(MAKE) race

# race: the packages with goroutines or state shared between them again
# under the race detector (it needs cgo: Debian's gcc, see setup), the web
# server's load test (TestLoad) among them. cmd/fumibako is left out: its
# tests run the fumibako binary, which is built without the detector.
RACE_PKGS := ./internal/web/... ./internal/indexer/ ./internal/worker/ ./internal/search/... \
	./internal/bodyindex/... ./internal/extract/ ./internal/workspace/ ./internal/journal/ ./internal/watch/ ./internal/content/
race:
	CGO_ENABLED=1 $(GO) test -race -timeout 30m $(RACE_PKGS)

# check: what CI checks besides the tests.
check:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	$(MAKE) cross

cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./...

# setup: Debian packages for legacy formats (LibreOffice, and python3-uno
# for the LibreOffice the worker keeps warm), the search
# benchmark anchor (ripgrep), the browser tests (Chromium), the race
# detector (gcc: `go test -race` needs cgo) and OCR (issue 29: Tesseract
# with Japanese, vertical Japanese, English and orientation data; the scan
# corpus is drawn with IPA Gothic).
setup:
	sudo=$$(command -v sudo || true); \
	$$sudo apt-get update && $$sudo apt-get install -y --no-install-recommends \
		libreoffice-core-nogui libreoffice-calc-nogui libreoffice-writer-nogui libreoffice-impress-nogui python3-uno \
		ripgrep poppler-utils qpdf chromium fonts-noto-cjk fonts-dejavu-core fonts-ipafont-gothic gcc libc6-dev \
		tesseract-ocr tesseract-ocr-jpn tesseract-ocr-jpn-vert tesseract-ocr-eng tesseract-ocr-osd

bench:
	$(GO) run ./bench/cmd/bench

clean:
	rm -rf bin demo dist build
