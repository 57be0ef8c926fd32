#!/usr/bin/env python3
"""Draw the figures of gemm.md as SVG (standard library only).

    python3 docs/figures/make_figures.py            # rewrite docs/figures/*.svg
    python3 docs/figures/make_figures.py --check    # exit 1 if a file is stale
    python3 docs/figures/make_figures.py --out DIR  # write elsewhere

Figures (file: what it shows):
    naive.svg      the naive kernel: one warp's fragment of C, its row of A and column of B
                   walked along K, and the block of four warps on consecutive tiles
    tiling.svg     grid -> block tile (BLOCK_M x BLOCK_N, K in BLOCK_K slabs) -> warp tile -> fragment
    padding.svg    a 1000 x 777 x 300 problem padded as on an H100 (1024 x 1024 x 320): whole block
                   tiles along M, pairs of them along N (a cluster of two), whole slabs along K
    transpose.svg  A stored K x M row-major is A read as a column-major fragment, ldm = M
    pipeline.svg   the copy pipeline with STAGES = 4 over time: slab k is computed while
                   the copies of slabs k+1 and k+2 are in flight, with full/empty barriers
                   per stage instead of __syncthreads
    cluster.svg    a cluster of two blocks on sm_90: each copies half of A's slab to both
                   (multicast) and its own slab of B, each row with its padding
    swizzle.svg    one 1 KiB atom of d_gemm_hopper's slabs, plain and with the 128-byte swizzle
                   (chunk p of row r at position p XOR r)
    warpgroups.svg d_gemm_hopper's block: the producer warpgroup, four stages with their full and
                   empty barriers, two consumer warpgroups
    accumulator.svg which lane of a warpgroup holds which element of a 64 x N wgmma accumulator, and
                   in which register

The page embeds them as images, so they cannot inherit the page's colours:
each SVG has a transparent background, mid-tone translucent fills that read
on light and dark pages, and its own prefers-color-scheme rule for text and
lines.
"""

import argparse
import os
import sys
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))

# The configuration the figures draw: gemm.md's tile parameters for the 16-bit
# type pairs (F16_IN_F32_OUT, F16_IN_OUT, BF16_IN_F32_OUT). Change them here
# when gemm.md changes, then run this script.
BLOCK_M, BLOCK_N, BLOCK_K = 256, 128, 64
CLUSTER = 2                    # blocks of a cluster, side by side along N (sm_90): N pads to pairs of tiles
WARPS_M, WARPS_N = 4, 2        # 8 warps, each a 64 x 64 warp tile
FRAG = 16                      # 16 x 16 x 16 fragments
STAGES = 4                     # the pipeline figure: four stages
PREFETCH = STAGES - 2          # slabs in flight while the warps compute on one

# Mid-tone colours: strokes, and fills at low opacity, work on both backgrounds.
BLUE, ORANGE, GREEN, PURPLE, PINK, GREY = (
    "#3b82f6", "#f59e0b", "#10b981", "#a855f7", "#ec4899", "#8b949e")

STYLE = """
text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif;
       font-size: 15px; fill: #1d2024; }
.mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 13.5px; }
.small { font-size: 13.5px; }
.tiny { font-size: 12px; }
.bold { font-weight: 700; }
.muted { fill: #596270; }
.ink { stroke: #1d2024; }
.line { stroke: #596270; fill: none; }
.faint { stroke: #8b949e; fill: none; }
.arrowhead { fill: #596270; }
/* a label over grid or lead lines: a rim of the page's background (docs/style.css --bg) hides them under it */
.halo { paint-order: stroke; stroke: #fdfdfc; stroke-width: 4px; stroke-linejoin: round; }
@media (prefers-color-scheme: dark) {
  .halo { stroke: #15171b; }
  text { fill: #ffffff; }   /* 4.5:1 or more on the mid-tone cells, too */
  .muted { fill: #a7afba; }
  .ink { stroke: #e2e5e9; }
  .line { stroke: #a7afba; }
  .arrowhead { fill: #a7afba; }
}
"""


def fmt(value):
    """Numbers without trailing zeros, so the output is stable and small."""
    if isinstance(value, float):
        text = ("%.2f" % value).rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)


class Svg:
    def __init__(self, width, height, title, desc):
        self.width, self.height = width, height
        self.title, self.desc = title, desc
        self.body = []
        self.defs = []

    def add(self, element, text=None, **attrs):
        parts = []
        for key, value in attrs.items():
            if value is None:
                continue
            key = key.rstrip("_").replace("_", "-")
            parts.append('%s="%s"' % (key, escape(fmt(value), {'"': "&quot;"})))
        opening = "<%s %s" % (element, " ".join(parts)) if parts else "<" + element
        if text is None:
            self.body.append(opening + "/>")
        else:
            self.body.append(opening + ">" + text + "</%s>" % element)

    def rect(self, x, y, w, h, **attrs):
        self.add("rect", x=x, y=y, width=w, height=h, **attrs)

    def line(self, x1, y1, x2, y2, **attrs):
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def text(self, x, y, content, **attrs):
        """content: a string, or a list of lines (placed 1.3 em apart)."""
        if isinstance(content, str):
            self.add("text", escape(content), x=x, y=y, **attrs)
            return
        size = 15
        cls = attrs.get("class_", "")
        if "small" in cls or "mono" in cls:
            size = 13.5
        if "tiny" in cls:
            size = 12
        spans = []
        for number, line in enumerate(content):
            dy = 0 if number == 0 else size * 1.3
            spans.append('<tspan x="%s" dy="%s">%s</tspan>' % (fmt(x), fmt(dy), escape(line)))
        self.add("text", "".join(spans), x=x, y=y, **attrs)

    def arrow(self, x1, y1, x2, y2, cls="line", width=1.5, dash=None):
        self.line(x1, y1, x2, y2, class_=cls, stroke_width=width,
                  stroke_dasharray=dash, marker_end="url(#arrow)")

    def render(self):
        head = [
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d"'
            ' role="img" aria-labelledby="title desc">' % (self.width, self.height, self.width, self.height),
            "<title id=\"title\">%s</title>" % escape(self.title),
            "<desc id=\"desc\">%s</desc>" % escape(self.desc),
            "<style>%s</style>" % STYLE,
            "<defs>",
            '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"'
            ' orient="auto-start-reverse"><path class="arrowhead" d="M0,0 L10,5 L0,10 z"/></marker>',
            '<pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse"'
            ' patternTransform="rotate(45)"><rect width="7" height="7" fill="%s" fill-opacity="0.10"/>'
            '<line x1="0" y1="0" x2="0" y2="7" stroke="%s" stroke-width="2.2" stroke-opacity="0.55"/></pattern>'
            % (GREY, GREY),
        ] + self.defs + ["</defs>"]
        return "\n".join(head + self.body + ["</svg>"]) + "\n"


def grid_lines(svg, x, y, w, h, rows, cols, cls="faint", width=1, dash=None, opacity=None):
    for r in range(1, rows):
        yy = y + h * r / rows
        svg.line(x, yy, x + w, yy, class_=cls, stroke_width=width, stroke_dasharray=dash, stroke_opacity=opacity)
    for c in range(1, cols):
        xx = x + w * c / cols
        svg.line(xx, y, xx, y + h, class_=cls, stroke_width=width, stroke_dasharray=dash, stroke_opacity=opacity)


def box(svg, x, y, w, h, color, opacity=0.16, width=1.6, **attrs):
    svg.rect(x, y, w, h, fill=color, fill_opacity=opacity, stroke=color, stroke_width=width, **attrs)


def zoom(svg, src, dst):
    """Dashed lines from the corners of a highlighted tile to the next panel."""
    (sx, sy, sw, sh), (dx, dy, dw, dh) = src, dst
    svg.line(sx + sw, sy, dx, dy, class_="faint", stroke_width=1, stroke_dasharray="4 4")
    svg.line(sx + sw, sy + sh, dx, dy + dh, class_="faint", stroke_width=1, stroke_dasharray="4 4")


# ---------------------------------------------------------------------------
# (0) the naive kernel: one warp, one fragment of C, a walk along K

NAIVE_WARPS = 4                # warps per block of d_gemm_naive


def naive():
    tiles_m, tiles_n, tiles_k = 6, 8, 6          # a small problem: 96 x 128, K = 96, in 16 x 16 fragments
    u = 32                                       # pixels per fragment
    warp_tile = (2, 5)                           # the fragment of C one warp computes (row, column)
    block_first = 2 * tiles_n + 4                # the block's first tile: tiles 20 .. 23, the warps 0 .. 3
    svg = Svg(560, 810,
              "The naive kernel: one warp per fragment of C",
              "C is cut into %d × %d tiles of FRAG_M × FRAG_N = 16 × 16. A block of %d warps takes %d consecutive "
              "tiles of one row; warp w of block b takes tile b × %d + w, in row tile / tiles_n and column tile %% "
              "tiles_n. The highlighted warp walks along K in steps of FRAG_K = 16: at each step it loads one "
              "fragment of A from its tile row of A and one fragment of B from its tile column of B, and "
              "mma_sync adds their product to its accumulator."
              % (tiles_m, tiles_n, NAIVE_WARPS, NAIVE_WARPS, NAIVE_WARPS))
    ax, cy = 40, 40 + tiles_k * u + 34
    cx, by = ax + tiles_k * u + 34, 40
    row, col = warp_tile
    # A: M x K, the warp's row of fragments
    box(svg, ax, cy, tiles_k * u, tiles_m * u, ORANGE, 0.06, 1.2)
    grid_lines(svg, ax, cy, tiles_k * u, tiles_m * u, tiles_m, tiles_k, width=0.8)
    for k in range(tiles_k):
        box(svg, ax + k * u, cy + row * u, u, u, ORANGE, 0.16 + 0.5 * (k == 2), 1.6)
    # B: K x N, the warp's column of fragments
    box(svg, cx, by, tiles_n * u, tiles_k * u, GREEN, 0.06, 1.2)
    grid_lines(svg, cx, by, tiles_n * u, tiles_k * u, tiles_k, tiles_n, width=0.8)
    for k in range(tiles_k):
        box(svg, cx + col * u, by + k * u, u, u, GREEN, 0.16 + 0.5 * (k == 2), 1.6)
    # C: the block's four tiles, the warp's own
    box(svg, cx, cy, tiles_n * u, tiles_m * u, BLUE, 0.06, 1.2)
    grid_lines(svg, cx, cy, tiles_n * u, tiles_m * u, tiles_m, tiles_n, width=0.8)
    first_row, first_col = divmod(block_first, tiles_n)
    box(svg, cx + first_col * u, cy + first_row * u, NAIVE_WARPS * u, u, PURPLE, 0.10, 2.2)
    box(svg, cx + col * u, cy + row * u, u, u, BLUE, 0.55, 2.4)
    for w in range(NAIVE_WARPS):   # after the warp's own tile, so its number is not under the tint
        svg.text(cx + (first_col + w) * u + u / 2, cy + first_row * u + u / 2 + 5, str(w),
                 class_="tiny", text_anchor="middle")
    # the walk along K
    svg.arrow(ax + 4, cy + row * u - 8, ax + tiles_k * u - 4, cy + row * u - 8)
    svg.arrow(cx - 8, by + 4, cx - 8, by + tiles_k * u - 4)
    svg.text(ax + tiles_k * u / 2, cy + row * u - 14, "k0 += FRAG_K", class_="mono tiny halo",
             text_anchor="middle")
    # labels
    svg.text(ax + tiles_k * u / 2, cy + tiles_m * u + 22, "A (M × K)", class_="bold", text_anchor="middle")
    svg.text(cx + tiles_n * u / 2, by - 12, "B (K × N)", class_="bold", text_anchor="middle")
    svg.text(cx + tiles_n * u / 2, cy + tiles_m * u + 22, "C (M × N)", class_="bold", text_anchor="middle")
    # legend, under the drawing at the left: a phone shows it before the figure is scrolled sideways
    lx, ly = ax, cy + tiles_m * u + 56
    box(svg, lx, ly, 26, 18, BLUE, 0.55, 2.4)
    svg.text(lx + 38, ly + 14, ["one warp's fragment of C:", "row0 = tile / tiles_n × FRAG_M,", "col0 = tile % tiles_n × FRAG_N"],
             class_="small")
    box(svg, lx, ly + 80, 26, 18, PURPLE, 0.10, 2.2)
    svg.text(lx + 38, ly + 94, ["one block: %d warps, %d" % (NAIVE_WARPS, NAIVE_WARPS),
                                "consecutive tiles of a row;", "tile = blockIdx.x × %d + warp" % NAIVE_WARPS],
             class_="small")
    box(svg, lx, ly + 160, 12, 18, ORANGE, 0.66, 1.6)
    box(svg, lx + 14, ly + 160, 12, 18, GREEN, 0.66, 1.6)
    svg.text(lx + 38, ly + 174, ["step k0: one fragment of A and", "one of B, then one mma_sync;",
                                 "then k0 + FRAG_K, to K"], class_="small")
    svg.text(lx, ly + 250, ["Every fragment of A is loaded", "by every warp of its row of C:",
                            "N / 16 times from memory."], class_="small muted")
    return svg


# ---------------------------------------------------------------------------
# (i) the tiling hierarchy

def fit(width, height, max_width, max_height):
    """Scale a width x height rectangle to fit a box, keeping its aspect."""
    scale = min(max_width / width, max_height / height)
    return width * scale, height * scale


def tiling():
    warp_m, warp_n = BLOCK_M // WARPS_M, BLOCK_N // WARPS_N
    frags_m, frags_n = warp_m // FRAG, warp_n // FRAG
    warps = WARPS_M * WARPS_N
    svg = Svg(990, 510,
              "The tiling hierarchy of d_gemm",
              "Left: C is cut into block tiles of BLOCK_M by BLOCK_N elements (%d by %d for "
              "16-bit types), one per thread block; the block reads a BLOCK_M-row panel of A and "
              "a BLOCK_N-column panel of B, one slab of BLOCK_K = %d at a time. Second: the block "
              "tile, with its slabs of A and B in shared memory, is split among %d by %d warps. "
              "Third: a warp tile of %d by %d is a grid of %d by %d WMMA fragments. Right: one "
              "%d by %d fragment, updated by one mma_sync executed by the 32 threads of the warp."
              % (BLOCK_M, BLOCK_N, BLOCK_K, WARPS_M, WARPS_N, warp_m, warp_n, frags_m, frags_n,
                 FRAG, FRAG))
    middle = 290                                               # vertical centre of panels 2-4
    # -- panel 1: A, B, C of the whole problem
    top = 166
    ax, k_width, c_size = 24, 72, 224
    cx, cy = ax + k_width + 22, top
    by = cy - 22 - k_width
    # block tiles with the aspect of BLOCK_M x BLOCK_N, about 4 x 4 of them
    tile_w, tile_h = fit(BLOCK_N, BLOCK_M, c_size / 2, c_size / 2)
    cols, rows = max(1, round(c_size / tile_w)), max(1, round(c_size / tile_h))
    tile_w, tile_h = c_size / cols, c_size / rows
    box(svg, ax, cy, k_width, c_size, ORANGE, 0.10)             # A: M x K
    box(svg, cx, by, c_size, k_width, GREEN, 0.10)              # B: K x N
    box(svg, cx, cy, c_size, c_size, BLUE, 0.08)                # C: M x N
    grid_lines(svg, cx, cy, c_size, c_size, rows, cols, cls="faint", dash="3 3")
    row, col = (1 if rows > 2 else 0), min(1, cols - 1)        # the highlighted block
    tx, ty = cx + col * tile_w, cy + row * tile_h
    steps = 6
    step = k_width / steps
    box(svg, ax, ty, k_width, tile_h, ORANGE, 0.22, 1.2)         # the panels this block reads
    box(svg, tx, by, tile_w, k_width, GREEN, 0.22, 1.2)
    for s in range(1, steps):
        svg.line(ax + s * step, ty, ax + s * step, ty + tile_h, stroke=ORANGE, stroke_width=1)
        svg.line(tx, by + s * step, tx + tile_w, by + s * step, stroke=GREEN, stroke_width=1)
    box(svg, ax + 2 * step, ty, step, tile_h, ORANGE, 0.75, 1.2)  # the current slab
    box(svg, tx, by + 2 * step, tile_w, step, GREEN, 0.75, 1.2)
    box(svg, tx, ty, tile_w, tile_h, BLUE, 0.55, 2.2)
    svg.arrow(ax + 4, ty + tile_h + 14, ax + k_width - 2, ty + tile_h + 14)
    svg.text(ax + k_width / 2, ty + tile_h + 32, "BLOCK_K", class_="tiny muted", text_anchor="middle")
    svg.text(ax + k_width / 2, ty + tile_h + 46, "at a time", class_="tiny muted", text_anchor="middle")
    svg.arrow(tx - 10, by + 4, tx - 10, by + k_width - 2)
    svg.text(ax + k_width / 2, cy - 10, "A", class_="bold", text_anchor="middle")
    svg.text(cx - 24, by + k_width / 2 + 5, "B", class_="bold", text_anchor="end")
    svg.text(cx + 10, cy + c_size - 12, "C", class_="bold")
    svg.text(ax, cy + c_size + 20, "M × K", class_="tiny muted")
    svg.text(cx + c_size, by - 8, "K × N", class_="tiny muted", text_anchor="end")
    svg.text(cx + c_size, cy + c_size + 20, "M × N", class_="tiny muted", text_anchor="end")
    # -- panel 2: the block tile, its shared-memory slabs, its warps
    p2w, p2h = fit(BLOCK_N, BLOCK_M, 240, 240)
    p2x, p2y = 404 + (240 - p2w) / 2, middle - p2h / 2
    zoom(svg, (tx, ty, tile_w, tile_h), (p2x, p2y, p2w, p2h))
    slab = 26
    svg.rect(p2x - slab - 8, p2y, slab, p2h, fill=ORANGE, fill_opacity=0.75, stroke=ORANGE)   # A slab
    svg.rect(p2x, p2y - slab - 8, p2w, slab, fill=GREEN, fill_opacity=0.75, stroke=GREEN)     # B slab
    svg.text(p2x + p2w / 2, p2y - slab - 16, "slabs of A and B in shared memory", class_="tiny muted",
             text_anchor="middle")
    box(svg, p2x, p2y, p2w, p2h, BLUE, 0.16, 2)
    grid_lines(svg, p2x, p2y, p2w, p2h, WARPS_M, WARPS_N, cls="line", width=1.2)
    ww, wh = p2w / WARPS_N, p2h / WARPS_M
    wx, wy = p2x + min(2, WARPS_N - 1) * ww, p2y
    box(svg, wx, wy, ww, wh, PURPLE, 0.45, 2.2)
    if ww >= 50 and wh >= 24:
        for r in range(WARPS_M):
            for c in range(WARPS_N):
                svg.text(p2x + (c + 0.5) * ww, p2y + (r + 0.5) * wh + 5, "warp %d" % (r * WARPS_N + c),
                         class_="tiny", text_anchor="middle")   # on a coloured warp: full contrast
    svg.text(p2x + p2w / 2, p2y + p2h + 20, "BLOCK_N = %d" % BLOCK_N, class_="small muted",
             text_anchor="middle")
    svg.text(p2x - slab - 16, p2y + p2h / 2, "BLOCK_M = %d" % BLOCK_M, class_="small muted",
             text_anchor="middle", transform="rotate(-90 %s %s)" % (fmt(p2x - slab - 16), fmt(p2y + p2h / 2)))
    # -- panel 3: the warp tile, a grid of fragments
    p3w, p3h = fit(warp_n, warp_m, 128, 160)
    p3x, p3y = 700 + (128 - p3w) / 2, middle - p3h / 2
    zoom(svg, (wx, wy, ww, wh), (p3x, p3y, p3w, p3h))
    box(svg, p3x, p3y, p3w, p3h, PURPLE, 0.16, 2)
    grid_lines(svg, p3x, p3y, p3w, p3h, frags_m, frags_n, cls="line", width=1.2)
    fw, fh = p3w / frags_n, p3h / frags_m
    fx, fy = p3x + min(2, frags_n - 1) * fw, p3y + min(1, frags_m - 1) * fh
    box(svg, fx, fy, fw, fh, PINK, 0.5, 2.2)
    svg.text(p3x + p3w / 2, p3y + p3h + 20, "WARP_TILE_N = %d" % warp_n, class_="small muted",
             text_anchor="middle")
    svg.text(p3x - 10, p3y + p3h / 2, "WARP_TILE_M = %d" % warp_m, class_="small muted halo",   # over a lead line
             text_anchor="middle", transform="rotate(-90 %s %s)" % (fmt(p3x - 10), fmt(p3y + p3h / 2)))
    # -- panel 4: one fragment
    p4s = 112
    p4x, p4y = 866, middle - p4s / 2
    zoom(svg, (fx, fy, fw, fh), (p4x, p4y, p4s, p4s))
    box(svg, p4x, p4y, p4s, p4s, PINK, 0.16, 2)
    grid_lines(svg, p4x, p4y, p4s, p4s, FRAG, FRAG, cls="faint", width=0.6, opacity=0.7)
    svg.text(p4x + p4s / 2, p4y + p4s + 20, str(FRAG), class_="small muted", text_anchor="middle")
    svg.text(p4x - 8, p4y + p4s / 2 + 5, str(FRAG), class_="small muted", text_anchor="end")
    # -- captions under the panels
    base = 470
    captions = [
        (24, "1  Grid", ["one thread block per block tile", "of C; it walks K one slab at a time"]),
        (374, "2  Block tile", ["slabs staged in shared memory,", "the tile split among %d warps" % warps]),
        (672, "3  Warp tile", ["%d × %d accumulator" % (frags_m, frags_n), "fragments per warp"]),
        (850, "4  Fragment", ["one mma_sync by", "all 32 threads"]),
    ]
    for x, head, lines in captions:
        svg.text(x, base - 22, head, class_="bold")
        svg.text(x, base, lines, class_="small muted")
    return svg


# ---------------------------------------------------------------------------
# (ii) padding a ragged problem up to whole tiles

def padding():
    M, N, K = 1000, 777, 300
    BM, BN, BK = BLOCK_M, BLOCK_N, BLOCK_K

    def up(value, tile):
        return (value + tile - 1) // tile * tile

    Mp, Np, Kp = up(M, BM), up(N, BN * CLUSTER), up(K, BK)
    s = 0.25                                    # pixels per element
    svg = Svg(580, 762,
              "Padding a %d × %d × %d problem to whole tiles" % (M, N, K),
              "A (M×K = %d×%d), B (K×N = %d×%d) and C (M×N = %d×%d) drawn to scale in the "
              "usual GEMM arrangement, padded as an H100 build pads them: M to a multiple of BLOCK_M = %d "
              "(%d), N to a multiple of %d x BLOCK_N = %d x %d (%d), K to a multiple of BLOCK_K = %d "
              "(%d). The original data sits in the top-left corner of each padded buffer; the added rows and "
              "columns are zero."
              % (M, K, K, N, M, N, BM, Mp, CLUSTER, CLUSTER, BN, Np, BK, Kp))
    ax, cx = 44, 44 + Kp * s + 20
    by, cy = 34, 34 + Kp * s + 20

    def matrix(x, y, rows, cols, rows_p, cols_p, color, row_tile, col_tile):
        # zero fill: the strip right of the data and the strip below it
        svg.rect(x + cols * s, y, (cols_p - cols) * s, rows_p * s, fill="url(#hatch)")
        svg.rect(x, y + rows * s, cols * s, (rows_p - rows) * s, fill="url(#hatch)")
        svg.rect(x, y, cols_p * s, rows_p * s, fill="none", stroke=GREY, stroke_width=1.2,
                 stroke_dasharray="5 3")
        box(svg, x, y, cols * s, rows * s, color, 0.2, 1.6)
        grid_lines(svg, x, y, cols_p * s, rows_p * s, rows_p // row_tile, cols_p // col_tile,
                   cls="faint", width=0.8, dash="2 3")

    matrix(ax, cy, M, K, Mp, Kp, ORANGE, BM, BK)
    matrix(cx, by, K, N, Kp, Np, GREEN, BK, BN)
    matrix(cx, cy, M, N, Mp, Np, BLUE, BM, BN)
    # labels
    svg.text(ax + Kp * s / 2, cy + Mp * s + 22, "A", class_="bold", text_anchor="middle")
    svg.text(cx - 12, by + Kp * s / 2 + 5, "B", class_="bold", text_anchor="end")
    mid_x, mid_y = cx + N * s / 2, cy + M * s / 2
    svg.text(mid_x, mid_y - 16, "C", class_="bold halo", text_anchor="middle")
    svg.text(mid_x, mid_y + 6, "%d × %d" % (M, N), class_="small halo", text_anchor="middle")
    svg.text(mid_x, mid_y + 26, "padded to %d × %d" % (Mp, Np), class_="small muted halo", text_anchor="middle")
    svg.text(cx + N * s / 2, by + K * s / 2 - 2, "%d × %d" % (K, N), class_="small halo", text_anchor="middle")
    svg.text(cx + N * s / 2, by + K * s / 2 + 16, "→ %d × %d" % (Kp, Np), class_="small muted halo",
             text_anchor="middle")
    # dimension marks along C's right and bottom edges
    right = cx + Np * s + 10
    svg.line(right, cy, right, cy + M * s, class_="line", stroke_width=1.2)
    svg.line(right - 4, cy, right + 4, cy, class_="line")
    svg.line(right - 4, cy + M * s, right + 4, cy + M * s, class_="line")
    svg.text(right + 8, cy + M * s / 2 + 5, "M = %d" % M, class_="small")
    svg.text(right + 8, cy + M * s + 4, "+%d zero rows → %d" % (Mp - M, Mp), class_="tiny muted")
    bottom = cy + Mp * s + 12
    svg.line(cx, bottom, cx + N * s, bottom, class_="line", stroke_width=1.2)
    svg.line(cx, bottom - 4, cx, bottom + 4, class_="line")
    svg.line(cx + N * s, bottom - 4, cx + N * s, bottom + 4, class_="line")
    svg.text(cx + N * s / 2, bottom + 18, "N = %d" % N, class_="small", text_anchor="middle")
    svg.text(cx + Np * s, bottom + 36, "+%d zero columns → %d" % (Np - N, Np), class_="tiny muted",
             text_anchor="end")
    svg.text(ax + Kp * s / 2, cy - 8, "K: %d → %d" % (K, Kp), class_="tiny muted", text_anchor="middle")
    # legend, under the drawing at the left: a phone shows it before the figure is scrolled sideways
    lx, ly = ax, 470
    box(svg, lx, ly, 26, 18, BLUE, 0.2, 1.6)
    svg.text(lx + 38, ly + 14, ["original data, copied row by row", "into the padded buffer"], class_="small")
    svg.rect(lx, ly + 54, 26, 18, fill="url(#hatch)", stroke=GREY, stroke_width=1.2, stroke_dasharray="5 3")
    svg.text(lx + 38, ly + 68, ["zero fill: adds nothing to any", "dot product; the extra rows and",
                                "columns of C are thrown away"], class_="small")
    svg.line(lx, ly + 136, lx + 26, ly + 136, class_="faint", stroke_width=1.2, stroke_dasharray="2 3")
    svg.text(lx + 38, ly + 140, ["tile boundaries, 16-bit types:", "BLOCK_M = %d, BLOCK_N = %d," % (BM, BN),
                                 "BLOCK_K = %d" % BK], class_="small")
    svg.text(lx, ly + 222, ["M is rounded up to whole block", "tiles, N to pairs of them (on an",
                            "H100 blocks work in pairs along", "N), K to whole slabs. To scale."],
             class_="small muted")
    return svg


# ---------------------------------------------------------------------------
# (iii) a transposed operand is a column-major fragment

SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
K_COLOURS = [BLUE, ORANGE, GREEN]


def element(i, k):
    return ("a" + str(i) + str(k)).translate(SUB)


def transpose():
    M, K = 4, 3
    svg = Svg(780, 512,
              "A transposed operand read as a column-major fragment",
              "With TRANSPOSE_A the program stores A transposed: a K×M row-major array, here "
              "K = 3 and M = 4. In memory, each run of M consecutive elements is one column of A. "
              "Read as an M×K column-major matrix with leading dimension ldm = M, the same bytes "
              "are A itself, so load_matrix_sync with wmma::col_major gives the fragment of A "
              "without moving any data.")
    cell = 44
    # memory strip
    mx, my = (svg.width - M * K * cell) / 2, 70
    svg.text(svg.width / 2, 24, "memory: the array as stored, addresses increasing →", class_="small muted",
             text_anchor="middle")
    for address in range(M * K):
        k, i = divmod(address, M)
        x = mx + address * cell
        box(svg, x, my, cell, cell - 6, K_COLOURS[k], 0.22, 1.2)
        svg.text(x + cell / 2, my + 24, element(i, k), text_anchor="middle")
        svg.text(x + cell / 2, my - 8, str(address), class_="tiny muted", text_anchor="middle")
    for k in range(K):
        x0, x1 = mx + k * M * cell + 4, mx + (k + 1) * M * cell - 4
        y = my + cell + 2
        svg.add("path", d="M%s,%s v6 H%s v-6" % (fmt(x0), fmt(y), fmt(x1)), class_="line",
                stroke_width=1.2)
        svg.text((x0 + x1) / 2, y + 24, "column %d of A" % k, class_="tiny muted", text_anchor="middle")

    # left: as stored, K x M row-major
    lx, ly = 70, 232
    svg.text(lx, ly - 34, "as stored: Aᵀ, K × M, row-major", class_="bold")
    svg.text(lx, ly - 14, "row k holds column k of A", class_="small muted")
    for k in range(K):
        for i in range(M):
            x, y = lx + i * cell, ly + k * cell
            box(svg, x, y, cell, cell, K_COLOURS[k], 0.22, 1.2)
            svg.text(x + cell / 2, y + 27, element(i, k), text_anchor="middle")
        svg.arrow(lx + M * cell + 8, ly + k * cell + cell / 2, lx + M * cell + 40, ly + k * cell + cell / 2)
    svg.text(lx + M * cell / 2, ly + K * cell + 22, "M = 4 columns: stride between rows is M",
             class_="tiny muted", text_anchor="middle")

    # right: as the fragment reads it, M x K col-major, ldm = M
    rx, ry = 500, 232
    svg.text(rx - 60, ry - 34, "as read: A, M × K, col_major, ldm = M", class_="bold")
    svg.text(rx - 60, ry - 14, "column k starts at address k·ldm", class_="small muted")
    for i in range(M):
        for k in range(K):
            x, y = rx + k * cell, ry + i * cell
            box(svg, x, y, cell, cell, K_COLOURS[k], 0.22, 1.2)
            svg.text(x + cell / 2, y + 27, element(i, k), text_anchor="middle")
    for k in range(K):
        svg.arrow(rx + k * cell + cell / 2, ry + M * cell + 6, rx + k * cell + cell / 2, ry + M * cell + 26)
    svg.text(rx + K * cell + 12, ry + M * cell / 2 + 5, "same bytes,", class_="small muted")
    svg.text(rx + K * cell + 12, ry + M * cell / 2 + 24, "no copy", class_="small muted")
    svg.text(395, ry + 60, "=", class_="bold", text_anchor="middle", font_size=32)

    # the two lines of code that say it
    code_y = 468
    svg.text(24, code_y, "wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a_frag;",
             class_="mono")
    svg.text(24, code_y + 22, "wmma::load_matrix_sync(a_frag, a_t + k0 * M + i0, M);  // tile at (i0, k0)",
             class_="mono")
    return svg


# ---------------------------------------------------------------------------
# (iv) the cp.async pipeline over time

def pipeline():
    stages, ahead, tiles = STAGES, PREFETCH, 8
    slack = stages - ahead - 1                   # steps a buffer waits for the slowest warp
    unit, left, top = 88, 96, 62
    row_h, row_gap = 36, 14
    start = -1                                   # the prologue starts one step before k = 0
    width = left + (tiles - start) * unit + 30
    bottom = top + stages * (row_h + row_gap) - row_gap
    words = {1: "one", 2: "two", 3: "three", 4: "four"}

    def listing(items):
        items = [str(item) for item in items]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    svg = Svg(width, bottom + 220,
              "The copy pipeline with %d stages" % stages,
              "Time runs left to right in steps of the k loop. Each row is one of the %d "
              "shared-memory stages; slab j lives in stage j mod %d. Before the loop, the copies "
              "of slabs %s are issued. In step k a thread first waits on the empty barrier of "
              "stage (k+%d) mod %d, until every warp has finished reading slab k-%d, and issues "
              "the copy of slab k+%d into it; then it waits on the full barrier of slab k, whose "
              "copies have landed, and the warps compute on slab k. After its last mma_sync on "
              "the slab each warp arrives on the stage's empty barrier. There is no block-wide "
              "barrier: a warp may run up to one slab ahead of the slowest warp, so while slab k "
              "is computed the copies of slabs %s are in flight and the buffer of slab %s may "
              "still be read by the slowest warp. At the end nothing is left to copy and the "
              "pipeline drains."
              % (stages, stages, listing(range(ahead)), ahead, stages, stages - ahead, ahead,
                 listing("k+%d" % d for d in range(1, ahead + 1)),
                 listing("k-%d" % d for d in range(slack, 0, -1))))

    def t2x(t):
        return left + (t - start) * unit

    # iteration columns: the dashed lines only mark the steps, there is no barrier there
    svg.text(t2x(start) + unit / 2, top - 16, "prologue", class_="small muted", text_anchor="middle")
    for k in range(tiles):
        svg.text(t2x(k) + unit / 2, top - 16, "k = %d" % k, class_="small", text_anchor="middle")
    for t in range(0, tiles + 1):   # in the gaps between the rows only, never through a box and its label
        ends = [top - 8, top] + [top + stage * (row_h + row_gap) + offset for stage in range(1, stages)
                            for offset in (-row_gap, 0)] + [bottom, bottom + 8]
        for y0, y1 in zip(ends[::2], ends[1::2]):
            svg.line(t2x(t), y0, t2x(t), y1, class_="faint", stroke_dasharray="3 3")
    highlight = 3
    svg.rect(t2x(highlight), top - 34, unit, bottom - top + 50, fill=BLUE, fill_opacity=0.08)
    # rows: slab j is copied into stage j % STAGES from step j - PREFETCH (or the prologue) to
    # step j, computed on in step j, then may still be read by late warps until the copy of
    # slab j + STAGES is issued, PREFETCH steps before it is needed
    for stage in range(stages):
        y = top + stage * (row_h + row_gap)
        svg.text(left - 12, y + row_h / 2 + 5, "stage %d" % stage, class_="small", text_anchor="end")
        for j in range(stage, tiles, stages):
            issue = start if j < ahead else j - ahead
            x0, x1 = t2x(issue) + 3, t2x(j) - 3
            svg.rect(x0, y, x1 - x0, row_h, rx=5, fill="url(#hatch)", stroke=ORANGE, stroke_width=1.6)
            svg.rect(x0, y, x1 - x0, row_h, rx=5, fill=ORANGE, fill_opacity=0.16)
            label = "copy slab %d" % j if x1 - x0 > 110 else "copy %d" % j
            svg.text((x0 + x1) / 2, y + row_h / 2 + 5, label, class_="small", text_anchor="middle")
            c0, c1 = t2x(j) + 3, t2x(j + 1) - 3
            svg.rect(c0, y, c1 - c0, row_h, rx=5, fill=BLUE, fill_opacity=0.55, stroke=BLUE, stroke_width=1.6)
            svg.text((c0 + c1) / 2, y + row_h / 2 + 5, "mma %d" % j, class_="small bold", text_anchor="middle")
            late = min(j + 1 + slack, tiles)
            if late > j + 1:
                s0, s1 = t2x(j + 1) + 3, t2x(late) - 3
                svg.rect(s0, y, s1 - s0, row_h, rx=5, fill=GREY, fill_opacity=0.12, stroke=GREY,
                         stroke_width=1.2, stroke_dasharray="4 3")
                svg.text((s0 + s1) / 2, y + row_h / 2 + 4, "late warps", class_="tiny muted",
                         text_anchor="middle")
    svg.text(t2x(start), bottom + 26,
             "no block-wide barrier: each warp waits on full[s] before its mma_sync, "
             "and a copy waits on empty[s] of the slab %s steps back" % words.get(stages - ahead, stages - ahead),
             class_="tiny muted")
    # annotation for the highlighted step
    note_y = bottom + 62
    svg.text(t2x(highlight) + unit / 2, note_y, "step k = %d:" % highlight, class_="small bold",
             text_anchor="middle")
    svg.text(t2x(highlight) + unit / 2, note_y + 20,
             ["the warps compute on slab %d while the copies of slabs %s are in flight,"
              % (highlight, listing(range(highlight + 1, highlight + ahead + 1))),
              "and the buffer of slab %s waits for the slowest warp"
              % listing(range(highlight - slack, highlight))],
             class_="small", text_anchor="middle")
    # legend, one entry a line at the left edge: a phone shows its first 343 px before it is scrolled sideways
    lx, ly = 20, note_y + 70
    svg.rect(lx, ly, 30, 18, rx=4, fill="url(#hatch)", stroke=ORANGE, stroke_width=1.6)
    svg.rect(lx, ly, 30, 18, rx=4, fill=ORANGE, fill_opacity=0.16)
    svg.text(lx + 40, ly + 14, "a copy to shared memory, in flight", class_="small")
    ly += 30
    svg.rect(lx, ly, 30, 18, rx=4, fill=BLUE, fill_opacity=0.55, stroke=BLUE, stroke_width=1.6)
    svg.text(lx + 40, ly + 14, "the warps' mma_sync calls", class_="small")
    ly += 30
    svg.rect(lx, ly, 30, 18, rx=4, fill=GREY, fill_opacity=0.12, stroke=GREY, stroke_width=1.2,
             stroke_dasharray="4 3")
    svg.text(lx + 40, ly + 14, "a buffer slow warps may still read", class_="small")
    return svg

# ---------------------------------------------------------------------------
# (v) a cluster of two blocks sharing A's slab (sm_90)


def cluster():
    half = BLOCK_M // CLUSTER
    a_kb = BLOCK_M * (BLOCK_K + 8) * 2 // 1024    # fp16 bytes of one slab of A, rows read with their padding, in KiB
    b_kb = BLOCK_K * (BLOCK_N + 8) * 2 // 1024
    svg = Svg(980, 580,
              "A cluster of two blocks sharing the slabs of A",
              "On sm_90 two blocks that compute neighbouring tiles of one row of C form a cluster. "
              "For each slab, block 0 copies rows 0 to %d of A's %d x %d slab and block 1 rows %d to %d, "
              "each with one copy-engine instruction that lands in the shared memory of both blocks "
              "(multicast); each block copies its own %d x %d slab of B. Every row arrives followed by "
              "its padding, the 16 bytes after it in global memory, which no fragment reads. Per block and "
              "slab %d KiB of A and "
              "%d KiB of B leave L2 instead of %d and %d."
              % (half - 1, BLOCK_M, BLOCK_K, half, BLOCK_M - 1, BLOCK_K, BLOCK_N, a_kb // CLUSTER, b_kb,
                 a_kb, b_kb))
    top, a_h, a_w, pad = 86, 240, 90, 14
    mid = 490
    # global memory in the middle
    svg.text(mid, 34, "global memory, through L2", class_="bold", text_anchor="middle")
    ax = mid - a_w / 2
    svg.text(mid, top - 10, "slab k of A (%d × %d)" % (BLOCK_M, BLOCK_K), class_="small", text_anchor="middle")
    box(svg, ax, top, a_w, a_h / 2, ORANGE, 0.30)
    box(svg, ax, top + a_h / 2, a_w, a_h / 2, ORANGE, 0.60)
    svg.text(mid, top + a_h / 4, ["rows", "0–%d:" % (half - 1), "block 0"], class_="tiny", text_anchor="middle")
    svg.text(mid, top + 3 * a_h / 4, ["rows", "%d–%d:" % (half, BLOCK_M - 1), "block 1"], class_="tiny",
             text_anchor="middle")
    b_top, b_w, b_h = top + a_h + 50, 104, 44
    for rank, bx in enumerate((mid - b_w - 8, mid + 8)):
        box(svg, bx, b_top, b_w, b_h, GREEN, 0.30)
        svg.text(bx + b_w / 2, b_top + 27, "B, block %d" % rank, class_="tiny", text_anchor="middle")
    svg.text(mid, b_top + b_h + 20, "slab k of B (%d × %d) per block" % (BLOCK_K, BLOCK_N), class_="small",
             text_anchor="middle")
    # the two blocks, mirrored
    block_w, block_top, block_h = 300, 52, 385
    buf_a_h, buf_top = 200, top + 10
    for rank in range(CLUSTER):
        bx = 30 if rank == 0 else 980 - 30 - block_w
        svg.rect(bx, block_top, block_w, block_h, rx=10, fill=BLUE, fill_opacity=0.05, stroke=BLUE,
                 stroke_width=1.6)
        svg.text(bx + block_w / 2, block_top + 22, "block %d (cluster rank %d), its own SM" % (rank, rank),
                 class_="small bold", text_anchor="middle")
        # A buffer with its padding strip, on the side facing the middle
        ax0 = bx + block_w - 40 - a_w - pad if rank == 0 else bx + 40
        box(svg, ax0, buf_top, a_w, buf_a_h / 2, ORANGE, 0.30)
        box(svg, ax0, buf_top + buf_a_h / 2, a_w, buf_a_h / 2, ORANGE, 0.60)
        svg.rect(ax0 + a_w, buf_top, pad, buf_a_h, fill="url(#hatch)", stroke=GREY, stroke_width=1)
        label_x = ax0 - 12 if rank == 0 else ax0 + a_w + pad + 12
        anchor = "end" if rank == 0 else "start"
        svg.text(label_x, buf_top + 20, ["A, %d rows" % BLOCK_M, "of %d + 8" % BLOCK_K, "halves"],
                 class_="tiny muted", text_anchor=anchor)
        svg.text(label_x, buf_top + buf_a_h - 30, ["hatched:", "padding,", "never read"], class_="tiny muted",
                 text_anchor=anchor)
        # B buffer
        bb_w = 150
        bbx = bx + block_w - 40 - bb_w - pad if rank == 0 else bx + 40
        box(svg, bbx, b_top, bb_w, b_h, GREEN, 0.30)
        svg.rect(bbx + bb_w, b_top, pad, b_h, fill="url(#hatch)", stroke=GREY, stroke_width=1)
        svg.text(bbx + bb_w / 2, b_top + 27, "B, own slab", class_="tiny", text_anchor="middle")
        svg.text(bx + block_w / 2, buf_top + buf_a_h + 26, "shared memory, one stage", class_="tiny muted",
                 text_anchor="middle")
        # arrows: both halves of A into this block, and this block's B
        if rank == 0:
            edge_a, edge_b, src_a, src_b = ax0 + a_w + pad + 4, bbx + bb_w + pad + 4, ax - 4, mid - b_w - 12
        else:
            edge_a, edge_b, src_a, src_b = ax0 - 4, bbx - 4, ax + a_w + 4, mid + b_w + 12
        svg.arrow(src_a, top + a_h / 4, edge_a, buf_top + buf_a_h / 4, width=1.8)
        svg.arrow(src_a, top + 3 * a_h / 4, edge_a, buf_top + 3 * buf_a_h / 4, width=1.8)
        svg.arrow(src_b, b_top + b_h / 2, edge_b, b_top + b_h / 2, width=1.8)
    # at the left edge: a phone shows a figure's first 343 px before it is scrolled sideways
    svg.text(30, 470, ["each half of A leaves L2 once and lands in", "both blocks (multicast); each block copies",
                       "its own B"], class_="small")
    svg.text(30, 534, ["per block and slab: %d KiB of A and %d KiB" % (a_kb // CLUSTER, b_kb),
                       "of B from L2, instead of %d and %d" % (a_kb, b_kb)], class_="small muted")
    return svg


# ---------------------------------------------------------------------------
# (vi) the 128-byte swizzle of d_gemm_hopper's slabs

CHUNK_COLOURS = [BLUE, ORANGE, GREEN, PURPLE, PINK, GREY, BLUE, ORANGE]


def swizzle():
    svg = Svg(960, 500,
              "One 1 KiB atom of a slab, plain and with the 128-byte swizzle",
              "Eight rows of 128 bytes, each eight 16-byte chunks. Stored plainly, chunk 0 of every row "
              "sits in banks 0 to 3, so reading chunk 0 of the eight rows hits the same four banks eight "
              "times. With the 128-byte swizzle, chunk p of row r is stored at position p XOR r: chunk 0 "
              "of the eight rows lands in eight different positions, all 32 banks, and so does every "
              "other chunk.")
    cell_w, cell_h = 46, 34
    for title, swizzled, x0 in (("stored plainly", False, 60), ("128-byte swizzle: chunk p of row r at p XOR r", True, 530)):
        y0 = 100
        svg.text(x0, 34, title, class_="bold")
        svg.text(x0, 56, "position in the row, 16 bytes each", class_="small muted")
        svg.text(x0 - 10, y0 - 10, "row", class_="tiny muted", text_anchor="end")
        for position in range(8):
            svg.text(x0 + position * cell_w + cell_w / 2, y0 - 10, str(position), class_="tiny muted",
                     text_anchor="middle")
        for row in range(8):
            svg.text(x0 - 10, y0 + row * cell_h + 22, str(row), class_="tiny muted", text_anchor="end")
            for position in range(8):
                chunk = position ^ row if swizzled else position
                x, y = x0 + position * cell_w, y0 + row * cell_h
                box(svg, x, y, cell_w, cell_h, CHUNK_COLOURS[chunk], 0.75 if chunk == 0 else 0.14, 1.0)
                svg.text(x + cell_w / 2, y + 22, str(chunk), text_anchor="middle",
                         class_="bold" if chunk == 0 else "small")
        below = y0 + 8 * cell_h + 18
        svg.text(x0, below, "banks 0–3", class_="tiny muted")
        svg.text(x0 + 8 * cell_w, below, "banks 28–31", class_="tiny muted", text_anchor="end")
        if swizzled:
            lines = ["chunk 0 of the eight rows: eight positions,", "all 32 banks, one access each"]
        else:
            lines = ["chunk 0 of the eight rows: one position,", "banks 0–3 eight times: an 8-way conflict"]
        svg.text(x0, below + 30, lines, class_="small")
    svg.text(60, 462, ["The TMA writes this order (CU_TENSOR_MAP_SWIZZLE_128B);",
                       "the descriptor's layout field tells wgmma to read it back the same way."],
             class_="small muted")
    return svg


# ---------------------------------------------------------------------------
# (vii) d_gemm_hopper's warpgroups and stages

def warpgroups():
    svg = Svg(1010, 580,
              "One block of d_gemm_hopper: a producer warpgroup, four stages, two consumer warpgroups",
              "One thread of the producer warpgroup asks the TMA for each slab: 128 rows of A and "
              "this block's half of the 256 rows of B, whose other half the other block of the cluster "
              "sends. When a stage's bytes have landed, its full barrier completes and both consumer "
              "warpgroups issue wgmma on it, each for its 64 rows of the 128 x 256 tile, with the "
              "accumulators in registers. When the consumers of both blocks are done with a stage, its "
              "empty barrier completes and the producer refills it.")
    # producer
    px, py, pw, ph = 30, 120, 200, 150
    svg.rect(px, py, pw, ph, rx=10, fill=ORANGE, fill_opacity=0.08, stroke=ORANGE, stroke_width=1.6)
    svg.text(px + pw / 2, py + 26, "producer warpgroup", class_="bold", text_anchor="middle")
    svg.text(px + pw / 2, py + 50, ["4 warps, 40 registers", "each (setmaxnreg)"], class_="small muted",
             text_anchor="middle")
    box(svg, px + 20, py + 92, pw - 40, 36, ORANGE, 0.55, 1.2)
    svg.text(px + pw / 2, py + 115, "one thread: requests", class_="small", text_anchor="middle")
    # stages
    sx, sy, sw, sh, gap = 330, 70, 70, 250, 14
    svg.text(sx + 2 * (sw + gap) - gap / 2, 40, "shared memory: 4 stages, swizzled", class_="bold",
             text_anchor="middle")
    for stage in range(4):
        x = sx + stage * (sw + gap)
        box(svg, x, sy, sw, sh / 3, ORANGE, 0.25, 1.2)
        box(svg, x, sy + sh / 3, sw, 2 * sh / 3, GREEN, 0.25, 1.2)
        svg.line(x, sy + 2 * sh / 3, x + sw, sy + 2 * sh / 3, class_="faint", stroke_width=1,
                 stroke_dasharray="4 3")
        svg.text(x + sw / 2, sy + sh / 6 + 5, "A", class_="small", text_anchor="middle")
        svg.text(x + sw / 2, sy + sh / 2 + 5, "B", class_="small", text_anchor="middle")
        svg.text(x + sw / 2, sy + 5 * sh / 6 + 5, "B", class_="small muted", text_anchor="middle")
        svg.text(x + sw / 2, sy + sh + 20, "full[%d]" % stage, class_="tiny mono", text_anchor="middle")
        svg.text(x + sw / 2, sy + sh + 36, "empty[%d]" % stage, class_="tiny mono", text_anchor="middle")
    # consumers
    cx, cw, ch = 760, 225, 120
    for number, cy in enumerate((70, 200)):
        svg.rect(cx, cy, cw, ch, rx=10, fill=BLUE, fill_opacity=0.08, stroke=BLUE, stroke_width=1.6)
        svg.text(cx + cw / 2, cy + 26, "consumer warpgroup %d" % number, class_="bold", text_anchor="middle")
        svg.text(cx + cw / 2, cy + 52, ["rows %d–%d of the tile" % (64 * number, 64 * number + 63),
                                        "128 accumulators per thread", "wgmma, 4 per stage"],
                 class_="small muted", text_anchor="middle")
        svg.arrow(sx + 4 * (sw + gap) - gap + 4, cy + ch / 2, cx - 6, cy + ch / 2, width=1.8)
    # arrows: request and release
    svg.arrow(px + pw + 4, py + 110, sx - 8, py + 110, width=1.8)
    svg.text((px + pw + sx) / 2, py + 100, "TMA", class_="tiny muted", text_anchor="middle")
    svg.arrow(cx + cw / 2, 330, cx + cw / 2, 404, width=1.4, dash="5 4")
    svg.line(cx + cw / 2, 404, px + pw / 2, 404, class_="line", stroke_width=1.4, stroke_dasharray="5 4")
    svg.arrow(px + pw / 2, 404, px + pw / 2, py + ph + 6, width=1.4, dash="5 4")
    # the key, at the left edge: a phone shows a figure's first 343 px before it is scrolled sideways
    svg.text(20, 440, ["full[s]: all the stage's bytes have landed;", "the consumers may issue wgmma on it"],
             class_="small")
    svg.text(20, 490, ["empty[s]: both consumers of both blocks are", "done; the producer may refill stage s"],
             class_="small")
    svg.text(20, 540, ["dashed: the half of B that the other block", "of the cluster sends (multicast)"],
             class_="small muted")
    return svg


# ---------------------------------------------------------------------------
# (viii) a wgmma accumulator: which thread holds which element

def accumulator():
    svg = Svg(960, 545,
              "Which thread of a warpgroup holds which element of a 64 x N wgmma accumulator",
              "The 64 rows of the accumulator are four bands of 16, one per warp of the warpgroup. In its "
              "band, lane l holds, for every 8 columns j, the two neighbouring elements of row l / 4 at "
              "columns 8j + 2 (l mod 4) and the next, and the same two elements eight rows below: registers "
              "d[4j] and d[4j + 1], then d[4j + 2] and d[4j + 3]. The first 16 columns of warp 0's band are "
              "drawn, each cell with its lane and register; lane 0's cells are filled.")
    # left: the 64 x N tile in four bands of 16 rows
    lx, ly, lw, lh = 40, 90, 150, 256
    svg.text(lx, 40, "64 × N accumulator", class_="bold")
    svg.text(lx, 62, "one warpgroup, 4 warps", class_="small muted")
    for warp in range(4):
        box(svg, lx, ly + warp * lh / 4, lw, lh / 4, BLUE, 0.30 if warp == 0 else 0.08, 1.2)
        svg.text(lx + lw / 2, ly + warp * lh / 4 + lh / 8 + 5, "warp %d: rows %d–%d" % (warp, 16 * warp, 16 * warp + 15),
                 class_="tiny", text_anchor="middle")
    svg.text(lx, ly + lh + 24, ["N columns: 256, 192, 128 or 64", "(N / 2 registers a thread)"], class_="tiny muted")
    # right: warp 0's first 16 columns, 16 rows
    cx, cy, cw, ch = 300, 90, 40, 24
    svg.text(cx, 40, "warp 0, columns 0–15: lane and register of each element", class_="bold")
    svg.text(cx, 62, "every 8 columns j repeat the pattern with registers d[4j] … d[4j + 3]", class_="small muted")
    zoom(svg, (lx, ly, lw, lh / 4), (cx, cy, 16 * cw, 16 * ch))
    for col in range(16):
        svg.text(cx + col * cw + cw / 2, cy - 8, str(col), class_="tiny muted", text_anchor="middle")
    for row in range(16):
        svg.text(cx - 8, cy + row * ch + ch / 2 + 4, str(row), class_="tiny muted halo", text_anchor="end")
        for col in range(16):
            lane = row % 8 * 4 + col % 8 // 2
            register = 4 * (col // 8) + 2 * (row // 8) + col % 2
            x, y = cx + col * cw, cy + row * ch
            box(svg, x, y, cw, ch, ORANGE if lane == 0 else GREY, 0.55 if lane == 0 else 0.06, 0.8)
            svg.text(x + cw / 2, y + ch / 2 + 4, "%d:d%d" % (lane, register), class_="tiny", text_anchor="middle")
    svg.line(cx, cy + 8 * ch, cx + 16 * cw, cy + 8 * ch, class_="ink", stroke_width=1.6)
    svg.line(cx + 8 * cw, cy, cx + 8 * cw, cy + 16 * ch, class_="ink", stroke_width=1.6)
    # the key under the left panel: a phone shows a figure's first 343 px before it is scrolled sideways
    svg.text(lx, ly + lh + 80, ["lane l: rows l / 4 and l / 4 + 8,", "columns 8j + 2 (l mod 4) and", "the next; a cell reads",
                                "lane:register (4-byte", "accumulators); lane 0 is filled"], class_="small")
    return svg


FIGURES = {
    "naive.svg": naive,
    "tiling.svg": tiling,
    "padding.svg": padding,
    "transpose.svg": transpose,
    "pipeline.svg": pipeline,
    "cluster.svg": cluster,
    "swizzle.svg": swizzle,
    "warpgroups.svg": warpgroups,
    "accumulator.svg": accumulator,
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=HERE, help="output folder (default: next to this script)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file differs; write nothing")
    args = parser.parse_args(argv)
    stale = []
    for name, draw in FIGURES.items():
        text = draw().render()
        path = os.path.join(args.out, name)
        try:
            with open(path, encoding="utf-8") as existing:
                current = existing.read()
        except FileNotFoundError:
            current = None
        if current == text:
            continue
        if args.check:
            stale.append(name)
            continue
        os.makedirs(args.out, exist_ok=True)
        temporary = path + ".tmp"
        with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(temporary, path)
        print("wrote", path)
    if stale:
        print("stale (run python3 docs/figures/make_figures.py):", " ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
