#!/bin/sh
# Draws the README's pictures with the current code. From the repository's
# root:
#
#     cargo build --release && sh docs/gallery.sh
#
# The last pictures, the player and the studio, need Chromium (apt-get
# install chromium).
#
# tests/gif_gallery.rs runs every `$ENGINE run` line below and checks that
# the files checked in under docs/ are what the code draws now.
set -e
ENGINE=${ENGINE:-target/release/engine}
$ENGINE run docs/closed-tour.ron -q --gif docs/closed-tour.gif
$ENGINE run docs/holed-search.ron -q --search-gif docs/holed-search.gif
$ENGINE run docs/warnsdorff-repair.ron -q --search-gif docs/warnsdorff-repair.gif
$ENGINE run docs/genetic.ron -q --search-gif docs/genetic.gif
$ENGINE run docs/plain-search.ron -q --search-gif docs/plain-search.gif
# No tour exists: `run` exits 1 after drawing the proof.
$ENGINE run docs/proof.ron -q --search-gif docs/proof.gif || test $? -eq 1
# A word puzzle made from a text (the header of quote.ron names this command).
$ENGINE make --text "Call me Ishmael. Some years ago, never mind how long precisely, having little or" --hint start,lengths --seed 1 -q --force -o docs/quote.ron
# The guide's picture of riders on twisted boards, worked out from coordinates
# (tests/hostile.rs checks the moves it lists against the engine's).
python3 docs/riders.py > docs/riders-twisted.svg
# The player: its page drawn by headless Chromium (a picture, so it is not
# compared byte for byte; the player itself is tested in tests/player.rs).
player() { $ENGINE run "$@"; }
DIR=$(mktemp -d)
player docs/plain-search.ron -q --html "$DIR/player.html"
${CHROMIUM:-chromium} --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$DIR/profile" --hide-scrollbars --window-size=1200,760 \
    --screenshot=docs/player.png "file://$DIR/player.html#step=22" 2>/dev/null
rm -rf "$DIR"
# The studio: a server on a free port, its page with a search run to the end
# drawn by headless Chromium, then the server stopped with Ctrl-C.
DIR=$(mktemp -d)
$ENGINE serve --port 0 --archive "$DIR/archive.sqlite" > "$DIR/serve.out" &
SERVER=$!
sleep 1
URL=$(sed -n 's/.*\(http:[^ ]*\).*/\1/p' "$DIR/serve.out")
${CHROMIUM:-chromium} --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$DIR/profile" --hide-scrollbars --window-size=1280,1340 \
    --virtual-time-budget=10000 \
    --screenshot=docs/studio.png "${URL}#open=holed4x4.ron&run" 2>/dev/null
kill -INT "$SERVER"
wait "$SERVER" || true
rm -rf "$DIR"
