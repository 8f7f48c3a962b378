#!/bin/sh
# The coordinator's and its workers' peak anonymous memory during one full
# build (issue 35, bench/small-files.md): RssAnon of /proc/<pid>/status,
# sampled every 0.2 s, the coordinator and its child processes apart.
# Linux only.
#
#   bench/peak-rss.sh BINARY TREE WS   # build TREE from nothing in workspace WS
set -e
[ $# -eq 3 ] || { sed -n '2,8p' "$0"; exit 2; }
bin=$1 tree=$2 ws=$3
rm -rf "$ws"
mkdir -p "$ws"
printf '{"targetFolders":[{"name":"scale","path":"%s"}]}' "$tree" >"$ws/settings.json"
"$bin" --workspace "$ws" index --plain >/dev/null 2>&1 &
pid=$!
coord=0 workers=0
anon() { awk '/RssAnon/ {print $2}' "/proc/$1/status" 2>/dev/null || true; }
while kill -0 "$pid" 2>/dev/null; do
	c=$(anon "$pid")
	[ -n "$c" ] && [ "$c" -gt "$coord" ] && coord=$c
	for w in $(pgrep -P "$pid" || true); do
		x=$(anon "$w")
		[ -n "$x" ] && [ "$x" -gt "$workers" ] && workers=$x
	done
	sleep 0.2
done
wait "$pid" || true
echo "coordinator peak RssAnon ${coord} KB, workers' peak ${workers} KB"
