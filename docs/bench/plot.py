#!/usr/bin/env python3
"""Plot a benchmark CSV written by docs/bench/bench.py as an SVG.

One panel per type pair: rate against M = N = K for the fast kernel (d_gemm),
the naive one and cuBLAS, solid for TRANSPOSE_B=0 and dashed for
TRANSPOSE_B=1, and a dotted horizontal line at the WMMA ceiling (--peak).
Hollow markers are runs that were not verified.  The title names the GPU,
the CUDA version and the date of the measurement.

Drawn for the page's column: 648 pt = 864 CSS px wide, two panels a row and
the legend in a panel of its own at the left of the last row (a phone draws
the figure at its own 864 px in a box that scrolls, and shows its left 343 px
first), text at least 9.5 pt (12.7 px).  themed() gives
the SVG a dark variant: its colours become CSS variables that a
prefers-color-scheme rule inside the SVG changes, as the page's own colours do
(docs/style.css); steps.py uses it too.

Usage: python3 docs/bench/plot.py [CSV] [-o SVG]
       (defaults: the canonical run's CSV, docs/bench/records.py; SVG beside it)
Reads the CSV with the csv module; needs matplotlib (Agg backend).
"""

import argparse
import csv
import glob
import io
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import records  # noqa: E402  the canonical run's CSVs
TYPE_PAIRS = ("F16_IN_F32_OUT", "F16_IN_OUT", "BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "F64_IN_OUT",
              "I8_IN_I32_OUT", "U8_IN_I32_OUT")
KERNEL_STYLE = {  # label, colour
    "fast": ("d_gemm (fast)", "#1f77b4"),
    "cublas": ("cuBLAS", "#2ca02c"),
    "naive": ("d_gemm_naive", "#d62728"),
}
TB_STYLE = {"0": "-", "1": "--"}
WIDTH_IN = 9.0        # 648 pt = 864 px: the page's column (docs/style.css --column, 54rem)
TEXT_PT = 9.5         # the smallest text: >= 10 px at 1x on a phone (44rem = 704 px wide)

# Every colour matplotlib writes, and what it becomes on a dark page (the page's --bg,
# --fg and --muted; the series colours lightened to keep their hue and reach 4.5:1).
DARK = {
    "#ffffff": "#15171b", "#000000": "#e2e5e9", "#555555": "#a0a8b3", "#b0b0b0": "#59606b", "#cccccc": "#4a505a",
    "#1f77b4": "#6cb4ee", "#ff7f0e": "#ffa65c", "#2ca02c": "#67cf67", "#d62728": "#ff7b7b",
    "#9467bd": "#c4a3e6", "#8c564b": "#d3a08f", "#e377c2": "#f3a6da", "#7f7f7f": "#b8b8b8",
    "#bcbd22": "#dcdd5a", "#17becf": "#5fdcea",
}


def themed(svg_text):
    """The SVG with its colours as CSS variables (the light colour as fallback), text
    coloured like the axes, and a prefers-color-scheme rule for the dark values."""
    def variable(match):
        colour = match.group(0).lower()
        if colour not in DARK:
            return match.group(0)
        return "var(--c%s, %s)" % (colour[1:], colour)

    svg_text = re.sub(r'style="[^"]*"',
                      lambda m: re.sub(r"#[0-9a-fA-F]{6}\b", variable, m.group(0)), svg_text)
    dark = " ".join("--c%s: %s;" % (light[1:], colour) for light, colour in sorted(DARK.items()))
    style = ("text { fill: var(--c000000, #000000); }\n"
             "@media (prefers-color-scheme: dark) { :root { %s } }\n" % dark)
    return svg_text.replace("<style type=\"text/css\">", "<style type=\"text/css\">" + style, 1)


def save_themed(figure, svg_path):
    """Write the figure as a themed SVG, through a temporary file (never half a file). The figure and its axes have
    no background: the page's shows through, and so do the shadows of the box that scrolls it on a phone."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None}, transparent=True)
    directory = os.path.dirname(os.path.abspath(svg_path))
    os.makedirs(directory, exist_ok=True)
    temporary = svg_path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(themed(buffer.getvalue()))
    os.replace(temporary, svg_path)


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def read_rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def label_spot(drawn, ceiling, top, x_end, chars):
    """Where the ceiling's label (chars long) meets no drawn line, in a panel whose axes end at x_end and top:
    (x in axes fraction, 'bottom' to sit on the ceiling's line or 'top' to hang under it); the first if none is."""
    width, height = 0.021 * chars + 0.02, 0.1   # a 9.5 pt character in a panel about 3.1 by 2 inches
    level = ceiling / top
    candidates = [(0.02, "bottom"), (0.02, "top"), (0.96 - width, "bottom"), (0.96 - width, "top"),
                  (0.5 - width / 2, "bottom"), (0.5 - width / 2, "top")]
    for x0, va in candidates:
        low, high = (level, level + height) if va == "bottom" else (level - height, level)
        if low < 0 or high > 1:
            continue
        crossed = False
        for xs, ys in drawn:
            for i in range(41):
                x = (x0 + width * i / 40) * x_end
                if len(xs) < 2 or not xs[0] <= x <= xs[-1]:
                    continue
                j = min(k for k in range(len(xs) - 1) if x <= xs[k + 1])
                y = (ys[j] + (ys[j + 1] - ys[j]) * (x - xs[j]) / (xs[j + 1] - xs[j])) / top
                crossed = crossed or low - 0.02 <= y <= high + 0.02
        if not crossed:
            return x0, va
    return candidates[0]


def plot(csv_path, svg_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    matplotlib.rcParams["svg.hashsalt"] = "gemm-bench"  # stable ids: diffs only when data change
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    rows = [r for r in read_rows(csv_path) if not r.get("variant")]   # the full tiles: not --tiers' rows
    if not rows:
        raise ValueError("%s has no rows" % csv_path)
    present = []
    for row in rows:
        if row.get("type") and row["type"] not in present:
            present.append(row["type"])
    types = [t for t in TYPE_PAIRS if t in present] + [t for t in present if t not in TYPE_PAIRS]
    # two panels a row; the legend takes the first panel of the last row, at the left, where a phone shows it
    # before the figure is scrolled sideways (the page shows figures at their width, in a box that scrolls)
    columns = min(2, len(types))
    lines_of_panels = math.ceil((len(types) + 1) / columns)
    legend_cell = (lines_of_panels - 1) * columns
    type_cells = [cell for cell in range(lines_of_panels * columns) if cell != legend_cell][:len(types)]
    figure, axes = plt.subplots(lines_of_panels, columns,
                                figsize=(WIDTH_IN, 2.75 * lines_of_panels + 0.45), squeeze=False)
    sizes_all = set()
    multi_shape = set()
    x_end = max([int(r["m"]) for r in rows if r.get("m", "").isdigit()] or [1]) * 1.04   # the x axis's right end
    markers = ("o", "s", "^")
    for index, type_pair in enumerate(types):
        axis = axes[type_cells[index] // columns][type_cells[index] % columns]
        mine = [r for r in rows if r.get("type") == type_pair]
        drawn = []   # every line's points, for the ceiling's label to keep clear of
        shapes = sorted(set(r.get("mnk", "") for r in mine if r.get("kernel") != "peak"))
        unit = next((r.get("unit") for r in mine if r.get("unit")), "")
        for kernel in ("fast", "cublas", "naive"):
            label, colour = KERNEL_STYLE[kernel]
            for shape in shapes:
                for tb in ("0", "1"):
                    points = sorted((int(r["m"]), number(r["rate"]), r.get("verify", ""), r.get("result", ""))
                                    for r in mine
                                    if r.get("kernel") == kernel and r.get("mnk", "") == shape
                                    and str(r.get("transpose_b")) == tb and number(r.get("rate")) is not None
                                    and r.get("m") and r.get("m") == r.get("n") == r.get("k"))
                    if not points:
                        continue
                    xs = [p[0] for p in points]
                    ys = [p[1] for p in points]
                    sizes_all.update(xs)
                    marker = markers[shapes.index(shape) % 3]
                    axis.plot(xs, ys, TB_STYLE[tb], color=colour, marker=marker, markersize=4, linewidth=1.5)
                    drawn.append((xs, ys))
                    hollow = [(p[0], p[1]) for p in points if kernel != "cublas" and p[2] == "off"]
                    if hollow:
                        axis.plot([h[0] for h in hollow], [h[1] for h in hollow], linestyle="none", marker=marker,
                                  markersize=4, color=colour, markerfacecolor="white")
        peaks = [(row.get("mnk", ""), number(row["rate"])) for row in mine
                 if row.get("kernel") == "peak" and number(row.get("rate")) is not None]
        for value in sorted(set(p[1] for p in peaks)):
            axis.axhline(value, color="#555555", linestyle=":", linewidth=1.2)
        if len(peaks) == 1:
            text = "WMMA ceiling %.0f" % peaks[0][1]
        elif peaks:
            text = "WMMA ceilings " + ", ".join("%s %.0f" % p for p in peaks)
        tops = [number(r.get("rate")) for r in mine if number(r.get("rate")) is not None]
        top = max(tops) * 1.12 if tops else 1.0
        if peaks:
            x, va = label_spot(drawn, max(p[1] for p in peaks), top, x_end, len(text))
            axis.annotate(text, xy=(x, max(p[1] for p in peaks)), xycoords=("axes fraction", "data"),
                          va=va, fontsize=TEXT_PT, color="#555555", zorder=5,   # over the lines it meets
                          bbox=dict(boxstyle="square,pad=0.15", facecolor="#ffffff", edgecolor="none"))
        if len(shapes) > 1:
            multi_shape.update(shapes)
        axis.set_ylim(0, top)
        title = type_pair if len(shapes) < 2 else "%s (%s)" % (type_pair, ", ".join(shapes))
        axis.set_title(title, fontsize=11)
        axis.set_ylabel(unit, fontsize=TEXT_PT)
        axis.grid(True, linewidth=0.3, alpha=0.6)
        axis.tick_params(labelsize=TEXT_PT)
    ticks = sorted(sizes_all)
    for index in range(lines_of_panels * columns):
        axis = axes[index // columns][index % columns]
        if index not in type_cells:
            axis.axis("off")
            continue
        if ticks:
            axis.set_xticks(ticks)
            # a label for every tick, a line lower where it is too close to the one before (5000 beside 4096)
            shown, last = [], None
            for tick in ticks:
                keep = last is None or tick - last >= max(ticks) / 9
                shown.append(str(tick) if keep else "\n" + str(tick))   # too close: a line lower
                last = tick if keep else last
            axis.set_xticklabels(shown, fontsize=TEXT_PT)
            axis.set_xlim(0, max(ticks) * 1.04)
        if index + columns not in type_cells:   # no panel below this one
            axis.set_xlabel("M = N = K", fontsize=TEXT_PT)

    first = rows[0]
    gpu = (first.get("gpu") or "unknown GPU").replace("_", " ")
    details = []
    if first.get("cc"):
        details.append("cc %s" % first["cc"])
    if first.get("sms"):
        details.append("%s SMs" % first["sms"])
    if first.get("cuda"):
        details.append("CUDA %s" % first["cuda"])
    if first.get("driver"):
        details.append("driver %s" % first["driver"])
    date = (first.get("date") or "")[:10]
    figure.suptitle("WMMA GEMM on %s%s — %s" % (gpu, " (%s)" % ", ".join(details) if details else "", date),
                    fontsize=11)
    handles = [Line2D([], [], color=colour, marker="o", markersize=4, label=label)
               for label, colour in (KERNEL_STYLE[k] for k in ("fast", "cublas", "naive"))]
    handles += [Line2D([], [], color="#555555", linestyle=":", label="WMMA ceiling (--peak)"),
                Line2D([], [], color="black", linestyle="-", label="TRANSPOSE_B=0"),
                Line2D([], [], color="black", linestyle="--", label="TRANSPOSE_B=1"),
                Line2D([], [], color="black", marker="o", linestyle="none", markerfacecolor="white",
                       label="not verified")]
    for position, shape in enumerate(sorted(multi_shape)):
        handles.append(Line2D([], [], color="black", marker=markers[position % 3], linestyle="none",
                              label="shape %s" % shape))
    legend_axis = axes[legend_cell // columns][legend_cell % columns]
    legend_axis.legend(handles=handles, loc="center left", borderaxespad=0, fontsize=TEXT_PT, frameon=False)
    height = figure.get_figheight()
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.4 / height))
    save_themed(figure, svg_path)
    plt.close(figure)
    return svg_path


def default_csv():
    preferred = os.path.join(os.path.dirname(os.path.dirname(HERE)), records.BENCH)
    if os.path.exists(preferred):
        return preferred
    found = sorted(glob.glob(os.path.join(HERE, "*.csv")))
    return found[0] if len(found) == 1 else preferred


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot docs/bench/<gpu>.csv as an SVG.")
    parser.add_argument("csv", nargs="?", default=None,
                        help="benchmark CSV (default: the canonical run's, %s)" % records.BENCH)
    parser.add_argument("-o", "--output", default=None, help="SVG to write (default: the CSV's name with .svg)")
    args = parser.parse_args(argv)
    csv_path = args.csv or default_csv()
    if not os.path.exists(csv_path):
        print("plot: no CSV at %s (run make bench)" % csv_path, file=sys.stderr)
        return 2
    svg_path = args.output or os.path.splitext(csv_path)[0] + ".svg"
    try:
        plot(csv_path, svg_path)
    except ImportError as error:
        print("plot: matplotlib is needed: %s" % error, file=sys.stderr)
        return 3
    except (ValueError, KeyError) as error:
        print("plot: %s: %s" % (csv_path, error), file=sys.stderr)
        return 1
    print("plot: wrote %s" % svg_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
