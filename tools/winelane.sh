#!/usr/bin/env bash
# The Windows test lane (make test-windows): builds the Windows test
# binaries of the packages with OS-specific code and runs them under
# Debian's Wine 8, then the end-to-end index/kill/resume/search run. Needs
# wine64 and gcc-mingw-w64-x86-64 (make setup-windows). Wine's gaps and
# their workarounds:
#   - Go 1.22+ needs ProcessPrng from bcryptprimitives.dll, which Wine 8
#     lacks: tools/wineprng builds a replacement with mingw-w64;
#   - FileDispositionInformationEx answers "invalid function", breaking
#     os.RemoveAll: the test binaries are built with an overlay that makes
#     Go take its documented fallback (tools/wineprng/overlay_deleteat.go.txt);
#   - no taskkill /T, no tty Ctrl-C: the product uses neither (Job Objects,
#     TerminateProcess), so nothing to work around.
# What Wine cannot show is said by the tests that skip (listed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
GO=${GO:-go}
out=${WINELANE_DIR:-$PWD/build/winelane}
rm -rf "$out/bin" && mkdir -p "$out/bin"
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
[ -x "$wine" ] || { echo "winelane: wine64 not installed (make setup-windows)"; exit 1; }
export WINEPREFIX="$out/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="

# The ProcessPrng DLL, in the prefix's system32.
x86_64-w64-mingw32-gcc -O2 -shared -s -o "$out/bin/bcryptprimitives.dll" \
	tools/wineprng/bcryptprimitives.c tools/wineprng/bcryptprimitives.def -ladvapi32
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver64)
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
	"$wine" wineboot -i >/dev/null 2>&1 || true
	"$wineserver" -w || true
fi
cp "$out/bin/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

goroot=$($GO env GOROOT)
printf '{"Replace":{"%s/src/internal/syscall/windows/zz_winelane_deleteat.go":"%s/tools/wineprng/overlay_deleteat.go.txt"}}\n' \
	"$goroot" "$PWD" >"$out/overlay.json"
build() { GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO "$1" -overlay "$out/overlay.json" "${@:2}"; }

pkgs="workspace crawl worker bodyindex bodyindex/format bodyindex/summary content indexer source share desktop"
# Packages whose suites lean on Linux fakes (shell scripts, /proc) or on
# LibreOffice, Tesseract or Chromium: only their Windows tests run, by
# name (web: the folder picker over the drives, GetLogicalDrives).
focused="web:^TestDirsAPI$ extract:^TestExtractRefusesNonRegularWindows$ extract/libreoffice:^TestFindWarmPartsWindows$ ocr:^TestFindTesseractWindows$ search:^TestIssue31(FullPath|SourcePath)$"
exe() { echo "$out/bin/${1//\//_}.test.exe"; } # extract/libreoffice → extract_libreoffice.test.exe
for p in $pkgs; do
	build test -c -o "$(exe "$p")" "./internal/$p"
done
for f in $focused; do
	build test -c -o "$(exe "${f%%:*}")" "./internal/${f%%:*}"
done
build test -c -o "$out/bin/e2e.test.exe" ./cmd/fumibako
build build -tags testhooks -o "$out/bin/fumibako.exe" ./cmd/fumibako
echo "winelane: built in $(($(date +%s) - start)) s"

fail=0
log="$out/results.txt"
: >"$log"
run() { # name dir exe args...
	local name=$1 dir=$2
	shift 2
	echo "== $name" | tee -a "$log"
	local ok=0
	(cd "$dir" && timeout 900 "$wine" "$@") >"$out/$name.log" 2>&1 && ok=1
	# Wine's client can lose the wineserver while the previous binary's
	# server exits ("wine client error: ... Connection reset by peer")
	# before the test binary runs at all: that is Wine's, not a test's, so
	# the binary is started once more.
	if [ $ok = 0 ] && grep -q '^wine client error' "$out/$name.log" && ! grep -q '^=== RUN' "$out/$name.log"; then
		echo "   (Wine lost its server before the tests started: again)" | tee -a "$log"
		"$wineserver" -w 2>/dev/null || true
		(cd "$dir" && timeout 900 "$wine" "$@") >"$out/$name.log" 2>&1 && ok=1
	fi
	if [ $ok = 1 ]; then
		echo "   ok" | tee -a "$log"
	else
		echo "   FAILED (log: $out/$name.log)" | tee -a "$log"
		tail -40 "$out/$name.log"
		fail=1
	fi
	# Top-level tests with their outcome; a skip with its reason (the line
	# -test.v prints before it), which says what Wine cannot show.
	awk '/^--- (PASS|FAIL|SKIP)/ { print "   " $0; if ($2 == "SKIP:") print "      (" prev ")" } { if ($0 !~ /^(===|---)/) prev = $0; sub(/^ +/, "", prev) }' \
		"$out/$name.log" >>"$log" || true
}
for p in $pkgs; do
	run "${p//\//_}" "internal/$p" "$(exe "$p")" -test.v -test.timeout 10m
done
for f in $focused; do
	p=${f%%:*}
	run "${p//\//_}" "internal/$p" "$(exe "$p")" -test.v -test.timeout 10m -test.run "${f#*:}"
done
FUMIBAKO_E2E_BINARY="Z:$(echo "$out/bin/fumibako.exe" | tr / '\\')" \
	run e2e cmd/fumibako "$out/bin/e2e.test.exe" -test.v -test.timeout 10m \
	-test.run '^(TestPortableCorpusKillResume|TestIssue36KilledCoordinatorLeavesNoWorker|TestIndexEndToEnd|TestSecondRunGetsLockMessage|TestIssue14IngestListHeldOpen|TestSummaryHeldOpenDuringIndex|TestIssue36SettingsRace|TestFolderAddMissing|TestFolderRemoveLast|TestFolderMove|TestSourceReceivedIndex|TestExportImportEndToEnd|TestImportRefusals|TestImportNameClash|TestExportRefusals|TestSharedIndexOpensWhereItsFilesLive|TestOpenMode|TestOCRMissingThenInstalled|TestOCRCacheSurvivesRename|TestOCRImagesSwitch|TestOCRDeadline|TestIssue31SearchOrderDatesPaths|TestIssue31ExportFormats)$'

echo
echo "winelane: tests run under Wine (in $(($(date +%s) - start)) s):"
cat "$log"
echo "winelane: $(grep -c -- '^   --- PASS' "$log") passed, $(grep -c -- '^   --- SKIP' "$log") skipped, $(grep -c -- '^   --- FAIL' "$log") failed in $(($(date +%s) - start)) s"
exit $fail
