#!/bin/sh
# What watching a search in the studio costs it, and what the studio
# streams: the same search (the textbook search from d4 of 8x8, stopped by
# a node limit) run by `engine run` and by `engine serve` (streamed to a
# client that reads it all), alternating, ROUNDS times each. Each round
# prints both searches' own times from their reports, their ratio, and
# what the stream carried: the search events its samples stand for, per
# second of the search, the steps sent one by one at the start, the
# samples after them and the bytes sent.
# Usage: sh benches/serve.sh [ENGINE] [ROUNDS] [NODES]
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
    curl -s -N "${url}api/runs/$id/events" > "$dir/stream"
    studio=$(grep '^event: report' -A1 "$dir/stream" |
        sed -n 's/.*· time: \([^ \\]*\).*/\1/p')
    # The live part of the stream: its `samples` events, before the report.
    sed '/^event: report/q' "$dir/stream" > "$dir/live"
    events=$(grep -o '"events":[0-9]*' "$dir/live" | tail -1 | sed 's/.*://')
    samples=$(grep -o '"s":false' "$dir/live" | wc -l)
    steps=$(grep -o '"s":true' "$dir/live" | wc -l)
    bytes=$(wc -c < "$dir/live")
    awk -v i="$i" -v cli="$cli" -v studio="$studio" -v ev="$events" \
        -v n="$samples" -v k="$steps" -v b="$bytes" 'BEGIN {
        printf "round %d: run %s s, studio %s s (%.3fx); streamed %d events, %.1f million a second, as %d steps and %d samples (%.1f a second), %.1f KB a second\n",
            i, cli, studio, studio / cli, ev, ev / studio / 1e6, k, n, n / studio, b / studio / 1e3 }'
done
