#!/usr/bin/env python3
"""Draws docs/riders-twisted.svg, the guide's picture of a rider on twisted
boards (docs/src/boards.md). From the repository's root:

    python3 docs/riders.py > docs/riders-twisted.svg

Each panel shows the plane a board is folded from: the board itself
(shaded) and its copies beyond the seams, each square named, copies
across an odd number of twisted seams mirrored. A ride is a straight line
in that plane: it goes over its own square when it meets it heading
another way, and ends at the edge, or when it is back on its own square
heading the way it set out. The rule is worked out here from coordinates;
tests/hostile.rs checks that the squares each panel lists (`data-moves`)
are the engine's, in order.
"""

from xml.sax.saxutils import escape

CELL = 34
INK = "#1e2430"
GREY = "#8a8a96"
BOARD = "#eee9da"
MIRROR = "#e4e9f2"
RAY = "#d63384"
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def name(x, y):
    return "abcdefghijklmnopqrstuvwxyz"[x] + str(y + 1)


def land(w, h, topology, x, y):
    """The cell of the plane's point (x, y) and whether it is mirrored;
    None off the board."""
    mirrored = False
    if topology == "mobius":
        if (x // w) % 2:
            y, mirrored = h - 1 - y, True
        x %= w
    elif topology == "klein":
        if (y // h) % 2:
            x, mirrored = w - 1 - x, True
        x, y = x % w, y % h
    if 0 <= x < w and 0 <= y < h:
        return (x, y), mirrored
    return None


def ride(w, h, topology, start, step):
    """The ride's points in the plane, each with its cell and what became
    of it: 'move', 'over' (its own square, heading another way) or 'end'
    (its own square, heading as it set out); and whether it left the board."""
    dx, dy = step
    x, y = start
    points = []
    while True:
        x, y = x + dx, y + dy
        landed = land(w, h, topology, x, y)
        if landed is None:
            return points, True
        cell, mirrored = landed
        turned = (topology == "mobius" and dy != 0) or (topology == "klein" and dx != 0)
        if cell == start:
            kind = "over" if mirrored and turned else "end"
        else:
            kind = "move"
        points.append(((x, y), cell, kind))
        if kind == "end":
            return points, False


def heading(step, mirrored, topology):
    dx, dy = step
    if mirrored and topology == "mobius":
        dy = -dy
    if mirrored and topology == "klein":
        dx = -dx
    return {(1, 1): "up-right", (1, -1): "down-right", (-1, 1): "up-left",
            (-1, -1): "down-left"}.get((dx, dy), f"({dx},{dy})")


def panel(out, left, top, w, h, topology, start, step, piece):
    """Draws one panel with its top-left corner at (left, top); its width
    and height."""
    points, left_board = ride(w, h, topology, start, step)
    xs = [start[0]] + [p[0][0] for p in points]
    ys = [start[1]] + [p[0][1] for p in points]
    # The copies of the board the ride passes, and the board itself.
    kx = range(min(x // w for x in xs), max(x // w for x in xs) + 1)
    ky = range(min(y // h for y in ys), max(y // h for y in ys) + 1)
    if topology == "mobius":
        ky = range(0, 1)
    x0, y1 = kx[0] * w, (ky[-1] + 1) * h
    cols, rows = len(kx) * w, len(ky) * h
    # An edge the ride leaves by gets a margin to show the step off it.
    margin = CELL if left_board else 0
    ox, oy = left + 10, top + 34 + margin

    def px(x, y):
        return ox + (x - x0) * CELL + CELL // 2, oy + (y1 - 1 - y) * CELL + CELL // 2

    title = f"{piece} from {name(*start)} on {w}x{h} {topology}"
    out.append(f'<text x="{left + 10}" y="{top + 20}" font-size="15" fill="{INK}" '
               f'font-weight="bold">{escape(title)}</text>')
    for j in ky:
        for i in kx:
            bx, by = ox + (i * w - x0) * CELL, oy + (y1 - (j + 1) * h) * CELL
            home = (i, j) == (0, 0)
            mirrored = land(w, h, topology, i * w, j * h)[1]
            fill = BOARD if home else (MIRROR if mirrored else "#ffffff")
            line = 'stroke-width="2.5"' if home else 'stroke-width="1.2" stroke-dasharray="5 3"'
            out.append(f'<rect x="{bx}" y="{by}" width="{w * CELL}" height="{h * CELL}" '
                       f'fill="{fill}" stroke="{INK}" {line}/>')
            for y in range(j * h, (j + 1) * h):
                for x in range(i * w, (i + 1) * w):
                    cx, cy = px(x, y)
                    cell, _ = land(w, h, topology, x, y)
                    out.append(f'<rect x="{cx - CELL // 2}" y="{cy - CELL // 2}" width="{CELL}" '
                               f'height="{CELL}" fill="none" stroke="{GREY}" stroke-width="0.5"/>')
                    out.append(f'<text x="{cx - CELL // 2 + 3}" y="{cy - CELL // 2 + 11}" '
                               f'font-size="9" fill="{GREY}">{name(*cell)}</text>')
    # The ride: a straight line, a dot and its step number on each square.
    sx, sy = px(*start)
    last = points[-1][0] if points else start
    ex, ey = px(*last)
    if left_board:
        ex, ey = px(last[0] + step[0] / 2, last[1] + step[1] / 2)
    out.append(f'<line x1="{sx}" y1="{sy}" x2="{ex}" y2="{ey}" stroke="{RAY}" stroke-width="2.5"/>')
    if left_board:
        out.append(f'<text x="{ex + 4}" y="{ey + (-4 if step[1] > 0 else 12)}" font-size="11" '
                   f'fill="{INK}">edge</text>')
    out.append(f'<circle cx="{sx}" cy="{sy}" r="7" fill="{INK}"/>')
    for k, ((x, y), cell, kind) in enumerate(points, 1):
        cx, cy = px(x, y)
        if kind == "move":
            out.append(f'<circle cx="{cx}" cy="{cy}" r="5" fill="{RAY}"/>')
        else:
            out.append(f'<circle cx="{cx}" cy="{cy}" r="7" fill="none" stroke="{INK}" '
                       f'stroke-width="2.5"/>')
        out.append(f'<text x="{cx + 7}" y="{cy + 14}" font-size="12" font-weight="bold" '
                   f'fill="{INK}">{k}</text>')
    # What each step did, under the panel.
    ty = oy + rows * CELL + margin + 22
    lines = []
    for k, ((x, y), cell, kind) in enumerate(points, 1):
        way = heading(step, land(w, h, topology, x, y)[1], topology)
        if kind == "move":
            lines.append(f"{k}: {name(*cell)}")
        elif kind == "over":
            lines.append(f"{k}: {name(*cell)}, its own square heading {way}: it goes over it")
        else:
            lines.append(f"{k}: {name(*cell)} heading {way}, as it set out: the ride ends")
    if left_board:
        lines.append(f"{len(points) + 1}: off the board: the ride ends")
    moves = [name(*cell) for _, cell, kind in points if kind == "move"]
    lines.append("Moves: " + ", ".join(moves))
    for i, line in enumerate(lines):
        out.append(f'<text x="{left + 10}" y="{ty + i * 16}" font-size="12" '
                   f'fill="{INK}">{escape(line)}</text>')
    width = max(cols * CELL + 20, max(len(s) for s in lines + [title]) * 7 + 20)
    height = ty + len(lines) * 16 - top
    out.insert(0, f'<g data-board="{w}x{h} {topology}" data-piece="{piece}" '
                  f'data-from="{name(*start)}" data-moves="{" ".join(moves)}">')
    out.append("</g>")
    return width, height


def main():
    panels = [
        # A bishop's forward-right ray on a Möbius band: across the file
        # seam the ranks turn over, and it goes over its own square.
        (3, 6, "mobius", (0, 1), (1, 1), "frB"),
        # On a Klein bottle: across the rank seam the files turn over; it
        # goes over its own square, and ends there the second time.
        (3, 3, "klein", (1, 0), (1, 1), "frB"),
    ]
    body, left, tallest = [], 10, 0
    for w, h, topology, start, step, piece in panels:
        part = []
        width, height = panel(part, left, 10, w, h, topology, start, step, piece)
        body += part
        left += width + 20
        tallest = max(tallest, height)
    legend = ["The board is shaded; its copies beyond the seams are dashed, and blue where",
              "they are mirror images. Step k of the ride is on the square marked k."]
    for i, line in enumerate(legend):
        body.append(f'<text x="20" y="{tallest + 30 + 16 * i}" font-size="12" '
                    f'fill="{INK}">{escape(line)}</text>')
    width, height = left, tallest + 60
    print(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
          f'viewBox="0 0 {width} {height}" font-family="{FONT}">')
    print("<title>A rider goes straight on across twisted seams</title>")
    print(f'<rect width="{width}" height="{height}" fill="#ffffff"/>')
    for line in body:
        print(line)
    print("</svg>")


main()
