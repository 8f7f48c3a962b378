#!/bin/sh
# Issue 35's small-file benchmark: one full build from nothing of a
# generated tree, by fumibako and by Recoll, with their CPU (user + sys of
# every process) from /usr/bin/time. Results: bench/small-files.md.
#
#   bench/small-files.sh gen  DIR                     # both trees under DIR (once)
#   bench/small-files.sh fb   BINARY TREE WORKERS WS  # fumibako's build of TREE in workspace WS
#   bench/small-files.sh recoll TREE CONFDIR          # Recoll's build of TREE
#   strace -f -c -o FILE bench/small-files.sh fb ...  # the system calls (divide by the files)
#
# TREE is DIR/100mb-20000-25per/tree/files (5,000 files of 4–36 KB) or
# DIR/90mb-4500-40per/tree/files (20,000 files of 1–8 KB).
set -e
case "$1" in
gen)
	go run ./bench/cmd/scale -dir "$2" -size 100MB -file-bytes 20KB -per-folder 25 -gen-only
	go run ./bench/cmd/scale -dir "$2" -size 90MB -file-bytes 4500 -per-folder 40 -gen-only
	;;
fb)
	rm -rf "$5"
	mkdir -p "$5"
	printf '{"targetFolders":[{"name":"scale","path":"%s"}]}' "$3" >"$5/settings.json"
	/usr/bin/time -f '%e s wall  %U s user  %S s sys' "$2" --workspace "$5" index --plain --workers "$4" >/dev/null
	;;
recoll)
	rm -rf "$3"
	mkdir -p "$3"
	printf 'topdirs = %s\nloglevel = 1\n' "$2" >"$3/recoll.conf"
	printf '[index]\n.tsv = text/plain\n.log = text/plain\n.md = text/plain\n.txt = text/plain\n' >"$3/mimemap"
	# Recoll's own output is dropped, time's figures are kept.
	/usr/bin/time -f '%e s wall  %U s user  %S s sys' sh -c 'exec recollindex -c "$0" -z >/dev/null 2>&1' "$3"
	;;
*)
	sed -n '2,14p' "$0"
	exit 2
	;;
esac
