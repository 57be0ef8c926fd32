#!/usr/bin/env python3
"""Plot a benchmark CSV written by docs/bench/bench.py as an SVG.

One panel per type pair: rate against M = N = K for the fast kernel (d_gemm),
the naive one and cuBLAS, solid for TRANSPOSE_B=0 and dashed for
TRANSPOSE_B=1, and a dotted horizontal line at the WMMA ceiling (--peak).
Hollow markers are runs that were not verified.  The title names the GPU,
the CUDA version and the date of the measurement.

Usage: python3 docs/bench/plot.py [CSV] [-o SVG]
       (defaults: docs/bench/h100.csv, or the only CSV there; SVG beside it)
Reads the CSV with the csv module; needs matplotlib (Agg backend).
"""

import argparse
import csv
import glob
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TYPE_PAIRS = ("F16_IN_F32_OUT", "F16_IN_OUT", "BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "F64_IN_OUT",
              "I8_IN_I32_OUT", "U8_IN_I32_OUT")
KERNEL_STYLE = {  # label, colour
    "fast": ("d_gemm (fast)", "#1f77b4"),
    "cublas": ("cuBLAS", "#2ca02c"),
    "naive": ("d_gemm_naive", "#d62728"),
}
TB_STYLE = {"0": "-", "1": "--"}


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def read_rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def plot(csv_path, svg_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    matplotlib.rcParams["svg.hashsalt"] = "gemm-bench"  # stable ids: diffs only when data change
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    rows = read_rows(csv_path)
    if not rows:
        raise ValueError("%s has no rows" % csv_path)
    present = []
    for row in rows:
        if row.get("type") and row["type"] not in present:
            present.append(row["type"])
    types = [t for t in TYPE_PAIRS if t in present] + [t for t in present if t not in TYPE_PAIRS]
    columns = min(4, len(types))
    lines_of_panels = math.ceil(len(types) / columns)
    figure, axes = plt.subplots(lines_of_panels, columns, figsize=(4.2 * columns, 3.4 * lines_of_panels + 0.9),
                                squeeze=False)
    sizes_all = set()
    multi_shape = set()
    markers = ("o", "s", "^")
    for index, type_pair in enumerate(types):
        axis = axes[index // columns][index % columns]
        mine = [r for r in rows if r.get("type") == type_pair]
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
        if peaks:
            axis.annotate(text, xy=(0.02, max(p[1] for p in peaks)), xycoords=("axes fraction", "data"),
                          va="bottom", fontsize=7, color="#555555")
        if len(shapes) > 1:
            multi_shape.update(shapes)
        tops = [number(r.get("rate")) for r in mine if number(r.get("rate")) is not None]
        if tops:
            axis.set_ylim(0, max(tops) * 1.12)
        title = type_pair if len(shapes) < 2 else "%s (%s)" % (type_pair, ", ".join(shapes))
        axis.set_title(title, fontsize=10)
        axis.set_ylabel(unit, fontsize=8)
        axis.grid(True, linewidth=0.3, alpha=0.6)
        axis.tick_params(labelsize=7)
    ticks = sorted(sizes_all)
    for index in range(lines_of_panels * columns):
        axis = axes[index // columns][index % columns]
        if index >= len(types):
            axis.axis("off")
            continue
        if ticks:
            axis.set_xticks(ticks)
            axis.set_xticklabels([str(t) for t in ticks], rotation=45, fontsize=7)
            axis.set_xlim(0, max(ticks) * 1.04)
        if index // columns == lines_of_panels - 1 or index + columns >= len(types):
            axis.set_xlabel("M = N = K", fontsize=8)

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
                    fontsize=12)
    handles = [Line2D([], [], color=colour, marker="o", markersize=4, label=label)
               for label, colour in (KERNEL_STYLE[k] for k in ("fast", "cublas", "naive"))]
    handles += [Line2D([], [], color="#555555", linestyle=":", label="WMMA ceiling (mma_sync from registers)"),
                Line2D([], [], color="black", linestyle="-", label="TRANSPOSE_B=0"),
                Line2D([], [], color="black", linestyle="--", label="TRANSPOSE_B=1"),
                Line2D([], [], color="black", marker="o", linestyle="none", markerfacecolor="white",
                       label="not verified")]
    for position, shape in enumerate(sorted(multi_shape)):
        handles.append(Line2D([], [], color="black", marker=markers[position % 3], linestyle="none",
                              label="shape %s" % shape))
    per_row = max(3, min(len(handles), 2 * columns))
    legend_rows = math.ceil(len(handles) / per_row)
    height = figure.get_figheight()
    figure.legend(handles=handles, loc="lower center", ncol=per_row, fontsize=8, frameon=False)
    figure.tight_layout(rect=(0, min(0.4, (0.1 + 0.22 * legend_rows) / height), 1, 1 - 0.45 / height))
    directory = os.path.dirname(os.path.abspath(svg_path))
    os.makedirs(directory, exist_ok=True)
    temporary = svg_path + ".tmp"
    figure.savefig(temporary, format="svg", metadata={"Date": None})
    plt.close(figure)
    os.replace(temporary, svg_path)
    return svg_path


def default_csv():
    preferred = os.path.join(HERE, "h100.csv")
    if os.path.exists(preferred):
        return preferred
    found = sorted(glob.glob(os.path.join(HERE, "*.csv")))
    return found[0] if len(found) == 1 else preferred


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot docs/bench/<gpu>.csv as an SVG.")
    parser.add_argument("csv", nargs="?", default=None, help="benchmark CSV (default docs/bench/h100.csv)")
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
