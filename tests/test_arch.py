"""Builds for every GPU architecture (gemm.md, "Tile sizes per GPU"; Makefile, ARCH).

No GPU is needed: nvcc compiles each type pair for every architecture from Turing
(sm_75) to Blackwell (sm_120) with -Xptxas -v, and the tests check that

* every type pair compiles, with no spills, for each architecture it runs on:
  sm_75 for the 16-bit and 8-bit type pairs, sm_80, 86, 89, 90, 100 and 120 for all;
* bf16, tf32 and f64 built for sm_75 stop at the #error that says why;
* ARCH takes nvcc's spellings (90, sm_90, 9.0, 90a, compute_80) and refuses
  architectures the program does not build for, with a message;
* plain make on a machine without a GPU builds every family, without sm_75
  for the type pairs that need sm_80;
* with STEPS=1 (WITH_STEPS), the seven steps of d_gemm compile for every tile
  configuration, with no spills, on the three code paths: sm_75 (plain loads),
  sm_80 (cp.async) and sm_90 (the copy engine from step 5); the other
  architectures compile the same source as one of these.

They skip when nvcc is missing.
"""

import concurrent.futures
import os
import re
import subprocess
import tempfile
import unittest

from test_build import NVCC, GEMM_CU, COMPILE_TIMEOUT_S, makefile_nvcc_flags, parse_ptxas_report, run, tail

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHS = ("75", "80", "86", "89", "90", "100", "120")
SM80_TYPES = ("BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "F64_IN_OUT")
DEFAULT_SHAPE = {"TF32_IN_F32_OUT": "MNK_16x16x8", "F64_IN_OUT": "MNK_8x8x4"}
TYPE_PAIRS = ("F16_IN_F32_OUT", "F16_IN_OUT", "U8_IN_I32_OUT", "I8_IN_I32_OUT") + SM80_TYPES
TILES = {"F16_IN_F32_OUT": 4, "BF16_IN_F32_OUT": 4, "F16_IN_OUT": 3, "U8_IN_I32_OUT": 2,   # tile configurations
         "I8_IN_I32_OUT": 2, "TF32_IN_F32_OUT": 2, "F64_IN_OUT": 2}
STEP_ARCHS = ("75", "80", "90")   # plain loads, cp.async, the copy engine: every code path of the steps
STEPS = 7


def defines(type_pair, transpose_b=0):
    return ["-DCONFIG_ON_COMMAND_LINE", "-D" + type_pair, "-D" + DEFAULT_SHAPE.get(type_pair, "MNK_16x16x16"),
            "-DTRANSPOSE_A=0", "-DTRANSPOSE_B=%d" % transpose_b]


def compile_type_pairs(directory, archs, extra=()):
    """{type pair: (exit status, nvcc and ptxas output, architectures)}: every type pair compiled with -Xptxas -v
    for `archs` (without sm_75 for the type pairs that need sm_80), in parallel."""
    flags = makefile_nvcc_flags() + ["-Xptxas", "-v"] + list(extra)

    def build(type_pair):
        chosen = [a for a in archs if not (a == "75" and type_pair in SM80_TYPES)]
        gencode = sum((["-gencode", "arch=compute_%s,code=sm_%s" % (a, a)] for a in chosen), [])
        out = os.path.join(directory, type_pair + ".o")
        code, stdout, stderr = run([NVCC, "-c"] + flags + gencode + defines(type_pair) + [str(GEMM_CU), "-o", out],
                                   timeout=COMPILE_TIMEOUT_S)
        return type_pair, (code, stdout + stderr, chosen)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        return dict(pool.map(build, TYPE_PAIRS))


def spilling_functions(results):
    """{type pair: {function: (spill stores, spill loads)}} for the functions that spill; asserts a ptxas report."""
    spilling = {}
    for type_pair, (code, output, _) in results.items():
        report = parse_ptxas_report(output) if code == 0 else {}
        assert report or code != 0, "%s: no ptxas report" % type_pair
        bad = {name: spill for name, spill in report.items() if spill != (0, 0)}
        if bad:
            spilling[type_pair] = bad
    return spilling


def make_print(*arguments):
    return run(["make", "-s", "--no-print-directory", "-C", ROOT, "print-gencode"] + list(arguments), timeout=60)


@unittest.skipIf(NVCC is None, "nvcc not found (not on PATH, no /usr/local/cuda/bin/nvcc)")
class EveryArchitecture(unittest.TestCase):
    results = {}

    @classmethod
    def setUpClass(cls):
        if not GEMM_CU.exists():
            raise unittest.SkipTest("out/gemm.cu is missing")
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-arch-")
        cls.results = compile_type_pairs(cls.tmp.name, ARCHS)

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "tmp"):
            cls.tmp.cleanup()

    def test_every_type_pair_compiles_for_every_architecture(self):
        failed = {t: tail(output, 4) for t, (code, output, _) in self.results.items() if code != 0}
        self.assertEqual(failed, {}, "type pairs that do not compile for %s" % ", ".join(ARCHS))

    def test_no_spills_on_any_architecture(self):
        self.assertEqual(spilling_functions(self.results), {}, "functions that spill")

    def test_every_tile_configuration_for_every_architecture(self):
        """ptxas reports d_gemm<TILE> once per tile configuration and architecture."""
        for type_pair, (code, output, archs) in self.results.items():
            if code != 0:
                continue
            entries = re.findall(r"Compiling entry function '_Z6d_gemmILi\d+ELi7EE\S*' for 'sm_(\d+)'", output)
            self.assertEqual(len(entries), TILES[type_pair] * len(archs), "%s: d_gemm entries %s" % (type_pair, entries))

    def test_sm80_type_pairs_refuse_sm75(self):
        for type_pair in SM80_TYPES:
            code, out, err = run([NVCC, "-c", "-gencode", "arch=compute_75,code=sm_75"] + makefile_nvcc_flags()
                                 + defines(type_pair) + [str(GEMM_CU), "-o", os.devnull], timeout=COMPILE_TIMEOUT_S)
            self.assertNotEqual(code, 0, "%s built for sm_75" % type_pair)
            self.assertIn("bf16, tf32 and f64 need sm_80", out + err, tail(out + err, 4))
            self.assertIn("gemm.md", out + err, "the #error points into gemm.md")


class ArchSpellings(unittest.TestCase):
    """The Makefile's ARCH: nvcc's spellings, PTX-only words, and refusals."""

    def gencode(self, *arguments):
        code, out, err = make_print(*arguments)
        self.assertEqual(code, 0, err)
        return out.split()

    def test_spellings_of_one_architecture(self):
        want = ["-gencode", "arch=compute_90a,code=sm_90a", "-gencode", "arch=compute_90,code=compute_90"]
        for spelling in ("90", "sm_90", "9.0"):
            self.assertEqual(self.gencode("ARCH=" + spelling), want, spelling)
        self.assertEqual(self.gencode("ARCH=90a"), want, "90a: the same; its PTX is plain compute_90's")

    def test_the_maps_build_line_is_makes(self):
        """The map atop out/gemm.cu spells the nvcc command of `make ARCH=90`: its -gencode pairs, so that a
        reader who builds by hand gets the sm_90a code d_gemm_hopper needs."""
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            line = next(l for l in handle if l.lstrip(" *").startswith("nvcc -O3 "))
        words = line.split()
        pairs = [words[i] + " " + words[i + 1] for i, w in enumerate(words[:-1]) if w == "-gencode"]
        want = self.gencode("ARCH=90")
        self.assertEqual(pairs, [want[i] + " " + want[i + 1] for i in range(0, len(want), 2)], line.strip())

    def test_ptx_only(self):
        self.assertEqual(self.gencode("ARCH=compute_80"), ["-gencode", "arch=compute_80,code=compute_80"])

    def test_several(self):
        self.assertEqual(self.gencode("ARCH=80 sm_86 8.9"),
                         ["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_86,code=sm_86",
                          "-gencode", "arch=compute_89,code=sm_89", "-gencode", "arch=compute_89,code=compute_89"])

    def test_refused(self):
        for bad in ("70", "sm_61", "banana", ""):
            code, out, err = make_print("ARCH=" + bad)
            self.assertNotEqual(code, 0, "ARCH=%r accepted" % bad)
            self.assertRegex(err, r"ARCH", "ARCH=%r: no message naming ARCH" % bad)

    def test_default_without_a_gpu(self):
        """Without a GPU (PATH without nvidia-smi) make builds every family; sm_80 type pairs start at sm_80."""
        env = dict(os.environ, PATH=os.path.dirname(NVCC or "/usr/bin") + os.pathsep + "/usr/bin:/bin")
        for type_pair, first in (("F16_IN_F32_OUT", "75"), ("BF16_IN_F32_OUT", "80"), ("F64_IN_OUT", "80")):
            result = subprocess.run(["make", "-s", "--no-print-directory", "-C", ROOT, "print-gencode",
                                     "TYPE=" + type_pair], env=env, capture_output=True, text=True, timeout=60)
            self.assertEqual(result.returncode, 0, result.stderr)
            archs = re.findall(r"code=sm_(\d+)", result.stdout)
            self.assertEqual(archs[0], first, "%s: %s" % (type_pair, result.stdout))
            self.assertEqual(set(archs), set(ARCHS) - ({"75"} if first == "80" else set()), result.stdout)
            self.assertIn("code=compute_120", result.stdout, "PTX for the newest, for GPUs after it")





@unittest.skipIf(NVCC is None, "nvcc not found (not on PATH, no /usr/local/cuda/bin/nvcc)")
class EveryStep(unittest.TestCase):
    """make STEPS=1: d_gemm<TILE, STEP> for every step, tile configuration and code path, with no spills."""
    results = {}

    @classmethod
    def setUpClass(cls):
        if not GEMM_CU.exists():
            raise unittest.SkipTest("out/gemm.cu is missing")
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-steps-")
        cls.results = compile_type_pairs(cls.tmp.name, STEP_ARCHS, ["-DWITH_STEPS=1"])

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "tmp"):
            cls.tmp.cleanup()

    def test_every_step_compiles(self):
        failed = {t: tail(output, 4) for t, (code, output, _) in self.results.items() if code != 0}
        self.assertEqual(failed, {}, "type pairs whose steps do not compile")

    def test_every_step_of_every_tile_configuration(self):
        for type_pair, (code, output, archs) in self.results.items():
            if code != 0:
                continue
            entries = re.findall(r"Compiling entry function '_Z6d_gemmILi(\d+)ELi(\d+)EE\S*' for 'sm_(\d+)'", output)
            want = {(str(tile), str(step), arch) for tile in range(TILES[type_pair])
                    for step in range(1, STEPS + 1) for arch in archs}
            self.assertEqual(set(entries), want, "%s: d_gemm<TILE, STEP> entries" % type_pair)

    def test_no_step_spills(self):
        self.assertEqual(spilling_functions(self.results), {}, "steps that spill")


@unittest.skipIf(NVCC is None, "nvcc not found (not on PATH, no /usr/local/cuda/bin/nvcc)")
class Hopper(unittest.TestCase):
    """d_gemm_hopper (gemm.md, "Past WMMA"): built for sm_90a it has wgmma for every type pair but f64 (which has
    mma.sync m16n8k16), setmaxnreg and B multicast, in both layouts of each operand (B as stored; A and B
    transposed), and no spills within its 168 registers."""
    LAYOUTS = ((0, 0), (1, 1))

    @classmethod
    def setUpClass(cls):
        if not GEMM_CU.exists():
            raise unittest.SkipTest("out/gemm.cu is missing")
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-hopper-")
        flags = makefile_nvcc_flags() + ["-Xptxas", "-v", "-gencode", "arch=compute_90a,code=sm_90a"]

        def build(job):
            type_pair, (ta, tb) = job
            keep = os.path.join(cls.tmp.name, "%s_%d%d" % (type_pair, ta, tb))
            os.makedirs(keep)
            config = defines(type_pair, tb)
            config[config.index("-DTRANSPOSE_A=0")] = "-DTRANSPOSE_A=%d" % ta
            code, stdout, stderr = run([NVCC, "-c", "-keep", "-keep-dir", keep] + flags + config
                                       + [str(GEMM_CU), "-o", os.path.join(keep, "gemm.o")], timeout=COMPILE_TIMEOUT_S)
            ptx = "".join(open(os.path.join(keep, name)).read() for name in os.listdir(keep) if name.endswith(".ptx"))
            return job, (code, stdout + stderr, ptx)

        jobs = [(t, layout) for t in TYPE_PAIRS for layout in cls.LAYOUTS] + [("TF32_IN_F32_OUT", (0, 1))]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            cls.results = dict(pool.map(build, jobs))

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "tmp"):
            cls.tmp.cleanup()

    @staticmethod
    def kernel_ptx(ptx):
        """The PTX of d_gemm_hopper's entry, up to the next entry."""
        start = ptx.find(".entry _Z13d_gemm_hopper")
        end = ptx.find(".entry", start + 1)
        return "" if start < 0 else ptx[start:end if end > 0 else len(ptx)]

    def test_compiles_for_sm90a(self):
        failed = {job: tail(output, 4) for job, (code, output, _) in self.results.items() if code != 0}
        self.assertEqual(failed, {}, "configurations that do not compile for sm_90a")

    def test_tensor_core_instruction_of_every_type_pair(self):
        for (type_pair, layout), (code, _, ptx) in self.results.items():
            if code != 0:
                continue
            kernel = self.kernel_ptx(ptx)
            self.assertTrue(kernel, "%s %s: no d_gemm_hopper in the PTX" % (type_pair, layout))
            wgmma = re.findall(r"wgmma\.mma_async\.sync\.aligned\.(\S+)", kernel)
            if type_pair == "F64_IN_OUT":   # no wgmma for f64: sm_90's largest f64 mma.sync instead
                self.assertEqual(wgmma, [], "f64 has no wgmma")
                self.assertIn("mma.sync.aligned.m16n8k16.row.col.f64", kernel, "%s: no m16n8k16 mma.sync" % (layout,))
            else:
                self.assertTrue(wgmma, "%s %s: no wgmma in d_gemm_hopper" % (type_pair, layout))
            self.assertIn("setmaxnreg", kernel, "%s %s: no setmaxnreg" % (type_pair, layout))
            self.assertIn("multicast::cluster", kernel, "%s %s: B is not multicast" % (type_pair, layout))

    def test_tf32_loads_its_mn_major_operand_into_registers(self):
        """tf32's wgmma reads shared memory K-major only. With B as stored the operands swap roles and B, with
        A transposed A itself, is the instruction's A operand, loaded into registers; with A as stored and B
        transposed both operands are descriptors."""
        form = re.compile(r"wgmma\.mma_async\.sync\.aligned\.\S+\s+\{[^}]*\},\s*([{%])")
        for layout, registers in (((0, 0), True), ((1, 1), True), ((0, 1), False)):
            code, _, ptx = self.results[("TF32_IN_F32_OUT", layout)]
            if code != 0:
                continue
            forms = set(form.findall(self.kernel_ptx(ptx)))
            self.assertEqual(forms, {"{" if registers else "%"},
                             "tf32 %s: A's operand should be %s" % (layout, "registers" if registers else "a descriptor"))

    def test_tf32_register_operands_alternate_between_two_sets(self):
        """With A's role in registers a consumer still keeps one wgmma group in flight, which reads its registers
        until it completes, so consecutive slabs load into two sets: in every d_gemm_hopper entry the register
        form appears in two copies of a slab's 32 / 8 = 4 K steps, each wgmma with registers of its own. One
        copy (a single set, rewritten while its group runs) gave wrong results on an H100."""
        wgmma = re.compile(r"wgmma\.mma_async\.sync\.aligned\.\S+\s+\{[^}]*\},\s*\{([^}]*)\}")
        for layout in ((0, 0), (1, 1)):
            code, _, ptx = self.results[("TF32_IN_F32_OUT", layout)]
            if code != 0:
                continue
            entries = [part for part in ptx.split(".entry ")[1:] if part.startswith("_Z13d_gemm_hopper")]
            self.assertTrue(entries, "tf32 %s: no d_gemm_hopper entry" % (layout,))
            for entry in entries:
                sets = [tuple(r.strip() for r in found.split(",")) for found in wgmma.findall(entry)]
                self.assertEqual((len(sets), len(set(sets))), (8, 8), "tf32 %s, %s: (register-form wgmmas, distinct "
                                 "register sets)" % (layout, entry.split("(")[0]))

    def test_no_spills(self):
        results = {"%s %s" % job: (code, output, ()) for job, (code, output, _) in self.results.items()}
        self.assertEqual(spilling_functions(results), {}, "functions that spill on sm_90a")


if __name__ == "__main__":
    unittest.main()
