#!/bin/sh
# same-extraction.sh BEFORE AFTER DIR: index DIR with two fumibako
# binaries and compare what they made of it: each file's outcome (the
# run log's line for it) and every line of every place (search --regex .
# --case, all hits as JSON, sorted). For changes that must not change
# what is extracted, such as a faster parser (stop 46: xmlscan).
# Prints the counts and "same" or the first differences; exit 1 if any.
set -eu
before=$1 after=$2 dir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for side in before after; do
	eval bin=\$$side
	mkdir -p "$tmp/$side"
	printf '{"targetFolders":[{"name":"same","path":"%s"}]}' "$dir" >"$tmp/$side/settings.json"
	"$bin" --workspace "$tmp/$side" index --plain --workers 2 >"$tmp/$side.log" 2>&1 || true
	# file -> its result lines, without timings (the order of a run with
	# two workers varies)
	# (the run's closing list of failed files is not a file's lines)
	awk '/^\[[0-9]+\/[0-9]+\] / { sub(/^\[[0-9]+\/[0-9]+\] /, ""); f = $0; next }
		!/^    / { f = ""; next }
		f != "" { gsub(/[0-9.]+ ?(s|秒)/, ""); print f " |" $0 }' "$tmp/$side.log" | sort >"$tmp/$side.files"
	"$bin" --workspace "$tmp/$side" search --regex --case --max 0 --json --no-names -- '.' 2>/dev/null | sort >"$tmp/$side.lines" || true
	echo "$side: $(cut -d'|' -f1 "$tmp/$side.files" | sort -u | wc -l) files, $(wc -l <"$tmp/$side.lines") lines"
done
status=0
for what in files lines; do
	if ! cmp -s "$tmp/before.$what" "$tmp/after.$what"; then
		echo "$what differ:"
		diff "$tmp/before.$what" "$tmp/after.$what" | head -20
		status=1
	fi
done
[ $status = 0 ] && echo same
exit $status
