"""The page's table of d_gemm's full tiles says what the code computes.

gemm.md, "Tile sizes per GPU", lists for each type pair the full tile (the
tile table's first row), its block tile and slab depth, and the shared
memory it takes: a range over the four layouts, since padding and the
epilogue's staging area depend on them.  A reader once worked out 204 KiB
for fp16 with A transposed where the table said 212-216.  This test builds a
small host program around out/gemm.cu for every type pair and layout, asks
tile_geometry(0) (constexpr, so no GPU is needed), and compares.

Skips when nvcc is absent, like test_build.py.
"""

import concurrent.futures
import math
import os
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from test_build import find_nvcc   # shared with the build tests

REPO = Path(__file__).resolve().parent.parent
GEMM_MD = REPO / "gemm.md"
GEMM_CU = REPO / "out" / "gemm.cu"

# The table's first column, as each name in it maps to the type pairs' macros.
PAIRS = {
    "fp16": ("F16_IN_F32_OUT", "MNK_16x16x16"),
    "bf16": ("BF16_IN_F32_OUT", "MNK_16x16x16"),
    "`F16_IN_OUT`": ("F16_IN_OUT", "MNK_16x16x16"),
    "int8": ("I8_IN_I32_OUT", "MNK_16x16x16"),
    "uint8": ("U8_IN_I32_OUT", "MNK_16x16x16"),
    "tf32": ("TF32_IN_F32_OUT", "MNK_16x16x8"),
    "f64": ("F64_IN_OUT", "MNK_8x8x4"),
}

PROBE = r"""
#define main gemm_main
#include "%s"
#undef main
int main(void)
{
    TileGeometry tile = tile_geometry(0);
    printf("%%d %%d %%d %%d\n", tile.block_m, tile.block_n, tile.block_k, tile.shared_bytes);
    return 0;
}
"""


def table_rows(text):
    """{type pair name: (block tile text, shared memory text)} from the full tiles' table."""
    start = text.index("Each type pair's largest tile, run on the H100 and H200")
    lines = text[start:].split("\n")
    header = next(i for i, line in enumerate(lines) if line.startswith("| type pair"))
    columns = [cell.strip() for cell in lines[header].strip("|").split("|")]
    rows = {}
    for line in lines[header + 2:]:
        if not line.startswith("|"):
            break
        cells = dict(zip(columns, [cell.strip() for cell in line.strip("|").split("|")]))
        for name in cells["type pair"].split(", "):
            rows[name] = (cells["block tile × `block_k`"], cells["shared memory"])
    return rows


def kib(shared_bytes):
    """Bytes as the table writes them: whole KiB, halves rounded up."""
    return int(math.floor(shared_bytes / 1024 + 0.5))


def expected_cells(results):
    """The table's cells as the code's numbers say them, from [(block_m, block_n, block_k, bytes)] of 4 layouts."""
    tiles = {(m, n, k) for m, n, k, _ in results}
    sizes = sorted({kib(b) for _, _, _, b in results})
    tile = " / ".join("%d × %d × %d" % t for t in sorted(tiles))
    shared = "%d KiB" % sizes[0] if len(sizes) == 1 else "%d–%d KiB" % (sizes[0], sizes[-1])
    return tile, shared


def mismatches(rows, measured):
    """Cells of the table that differ from what the code computes: [(pair, column, page, code)]."""
    found = []
    for name, results in sorted(measured.items()):
        tile, shared = expected_cells(results)
        page_tile, page_shared = rows[name]
        if page_tile != tile:
            found.append((name, "block tile", page_tile, tile))
        if page_shared != shared:
            found.append((name, "shared memory", page_shared, shared))
    return found


class FullTileTable(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        nvcc = find_nvcc()
        if nvcc is None:
            raise unittest.SkipTest("nvcc not found (not on PATH, no /usr/local/cuda/bin/nvcc)")
        cls.rows = table_rows(GEMM_MD.read_text(encoding="utf-8"))
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-tile-table-")
        probe = os.path.join(cls.tmp.name, "probe.cu")
        with open(probe, "w") as handle:
            handle.write(PROBE % GEMM_CU)
        jobs = [(name, ta, tb) for name in PAIRS for ta in (0, 1) for tb in (0, 1)]

        def build_and_run(job):
            name, ta, tb = job
            pair, shape = PAIRS[name]
            binary = os.path.join(cls.tmp.name, "%s_%d%d" % (pair, ta, tb))
            # PTX only: the probe runs host code, so no ptxas pass is needed.
            build = subprocess.run([nvcc, "-std=c++17", "-gencode", "arch=compute_90a,code=compute_90a",
                                    "-DCONFIG_ON_COMMAND_LINE", "-D" + pair, "-D" + shape,
                                    "-DTRANSPOSE_A=%d" % ta, "-DTRANSPOSE_B=%d" % tb,
                                    probe, "-o", binary, "-lcublas", "-lcuda"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   universal_newlines=True, timeout=600)
            if build.returncode != 0:
                return job, build.stdout
            out = subprocess.run([binary], stdout=subprocess.PIPE, universal_newlines=True, timeout=60).stdout
            return job, tuple(int(x) for x in out.split())

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            cls.results = dict(pool.map(build_and_run, jobs))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_probes_built(self):
        failed = {job: out for job, out in self.results.items() if isinstance(out, str)}
        self.assertEqual(failed, {}, "the probe did not build")

    def test_every_pair_is_in_the_table(self):
        self.assertEqual(sorted(self.rows), sorted(PAIRS))

    def test_table_is_what_the_code_computes(self):
        measured = {name: [self.results[(name, ta, tb)] for ta in (0, 1) for tb in (0, 1)] for name in PAIRS}
        self.assertFalse(any(isinstance(r, str) for rs in measured.values() for r in rs), "a probe did not build")
        self.assertEqual(mismatches(self.rows, measured), [])

    def test_a_wrong_cell_is_reported(self):
        """The comparison can fail: one range off by a KiB, one tile off by its depth."""
        measured = {"fp16": [(256, 128, 64, 204 * 1024 + 100), (256, 128, 64, 216 * 1024 + 100)]}
        rows = {"fp16": ("256 × 128 × 64", "205–216 KiB")}
        self.assertEqual(mismatches(rows, measured), [("fp16", "shared memory", "205–216 KiB", "204–216 KiB")])
        rows = {"fp16": ("256 × 128 × 32", "204–216 KiB")}
        self.assertEqual(mismatches(rows, measured), [("fp16", "block tile", "256 × 128 × 32", "256 × 128 × 64")])
        self.assertEqual(kib(148.5 * 1024), 149)


if __name__ == "__main__":
    unittest.main()
