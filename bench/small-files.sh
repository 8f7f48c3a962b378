#!/bin/sh
# Issue 35's small-file benchmark: one full build from nothing of a
# generated tree, by fumibako and by Recoll, with their CPU (user + sys of
# every process) from /usr/bin/time. Results: bench/small-files.md.
#
#   bench/small-files.sh gen  DIR                     # both trees under DIR (once)
#   bench/small-files.sh fb   BINARY TREE WORKERS WS  # fumibako's build of TREE in workspace WS
#   bench/small-files.sh recoll TREE CONFDIR          # Recoll's build of TREE
#   strace -f -c -o FILE bench/small-files.sh fb ...  # the system calls (divide by the files)
#   bench/small-files.sh office DIR                   # 1,000 small .docx/.xlsx/.pptx under DIR/office
#   bench/small-files.sh table BEFORE AFTER [DIR]     # the whole table (below)
#   bench/small-files.sh pairs BEFORE AFTER N TREE WORKERS  # N A/B pairs under perf stat
#
# TREE is DIR/100mb-20000-25per/tree/files (5,000 files of 4–36 KB),
# DIR/90mb-4500-40per/tree/files (20,000 files of 1–8 KB) or DIR/office
# (1,000 Office files of 1–30 KB of text).
#
# table: for each tree (generated under DIR, default /tmp/sf, when
# missing), 1 and 2 workers, ROUNDS (default 1) pairs of builds by BEFORE
# and AFTER in turn (A B A B: the machine's load hits both alike), then one
# strace -f -c build of each with 2 workers (system calls per file), then
# Recoll's build of the same tree unless NO_RECOLL=1. Markdown on stdout.
#
# pairs: N builds of TREE by BEFORE and AFTER in turn, each after reading
# the tree (the machine's page cache drops files read a minute ago), each
# in a workspace of its own, under perf stat: task-clock (CPU of every
# process, exact where rusage counts ticks), wall (duration_time), context
# switches and system calls. One line per build; compare the pairs'
# ratios, not single runs:
# this machine's speed wanders by 10 % from minute to minute.
#
# Every build of the table goes into a workspace of its own, and the
# workspaces are deleted at the end, not between builds: ext4 without a
# journal (this machine's root) scans past the inodes freed in the last
# 30-60 s each time it creates one, so a build right after deleting the
# last one's workspace paid up to 5 % of the coordinator's CPU in
# recently_deleted() (bench/small-files.md, stop 44). `fb` still empties
# WS first when it exists.
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
office)
	go run ./bench/cmd/officetree -n 1000 "$2/office"
	;;
pairs)
	before=$2 after=$3 n=${4:-6} tree=$5 w=${6:-1}
	[ -n "$tree" ] || { sed -n '2,25p' "$0"; exit 2; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	i=0
	for r in $(seq "$n"); do
		for bin in "$before" "$after"; do
			i=$((i + 1))
			mkdir -p "$tmp/ws$i"
			printf '{"targetFolders":[{"name":"scale","path":"%s"}]}' "$tree" >"$tmp/ws$i/settings.json"
			find "$tree" -type f -exec cat {} + >/dev/null
			perf stat -x, -e task-clock,duration_time,context-switches,raw_syscalls:sys_enter "$bin" --workspace "$tmp/ws$i" index --plain --workers "$w" >/dev/null 2>"$tmp/stat"
			awk -F, -v b="$bin" 'BEGIN { printf "%s", b } { printf " %s=%s", $3, $1 } END { print "" }' "$tmp/stat"
		done
	done
	;;
table)
	before=$2 after=$3 dir=${4:-/tmp/sf}
	[ -n "$before" ] && [ -n "$after" ] || { sed -n '2,25p' "$0"; exit 2; }
	[ -d "$dir/100mb-20000-25per" ] || "$0" gen "$dir" >&2
	[ -d "$dir/office" ] || "$0" office "$dir" >&2
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	ws=0
	trees="5000:$dir/100mb-20000-25per/tree/files 20000:$dir/90mb-4500-40per/tree/files 1000:$dir/office"
	echo '| tree (files) | binary | workers | wall s | user s | sys s | CPU s |'
	echo '|---|---|---|---|---|---|---|'
	for t in $trees; do
		n=${t%%:*} tree=${t#*:}
		for w in 1 2; do
			for r in $(seq "${ROUNDS:-1}"); do
				for b in before after; do
					bin=$before
					[ $b = after ] && bin=$after
					ws=$((ws + 1))
					"$0" fb "$bin" "$tree" "$w" "$tmp/ws$ws" 2>"$tmp/time" || { cat "$tmp/time" >&2; exit 1; }
					tail -1 "$tmp/time" | awk -v n="$n" -v b="$b" -v w="$w" '{printf "| %s | %s | %s | %s | %s | %s | %.2f |\n", n, b, w, $1, $4, $7, $4 + $7}'
				done
			done
		done
	done
	echo
	echo '| tree (files) | binary | fsync | openat | renameat | unlinkat | newfstatat | getdents64 | fcntl | read | write | futex | all |'
	echo '|---|---|---|---|---|---|---|---|---|---|---|---|---|'
	for t in $trees; do
		n=${t%%:*} tree=${t#*:}
		for b in before after; do
			bin=$before
			[ $b = after ] && bin=$after
			ws=$((ws + 1))
			strace -f -c -o "$tmp/strace" "$0" fb "$bin" "$tree" 2 "$tmp/ws$ws" 2>/dev/null
			awk -v n="$n" -v b="$b" '
				$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { c[$NF] = $4; tot += $4 }
				END { printf "| %s | %s", n, b
					split("fsync openat renameat unlinkat newfstatat getdents64 fcntl read write futex", k, " ")
					for (i = 1; i <= 10; i++) printf " | %.1f", c[k[i]] / n
					printf " | %.0f |\n", tot / n }' "$tmp/strace"
		done
	done
	[ -n "$NO_RECOLL" ] && exit 0
	echo
	echo '| tree (files) | Recoll wall s | user s | sys s |'
	echo '|---|---|---|---|'
	for t in $trees; do
		n=${t%%:*} tree=${t#*:}
		"$0" recoll "$tree" "$tmp/rc" 2>"$tmp/time"
		tail -1 "$tmp/time" | awk -v n="$n" '{printf "| %s | %s | %s | %s |\n", n, $1, $4, $7}'
	done
	;;
*)
	sed -n '2,25p' "$0"
	exit 2
	;;
esac
