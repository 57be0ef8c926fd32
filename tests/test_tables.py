"""The page's rate tables: one session's records, each table its command's output, one value per quantity.

Issue 41: every rate the page quotes comes from the CSVs of one run, and each quantity (a kernel, a type
pair, a layout of B, a size) has one value everywhere. The page has five tables of rates, each between a
marker that names the command printing it and an end marker:

    <!-- dgemm table: python3 docs/bench/bench.py --dgemm-table docs/bench/h100.csv --steps docs/bench/steps-h100.csv -->
    ...
    <!-- end of dgemm table -->

What is checked
---------------
* Each table is its command's output, and every command reads the same two records:
  the canonical run's make bench and make steps CSVs (docs/bench/records.py), one session on one GPU.
* The tables agree: d_gemm, d_gemm_hopper, cuBLAS, the naive kernel and both ceilings appear in several
  tables (the steps table's step 7 is d_gemm at 8192³, the Hopper steps table's step 8 is d_gemm_hopper);
  wherever one is quoted, it is quoted with one value (to the places the coarser quote keeps).
* The check can fail: a page with one cell changed disagrees, naming the quantity.
* bench.canonical and bench.ceilings, on made-up rows: the steps CSV wins where both measured, and a
  type pair's ceiling is the highest --peak of the session.
"""

import csv
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs", "bench"))
import bench  # noqa: E402
import records  # noqa: E402  the canonical run's CSVs
from tables import MARKER  # noqa: E402  the markers docs/bench/tables.py rewrites

RECORDS = {records.BENCH, records.STEPS}
TABLES = {"tiers", "dgemm", "steps", "hopper steps", "hopper"}
STEPS_COLUMNS = (("F16_IN_F32_OUT", ("0", "1")), ("BF16_IN_F32_OUT", ("0",)), ("TF32_IN_F32_OUT", ("0",)),
                 ("I8_IN_I32_OUT", ("0",)), ("F64_IN_OUT", ("0",)))
TIER_TYPES = {label: type_pair for label, type_pair in bench.TIER_ROWS}
NUMBER = re.compile(r"^\d+(\.\d+)?$")


def read_page():
    with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
        return handle.read().split("\n")


def marked(lines):
    """[(name, script, arguments, the non-blank lines between the markers)] in page order."""
    out = []
    for number, line in enumerate(lines):
        match = MARKER.match(line)
        if match:
            end = lines.index("<!-- end of %s table -->" % match.group(1), number)
            out.append((match.group(1), match.group(2), match.group(3).split(),
                        [l for l in lines[number + 1:end] if l.strip()]))
    return out


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def quantities(lines):
    """[(quantity, value as quoted, table)] for every rate of the five tables; a quantity is
    (kernel, type pair, B layout or '' for a ceiling, size or '' for a ceiling)."""
    out = []

    def add(kernel, type_pair, tb, size, text, table):
        if NUMBER.match(text):
            out.append(((kernel, type_pair, tb if size else "", str(size) if size else ""), text, table))

    for name, _, _, body in marked(lines):
        rows = [cells(l) for l in body if l.startswith("|") and not l.startswith("|---")][1:]
        for row in rows:
            if name in ("steps", "hopper steps"):
                kernel = {"naive": "naive", str(bench.LAST_STEP): "fast", "d_gemm": "fast", "cuBLAS": "cublas",
                          "WMMA ceiling": "peak", "ceiling": "hopper-peak"}.get(row[0])
                if name == "hopper steps":
                    # its row 7 is d_gemm_hopper's step 7, not d_gemm; its last step is d_gemm_hopper
                    kernel = {str(bench.LAST_STEP): None, str(bench.HOPPER_STEPS): "hopper"}.get(row[0], kernel)
                if kernel is None:
                    continue
                for (type_pair, layouts), text in zip(STEPS_COLUMNS, row[2:]):
                    for tb, part in zip(layouts, text.split(" / ")):
                        add(kernel, type_pair, tb, "" if kernel.endswith("peak") else 8192, part, name)
            elif name == "dgemm":
                type_pair, tb = row[0].strip("`"), "0" if row[1] == "N" else "1"
                add("naive", type_pair, tb, 4096, row[2], name)
                add("fast", type_pair, tb, 8192, row[3], name)
                add("cublas", type_pair, tb, 8192, row[5], name)
                add("peak", type_pair, tb, "", row[7], name)
            elif name == "hopper":
                type_pair, tb, size = row[0], "0" if row[1] == "as stored" else "1", row[2].rstrip("³")
                add("fast", type_pair, tb, size, row[3], name)
                add("cublas", type_pair, tb, size, row[4], name)
                add("hopper", type_pair, tb, size, row[5].split(",")[0], name)
                ceiling = re.search(r"of (\d+)$", row[7])
                if ceiling:
                    add("hopper-peak", type_pair, tb, "", ceiling.group(1), name)
            elif name == "tiers":
                for tb, part in zip("01", row[1].split(" / ")):
                    add("fast", TIER_TYPES[row[0]], tb, 8192, part, name)
    return out


def disagreements(found):
    """Quantities quoted with two values: each pair compared at the places the coarser quote keeps. Both are
    roundings of one rate, so they agree when they differ by at most half a unit of each (933.5 and 933 are
    both 933.46; 897.7 and 897 cannot be one rate)."""
    by_quantity = {}
    for key, text, table in found:
        by_quantity.setdefault(key, []).append((text, table))
    out = []
    for key, quotes in sorted(by_quantity.items()):
        for text, table in quotes[1:]:
            first, first_table = quotes[0]
            places = [len((t.split(".") + [""])[1]) for t in (text, first)]
            if abs(float(text) - float(first)) > 0.5 * 10.0 ** -places[0] + 0.5 * 10.0 ** -places[1] + 1e-9:
                out.append("%s: %s in the %s table, %s in the %s table" % (key, first, first_table, text, table))
    return out


class PageTables(unittest.TestCase):
    def setUp(self):
        self.tables = marked(read_page())

    def test_the_page_has_its_tables(self):
        self.assertEqual(sorted(name for name, _, _, _ in self.tables), sorted(TABLES))

    def test_every_table_reads_the_sessions_records(self):
        for name, _, arguments, _ in self.tables:
            self.assertEqual({a for a in arguments if a.endswith(".csv")}, RECORDS, "the %s table" % name)

    def test_each_table_is_its_commands_output(self):
        for name, script, arguments, body in self.tables:
            result = subprocess.run([sys.executable, script] + arguments, cwd=ROOT, capture_output=True,
                                    text=True, encoding="utf-8", timeout=60)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(body, [l for l in result.stdout.split("\n") if l.strip()],
                             "the %s table differs from `python3 %s %s`" % (name, script, " ".join(arguments)))

    def test_every_plot_is_drawn_from_the_records(self):
        """A figure of rates on the page is the SVG beside one of the canonical CSVs (plot.py, steps.py --plot)."""
        plots = re.findall(r"\]\((docs/bench/[\w.-]+)\.svg\)", "\n".join(read_page()))
        self.assertGreaterEqual(len(plots), 2, "the page's plots were not found")
        for plot in plots:
            self.assertIn(plot + ".csv", (records.BENCH, records.STEPS, records.SUITE),
                          "%s.svg is not drawn from the canonical run's records" % plot)

    def test_the_records_are_one_session(self):
        rows = bench.read_rows(os.path.join(ROOT, records.BENCH)) + \
            bench.read_rows(os.path.join(ROOT, records.STEPS))
        for field in ("gpu", "driver", "cuda"):
            self.assertEqual(len({r[field] for r in rows}), 1, "%s differs between the records" % field)
        self.assertEqual(len({r["date"][:10] for r in rows}), 1, "the records are from more than one day")
        suite_rows = bench.read_rows(os.path.join(ROOT, records.SUITE))   # make suite, run with them
        for field in ("gpu", "driver"):
            self.assertEqual({r[field] for r in suite_rows}, {rows[0][field]}, "the suite's %s is another" % field)
        self.assertEqual({r["date"][:10] for r in suite_rows}, {rows[0]["date"][:10]}, "the suite ran another day")

    def test_one_value_per_quantity(self):
        found = quantities(read_page())
        self.assertGreater(len(found), 150, "the tables were not read")
        self.assertEqual(disagreements(found), [])


def span(values, form="%.0f"):
    """'644 to 652', or '968' where both ends print the same."""
    low, high = form % min(values), form % max(values)
    return low if low == high else "%s to %s" % (low, high)


def prose_quotes(bench_csv, steps_csv):
    """The sentences of the prose that quote ranges of the tables' numbers, as the records make them."""
    found = bench.canonical(bench_csv, steps_csv)
    rate = lambda t, tb, size, kernel: bench.value(bench.quantity(found, t, tb, size, kernel))
    sixteen, eight = ("F16_IN_F32_OUT", "BF16_IN_F32_OUT", "F16_IN_OUT"), ("I8_IN_I32_OUT", "U8_IN_I32_OUT")
    ceiling = lambda types, kernel: [rate(t, "", "", kernel) for t in types]
    wmma = {"16": span(ceiling(sixteen, "peak")), "tf32": span(ceiling(["TF32_IN_F32_OUT"], "peak")),
            "8": span(ceiling(eight, "peak")), "f64": "%.1f" % rate("F64_IN_OUT", "", "", "peak")}
    hopper = {"16": span(ceiling(sixteen, "hopper-peak")), "tf32": span(ceiling(["TF32_IN_F32_OUT"], "hopper-peak")),
              "8": span(ceiling(eight, "hopper-peak")), "f64": "%.1f" % rate("F64_IN_OUT", "", "", "hopper-peak")}
    at = lambda types, kernel, over, size=8192, scale=100.0: [   # span() prints the ends as the tables do
        scale * rate(t, tb, size, kernel) / rate(t, tb, size, over) for t in types for tb in "01"]
    percent = lambda types, over: at(types, "fast", over)   # the dgemm table's "% of" columns
    naive = [rate(t, tb, 4096, "fast") / rate(t, tb, 4096, "naive") for t in bench.TYPE_PAIRS for tb in "01"]
    steps = {(r["type"], r["kernel"]): float(r["rate"]) for r in bench.read_rows(steps_csv)
             if r["transpose_b"] == "0" and r["m"] == "8192" and r["rate"]}
    fp16 = lambda kernel: steps[("F16_IN_F32_OUT", kernel)]
    gain = lambda kernel, before: 100.0 * fp16(kernel) / fp16(before) - 100.0
    return [
        "(int8: %.1f× `d_gemm`; fp16 +%.0f%%, %.0f TFLOP/s at 8192³)" % (
            steps[("I8_IN_I32_OUT", "hopper1")] / steps[("I8_IN_I32_OUT", "step7")], gain("hopper1", "step7"),
            fp16("hopper1")),
        "(fp16 at 8192³: +%.0f%%, %.0f TFLOP/s)." % (gain("hopper5", "hopper4"), fp16("hopper5")),
        "(fp16 at 8192³: +%.0f%%, %.0f TFLOP/s)." % (gain("hopper6", "hopper5"), fp16("hopper6")),
        "fp16 runs slower than the naive kernel (%.1f against %.1f TFLOP/s at 8192³)" % (fp16("step1"), fp16("naive")),
        "the largest step: fp16 from %.1f to %.1f TFLOP/s at 8192³." % (fp16("step3"), fp16("step4")),
        "fp16's largest step (+%.0f%%; tf32 +%.0f%%)" % tuple(
            100.0 * steps[(t, "hopper3")] / steps[(t, "hopper2")] - 100.0 for t in ("F16_IN_F32_OUT", "TF32_IN_F32_OUT")),
        "On the %s it is %s TFLOP/s for the 16-bit types, two thirds of the datasheet's 989; %s for tf32, %s TOP/s "
        "for the 8-bit types, %s for f64." % (records.GPU, wmma["16"], wmma["tf32"], wmma["8"], wmma["f64"]),
        "On the %s it is %s TFLOP/s for the 16-bit types, %s for tf32 and %s TOP/s for the 8-bit ones, against "
        "%s, %s and %s for WMMA" % (records.GPU, hopper["16"], hopper["tf32"], hopper["8"], wmma["16"], wmma["tf32"], wmma["8"]),
        "from registers: %s TFLOP/s, twice WMMA's %s" % (hopper["f64"], wmma["f64"]),
        "At 8192³ the 16-bit types reach %s%% of cuBLAS, %s times `d_gemm`; tf32 %s%%; int8 with B transposed is "
        "%.0f%% ahead, and with B as stored cuBLAS falls to %.0f TOP/s." % (
            span(at(sixteen, "hopper", "cublas"), "%.1f"), span(at(sixteen, "hopper", "fast", scale=1.0), "%.2f"),
            span(at(["TF32_IN_F32_OUT"], "hopper", "cublas")),
            100.0 * rate("I8_IN_I32_OUT", "1", 8192, "hopper") / rate("I8_IN_I32_OUT", "1", 8192, "cublas") - 100.0,
            rate("I8_IN_I32_OUT", "0", 8192, "cublas")),
        "At 4096³ `d_gemm` is %.0f (f64) to %.0f (int8) times faster than the naive kernel. At 8192³ it reaches %s%% "
        "of the f64 ceiling and %s%% of the fp16 ceiling with half accumulators, and beats cuBLAS by %.1f× on int8 "
        "with B as stored. With `float` accumulators it reaches %s%% of the ceiling and %s%% of cuBLAS; tf32 %s%%, "
        "int8 %s%%." % (
            min(naive), max(naive), span(percent(["F64_IN_OUT"], "peak")), span(percent(["F16_IN_OUT"], "peak")),
            rate("I8_IN_I32_OUT", "0", 8192, "fast") / rate("I8_IN_I32_OUT", "0", 8192, "cublas"),
            span(percent(sixteen[:2], "peak")), span(percent(sixteen[:2], "cublas")),
            span(percent(["TF32_IN_F32_OUT"], "peak")), span(percent(eight, "peak"))),
    ]


class ProseRanges(unittest.TestCase):
    """The prose's ranges of table numbers (the ceilings, d_gemm_hopper and d_gemm against cuBLAS and the
    ceiling, the steps' own rates and gains) are computed from the records: a new run that moves one fails here
    until the prose says it."""

    def test_each_range_is_the_tables(self):
        text = re.sub(r"\s+", " ", "\n".join(read_page()))
        for quote in prose_quotes(os.path.join(ROOT, records.BENCH),
                                  os.path.join(ROOT, records.STEPS)):
            self.assertTrue(quote in text, "the prose does not say, as the records do: %s" % quote)

    def test_the_check_can_fail(self):
        text = re.sub(r"\s+", " ", "\n".join(read_page())).replace("TFLOP/s for the 16-bit types, two thirds",
                                                                  "TFLOP/s for the 16-bits types, two thirds")
        quotes = prose_quotes(os.path.join(ROOT, records.BENCH), os.path.join(ROOT, records.STEPS))
        ceiling = [q for q in quotes if q.startswith("On the %s it is" % records.GPU)][0]
        self.assertFalse(ceiling in text, "a changed sentence still matched")


class Rewrite(unittest.TestCase):
    """docs/bench/tables.py, which writes every marked table from its command (after a new canonical run)."""

    def test_it_restores_a_changed_cell_and_leaves_the_page_alone(self):
        import tables
        lines = read_page()
        self.assertEqual(tables.rewritten(lines), (lines, []), "the page is not what tables.py writes")
        row = next(i for i, l in enumerate(lines) if l.startswith("| F16_IN_F32_OUT | as stored | 8192³ |"))
        stale = list(lines)
        stale[row] = stale[row].replace(" | as stored | 8192³ | ", " | as stored | 8192³ | 1", 1)
        self.assertEqual(tables.rewritten(stale), (lines, ["hopper"]))


class TheCheckCanFail(unittest.TestCase):
    def test_a_changed_cell_disagrees(self):
        lines = read_page()
        row = next(i for i, l in enumerate(lines) if l.startswith("| F16_IN_F32_OUT | as stored | 8192³ |"))
        parts = lines[row].split(" | ")
        parts[3] = "%.1f" % (float(parts[3]) + 1.0)   # d_gemm's rate in the Hopper table
        lines[row] = " | ".join(parts)
        quoted = quantities(lines)
        key = ("fast", "F16_IN_F32_OUT", "0", "8192")
        self.assertEqual(sorted(t for k, _, t in quoted if k == key), ["dgemm", "hopper", "hopper steps", "steps",
                                                                       "tiers"])
        found = disagreements(quoted)
        self.assertEqual(len(found), 1, found)
        self.assertTrue(found[0].startswith(str(key)) and found[0].endswith("in the hopper table"), found)

    def test_rounding_is_not_a_disagreement(self):
        quotes = [(("hopper-peak", "F16_IN_F32_OUT", "", ""), "897.7", "steps"),
                  (("hopper-peak", "F16_IN_F32_OUT", "", ""), "898", "hopper")]
        self.assertEqual(disagreements(quotes), [])
        self.assertEqual(len(disagreements(quotes + [(quotes[0][0], "897", "hopper")])), 1)


class Canonical(unittest.TestCase):
    def write(self, header, rows, comment=False):
        handle = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="", encoding="utf-8")
        self.addCleanup(os.unlink, handle.name)
        if comment:
            handle.write("# steps.py: made up\n")
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        handle.close()
        return handle.name

    def test_steps_win_and_the_highest_ceiling_stands(self):
        header = ("type", "transpose_b", "m", "n", "k", "kernel", "rate", "result", "variant", "hopper_peak")
        bench_csv = self.write(header, [
            ("F16_IN_F32_OUT", "0", "8192", "8192", "8192", "fast", "460.0", "pass", "", ""),
            ("F16_IN_F32_OUT", "0", "8192", "8192", "8192", "fast", "300.0", "pass", "99K", ""),   # a tier
            ("F16_IN_F32_OUT", "1", "8192", "8192", "8192", "fast", "455.0", "pass", "", ""),
            ("F16_IN_F32_OUT", "", "", "", "", "peak", "650.0", "ok", "", ""),
            ("F16_IN_F32_OUT", "", "", "", "", "hopper-peak", "850.0", "ok", "", ""),
        ])
        steps_csv = self.write(header, [
            ("F16_IN_F32_OUT", "0", "8192", "8192", "8192", "step7", "470.0", "pass", "", ""),
            ("F16_IN_F32_OUT", "0", "8192", "8192", "8192", "step6", "465.0", "pass", "", ""),
            ("F16_IN_F32_OUT", "0", "", "", "", "peak", "640.0", "ok", "", "880.0"),
        ], comment=True)
        found = bench.canonical(bench_csv, steps_csv)
        rate = lambda tb, size, kernel: bench.value(bench.quantity(found, "F16_IN_F32_OUT", tb, size, kernel))
        self.assertEqual(rate("0", 8192, "fast"), 470.0)   # the steps CSV's step 7
        self.assertEqual(rate("1", 8192, "fast"), 455.0)   # only make bench measured it
        self.assertEqual(rate("0", "", "peak"), 650.0)
        self.assertEqual(rate("1", "", "hopper-peak"), 880.0)
        self.assertEqual(bench.value(bench.quantity(bench.canonical(bench_csv), "F16_IN_F32_OUT", "0", 8192,
                                                    "fast")), 460.0)


class CeilingLabel(unittest.TestCase):
    """plot.py puts a plot's "WMMA ceiling" label where no line runs (issue 41: in the Results plot's tf32
    panel the label's box hid the cuBLAS lines that rose through it at 2048)."""

    def test_a_line_through_the_left_moves_the_label(self):
        import plot
        rising = ([1024, 2048, 4096], [70.0, 270.0, 380.0])   # through 247 near 2048, as tf32's cuBLAS
        flat = ([1024, 8192], [30.0, 150.0])                  # far under it
        self.assertEqual(plot.label_spot([flat], 247.0, 530.0, 8520.0, 16), (0.02, "bottom"))
        x, va = plot.label_spot([flat, rising], 247.0, 530.0, 8520.0, 16)
        self.assertGreater(x, 0.5, "the label stayed where the rising line crosses it")
        self.assertEqual(va, "bottom")

    def test_no_clear_spot_keeps_the_first(self):
        import plot
        everywhere = ([0, 9000], [247.0, 247.0])
        self.assertEqual(plot.label_spot([everywhere], 247.0, 530.0, 9000.0, 16), (0.02, "bottom"))


if __name__ == "__main__":
    unittest.main()
