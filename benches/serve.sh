#!/bin/sh
# What watching a search in the studio costs it: the same search (the
# textbook search from d4 of 8x8, stopped by a node limit) run by
# `engine run` and by `engine serve` (streamed to a client that reads it
# all), alternating, ROUNDS times each; each prints the search's own time
# from its report. Usage: sh benches/serve.sh [ENGINE] [ROUNDS] [NODES]
set -eu
engine=${1:-target/release/engine}
rounds=${2:-5}
nodes=${3:-200000000}
dir=$(mktemp -d)
trap 'kill -INT "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
puzzle="Puzzle(board: \"8x8\", piece: \"knight\", start: \"d4\", solver: Backtrack(order: Given, node_limit: $nodes))"
printf '%s\n' "$puzzle" > "$dir/p.ron"
"$engine" serve --port 0 --time-limit 600 > "$dir/serve.out" &
pid=$!
sleep 1
url=$(sed -n 's/.*\(http:[^ ]*\).*/\1/p' "$dir/serve.out")
ask=$(printf '%s' "$puzzle" | sed 's/"/\\"/g')
for i in $(seq "$rounds"); do
    cli=$("$engine" run "$dir/p.ron" -q | sed -n 's/.*· time: \([^ ]*\).*/\1/p')
    id=$(curl -s -X POST -H 'Content-Type: application/json' \
        --data "{\"text\": \"$ask\"}" "${url}api/runs" | sed 's/[^0-9]//g')
    studio=$(curl -s -N "${url}api/runs/$id/events" | grep '^event: report' -A1 |
        sed -n 's/.*· time: \([^ \\]*\).*/\1/p')
    echo "round $i: run $cli, studio $studio"
done
