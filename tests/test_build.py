"""Build tests: every configuration of out/gemm.cu compiles, every invalid one
stops with the documented #error, and the Makefile's overrides work.

No GPU is needed: these tests only run nvcc (and make).  They skip when nvcc
is not installed.  Compilations run in parallel, once per class, in
setUpClass; each test method then checks one result, so a failure names the
configuration that broke.
"""

import concurrent.futures
import contextlib
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GEMM_CU = REPO / "out" / "gemm.cu"

COMPILE_TIMEOUT_S = 1200   # one nvcc -c of the whole program, slow machines included
PREPROCESS_TIMEOUT_S = 300
MAKE_TIMEOUT_S = 2400      # a real make of one configuration for every default arch

# --- the configuration space (the contract, /tmp/gemm_contract.md) -----------

SHAPES_16_8_BIT = ("MNK_16x16x16", "MNK_32x8x16", "MNK_8x32x16")
VALID_SHAPES = {
    "F16_IN_F32_OUT": SHAPES_16_8_BIT,
    "F16_IN_OUT": SHAPES_16_8_BIT,
    "U8_IN_I32_OUT": SHAPES_16_8_BIT,
    "I8_IN_I32_OUT": SHAPES_16_8_BIT,
    "BF16_IN_F32_OUT": SHAPES_16_8_BIT,
    "TF32_IN_F32_OUT": ("MNK_16x16x8",),
    "F64_IN_OUT": ("MNK_8x8x4",),
}
TYPE_PAIRS = tuple(VALID_SHAPES)
ALL_SHAPES = ("MNK_16x16x16", "MNK_32x8x16", "MNK_8x32x16", "MNK_16x16x8", "MNK_8x8x4")


def shape_error_text(type_pair):
    """The #error text for a type pair given a shape it does not support."""
    shapes = VALID_SHAPES[type_pair]
    if len(shapes) == 1:
        return "%s supports only %s" % (type_pair, shapes[0])
    return "%s supports %s" % (type_pair, ", ".join(shapes))


def valid_configurations():
    """(name, defines) for the 17 type/shape pairs and the 7 x 3 transpositions."""
    configs = []
    for type_pair in TYPE_PAIRS:
        for shape in VALID_SHAPES[type_pair]:
            configs.append((type_pair, shape, 0, 0))
    for type_pair in TYPE_PAIRS:
        for transpose_a, transpose_b in ((0, 1), (1, 0), (1, 1)):
            configs.append((type_pair, VALID_SHAPES[type_pair][0], transpose_a, transpose_b))
    result = []
    for type_pair, shape, transpose_a, transpose_b in configs:
        name = "%s_%s_ta%d_tb%d" % (type_pair, shape, transpose_a, transpose_b)
        defines = ["-DCONFIG_ON_COMMAND_LINE", "-D" + type_pair, "-D" + shape,
                   "-DTRANSPOSE_A=%d" % transpose_a, "-DTRANSPOSE_B=%d" % transpose_b]
        result.append((name, defines))
    return result


def invalid_configurations():
    """(name, defines, [texts stderr must contain])."""
    result = []
    for type_pair in TYPE_PAIRS:
        for shape in ALL_SHAPES:
            if shape in VALID_SHAPES[type_pair]:
                continue
            result.append(("%s_%s" % (type_pair, shape),
                           ["-DCONFIG_ON_COMMAND_LINE", "-D" + type_pair, "-D" + shape],
                           [shape_error_text(type_pair)]))
    result.append(("no_selection", ["-DCONFIG_ON_COMMAND_LINE"],
                   ["no type pair selected: define one of"] + list(TYPE_PAIRS)))
    result.append(("no_type_pair", ["-DCONFIG_ON_COMMAND_LINE", "-DMNK_16x16x16"],
                   ["no type pair selected: define one of"] + list(TYPE_PAIRS)))
    result.append(("no_shape", ["-DCONFIG_ON_COMMAND_LINE", "-DF16_IN_F32_OUT"],
                   ["no WMMA shape selected"]))
    result.append(("two_type_pairs", ["-DCONFIG_ON_COMMAND_LINE", "-DF16_IN_F32_OUT",
                                      "-DI8_IN_I32_OUT", "-DMNK_16x16x16"],
                   ["more than one type pair selected"]))
    result.append(("two_shapes", ["-DCONFIG_ON_COMMAND_LINE", "-DF16_IN_F32_OUT",
                                  "-DMNK_16x16x16", "-DMNK_32x8x16"],
                   ["more than one WMMA shape selected"]))
    result.append(("transpose_a_2", ["-DCONFIG_ON_COMMAND_LINE", "-DF16_IN_F32_OUT",
                                     "-DMNK_16x16x16", "-DTRANSPOSE_A=2", "-DTRANSPOSE_B=0"],
                   ["TRANSPOSE_A must be 0 or 1"]))
    result.append(("transpose_b_2", ["-DCONFIG_ON_COMMAND_LINE", "-DF16_IN_F32_OUT",
                                     "-DMNK_16x16x16", "-DTRANSPOSE_A=0", "-DTRANSPOSE_B=2"],
                   ["TRANSPOSE_B must be 0 or 1"]))
    return result


# --- tools --------------------------------------------------------------------

def find_nvcc():
    nvcc = shutil.which("nvcc")
    if nvcc is None and os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
        nvcc = "/usr/local/cuda/bin/nvcc"
    return nvcc


def tool_env():
    """The environment with nvcc's folder on PATH (make calls plain `nvcc`)."""
    env = dict(os.environ)
    nvcc = find_nvcc()
    if nvcc:
        env["PATH"] = os.path.dirname(nvcc) + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = "C"
    return env


def run(cmd, timeout, cwd=REPO):
    """Run cmd; return (returncode, stdout, stderr).  A timeout is a result too."""
    try:
        proc = subprocess.run(cmd, cwd=str(cwd), env=tool_env(), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, errors="replace", timeout=timeout)
        return proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        return None, "", "TIMEOUT after %ss: %s" % (timeout, " ".join(cmd))


_ARCH_OR_CONFIG = re.compile(
    r"^(-arch|--gpu-architecture|-gencode|--generate-code|-code|--gpu-code|-o|-c|-E)(=.*)?$")
_CONFIG_DEFINE = re.compile(
    r"^-D(CONFIG_ON_COMMAND_LINE|TRANSPOSE_[AB]|MNK_\w+|(F16|U8|I8|BF16|TF32|F64)_IN_\w+)(=.*)?$")


def makefile_nvcc_flags():
    """The Makefile's compiler flags (`make -s print-nvccflags`), less the
    architecture and configuration flags that each test sets itself;
    `-O3 -std=c++17` when the Makefile has no such target."""
    code, out, _ = run(["make", "-s", "--no-print-directory", "print-nvccflags"], timeout=120)
    if code != 0 or not out.strip():
        return ["-O3", "-std=c++17"]
    tokens = shlex.split(out.strip().splitlines()[-1])
    flags, skip_next = [], False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in ("-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code",
                     "--gpu-code", "-o"):
            skip_next = True
            continue
        if _ARCH_OR_CONFIG.match(token) or _CONFIG_DEFINE.match(token):
            continue
        if token.startswith("-l") or token.startswith("-L"):
            continue   # link flags are of no use to -c
        flags.append(token)
    return flags


@contextlib.contextmanager
def make_lock():
    """One make at a time in this checkout, should test modules run in parallel
    (test_program.py uses it too)."""
    name = "gemm-make-%s.lock" % hashlib.sha1(str(REPO).encode()).hexdigest()[:12]
    with open(os.path.join(tempfile.gettempdir(), name), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def warning_lines(text):
    return [line for line in text.splitlines() if re.search(r"warning", line, re.IGNORECASE)]


def parse_ptxas_report(text):
    """{function name: (spill store bytes, spill load bytes)} from -Xptxas -v output."""
    report = {}
    current = None
    for line in text.splitlines():
        match = re.search(r"Function properties for (\S+)", line)
        if match:
            current = match.group(1)
            continue
        match = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if match and current is not None:
            stores, loads = int(match.group(1)), int(match.group(2))
            old = report.get(current, (0, 0))
            report[current] = (max(old[0], stores), max(old[1], loads))
            current = None
    return report


def entry_functions(text):
    return re.findall(r"Compiling entry function '([^']+)' for '(sm_\w+)'", text)


# How nvcc reports a compiler stage killed by a signal (not an error in gemm.md).
KILLED = r"died due to signal|^(nvcc: )?Terminated$|^(nvcc: )?Killed$"


def tail(text, lines=40):
    return "\n".join(text.splitlines()[-lines:])


NVCC = find_nvcc()
VALID = valid_configurations()
INVALID = invalid_configurations()


def _require_sources(test_class):
    if NVCC is None:
        raise unittest.SkipTest("nvcc not found (not on PATH, no /usr/local/cuda/bin/nvcc)")
    if not GEMM_CU.is_file():
        raise AssertionError("%s does not exist: tangle gemm.md first" % GEMM_CU)


# --- (a) every valid configuration compiles ----------------------------------

class ValidConfigurationsCompile(unittest.TestCase):
    """nvcc -c -arch=sm_90 for the 17 type/shape pairs and 21 transpositions,
    plus the document's own defaults, with host warnings and ptxas's resource
    report switched on."""

    results = {}

    @classmethod
    def setUpClass(cls):
        _require_sources(cls)
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-build-")
        cls.flags = makefile_nvcc_flags()
        jobs = [(name, defines) for name, defines in VALID] + [("document_defaults", [])]

        def compile_one(job):
            name, defines = job
            cmd = ([NVCC, "-c", "-arch=sm_90"] + cls.flags +
                   ["-Xcompiler", "-Wall,-Wextra", "-Xptxas", "-v"] + defines +
                   [str(GEMM_CU), "-o", os.path.join(cls.tmp.name, name + ".o")])
            code, out, err = run(cmd, timeout=COMPILE_TIMEOUT_S)
            if code != 0 and re.search(KILLED, out + err, re.MULTILINE):
                # Killed from outside (another job on a shared machine): one retry.
                code, out, err = run(cmd, timeout=COMPILE_TIMEOUT_S)
            return name, (cmd, code, out + err)

        # A baseline: what this nvcc prints for a trivial file with the same
        # flags, so that toolchain notices are not blamed on gemm.md.
        trivial = os.path.join(cls.tmp.name, "trivial.cu")
        with open(trivial, "w") as handle:
            handle.write("__global__ void trivial_kernel(int *p) { *p = 1; }\n")
        _, out, err = run([NVCC, "-c", "-arch=sm_90"] + cls.flags +
                          ["-Xcompiler", "-Wall,-Wextra", trivial,
                           "-o", os.path.join(cls.tmp.name, "trivial.o")], timeout=COMPILE_TIMEOUT_S)
        cls.baseline_warnings = set(warning_lines(out + err))

        workers = max(1, os.cpu_count() or 1)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            cls.results = dict(pool.map(compile_one, jobs))

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "tmp"):
            cls.tmp.cleanup()

    def check_compiled(self, name):
        cmd, code, output = self.results[name]
        errors = [line for line in output.splitlines() if re.search(r"\berror\b", line)]
        self.assertEqual(code, 0, "compilation failed (exit %s): %s\n%s\n...\n%s"
                         % (code, " ".join(cmd), "\n".join(errors[:20]), tail(output, 20)))
        self.assertTrue(os.path.getsize(cmd[-1]) > 0, "empty object file " + cmd[-1])

    def new_warnings(self, output):
        return [line for line in warning_lines(output) if line not in self.baseline_warnings]

    def test_document_defaults_compile(self):
        self.check_compiled("document_defaults")

    def test_document_defaults_no_host_warnings(self):
        self.check_compiled("document_defaults")
        warnings = self.new_warnings(self.results["document_defaults"][2])
        self.assertEqual(warnings, [], "warnings with -Xcompiler -Wall,-Wextra:\n" + "\n".join(warnings))

    def test_document_defaults_no_spills(self):
        self.check_compiled("document_defaults")
        output = self.results["document_defaults"][2]
        entries = entry_functions(output)
        self.assertTrue(any("d_gemm" in name for name, _ in entries),
                        "no kernel named d_gemm* in ptxas's report:\n" + tail(output))
        self.assertTrue(all(arch == "sm_90" for _, arch in entries), entries)
        report = parse_ptxas_report(output)
        for name, _ in entries:
            self.assertIn(name, report, "no resource report for kernel " + name)
        spilling = {name: spill for name, spill in report.items() if spill != (0, 0)}
        if spilling:
            self.fail("functions that spill on sm_90 (spill store bytes, spill load bytes): %s" % spilling)

    def test_no_host_warnings_any_configuration(self):
        offenders = {}
        for name, _ in VALID:
            cmd, code, output = self.results[name]
            if code == 0:
                warnings = self.new_warnings(output)
                if warnings:
                    offenders[name] = warnings[:5]
        if offenders:
            self.fail("host warnings (-Xcompiler -Wall,-Wextra):\n" + "\n".join(
                "%s:\n    %s" % (name, "\n    ".join(lines)) for name, lines in sorted(offenders.items())))

    def test_no_spills_any_configuration(self):
        offenders = {}
        for name, _ in VALID:
            cmd, code, output = self.results[name]
            if code == 0:
                spilling = {fn: s for fn, s in parse_ptxas_report(output).items() if s != (0, 0)}
                if spilling:
                    offenders[name] = spilling
        if offenders:
            self.fail("functions that spill on sm_90 (spill store bytes, spill load bytes):\n" + "\n".join(
                "%s: %s" % (name, spills) for name, spills in sorted(offenders.items())))


def _add_valid_test(name):
    def test(self):
        self.check_compiled(name)
    test.__doc__ = "compiles: " + name
    setattr(ValidConfigurationsCompile, "test_compile_" + name, test)


for _name, _ in VALID:
    _add_valid_test(_name)


# --- (b) every invalid configuration stops with the documented #error ---------

class InvalidConfigurationsFail(unittest.TestCase):
    """nvcc -E: the #error fires in the preprocessor, so no compilation is needed."""

    results = {}

    @classmethod
    def setUpClass(cls):
        _require_sources(cls)
        flags = makefile_nvcc_flags()

        def preprocess(job):
            name, defines, _ = job
            cmd = [NVCC, "-E", "-arch=sm_90"] + flags + defines + [str(GEMM_CU), "-o", os.devnull]
            code, out, err = run(cmd, timeout=PREPROCESS_TIMEOUT_S)
            return name, (cmd, code, out, err)

        workers = max(1, os.cpu_count() or 1)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            cls.results = dict(pool.map(preprocess, INVALID))

    def check_rejected(self, name, texts):
        cmd, code, _, err = self.results[name]
        self.assertIsNotNone(code, err)
        self.assertNotEqual(code, 0, "accepted an invalid configuration: " + " ".join(cmd))
        for text in texts:
            self.assertIn(text, err, "the error does not say %r:\n%s" % (text, tail(err)))
        self.assertRegex(err, r"#error", "no #error in:\n" + tail(err))

    def test_errors_point_into_gemm_md(self):
        """#line directives make the #error's location a line of gemm.md."""
        _, code, _, err = self.results["two_shapes"]
        self.assertNotEqual(code, 0)
        self.assertRegex(err, r'gemm\.md"?[:(]\d+', "the error does not name a line of gemm.md:\n"
                         + tail(err))


def _add_invalid_test(name, texts):
    def test(self):
        self.check_rejected(name, texts)
    test.__doc__ = "rejected: " + name
    setattr(InvalidConfigurationsFail, "test_rejects_" + name, test)


for _name, _, _texts in INVALID:
    _add_invalid_test(_name, _texts)


# --- (c) the Makefile's overrides ----------------------------------------------

def d_gemm_ptx_all(ptx):
    """The bodies of the d_gemm<TILE> kernels in a PTX file, one per tile configuration, each up to the
    next kernel: inline PTX puts "}" lines of its own inside the body."""
    return re.findall(r"\.entry _Z6d_gemmILi\d+ELi7EE.*?(?=^\.visible \.entry |^\.entry |\Z)", ptx,
                      re.DOTALL | re.MULTILINE)


def d_gemm_ptx(ptx):
    """The bodies of every d_gemm<TILE> as one text, or None when there is none."""
    bodies = d_gemm_ptx_all(ptx)
    return "\n".join(bodies) if bodies else None


# Tile configurations per type pair (gemm.md, "Tile sizes per GPU": the rows of the tile table).
TILE_COUNTS = {"F16_IN_F32_OUT": 4, "BF16_IN_F32_OUT": 4, "F16_IN_OUT": 3, "U8_IN_I32_OUT": 2,
               "I8_IN_I32_OUT": 2, "TF32_IN_F32_OUT": 2, "F64_IN_OUT": 2}
# Tiles whose B, when transposed, is copied by the block's threads with cp.async on sm_90 while the copy
# engine brings A (the table's "B^T by threads" column).
B_BY_THREADS = {"F16_IN_F32_OUT": (3,), "BF16_IN_F32_OUT": (3,), "F16_IN_OUT": (2,)}


class FastKernelLoadsFromSharedMemory(unittest.TestCase):
    """In d_gemm every wmma.load names the .shared state space (gemm.md, "Loading
    fragments from shared memory"): a generic load costs bf16 half its speed.
    On sm_90 the slabs come from the copy engine, two bulk tensor copies per slab,
    A multicast to the cluster for every type pair but f64 (gemm.md, "The copy
    engine and thread block clusters"), except B transposed in the tiles of
    B_BY_THREADS, which the threads copy with cp.async; on sm_80 from cp.async."""

    results = {}

    @classmethod
    def setUpClass(cls):
        _require_sources(cls)
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-ptx-")
        flags = makefile_nvcc_flags()

        def ptx_of(job):
            name, defines = job
            path = os.path.join(cls.tmp.name, name + ".ptx")
            code, out, err = run([NVCC, "-ptx", "-arch=sm_90"] + flags + defines + [str(GEMM_CU), "-o", path],
                                 timeout=COMPILE_TIMEOUT_S)
            text = open(path).read() if code == 0 and os.path.exists(path) else ""
            return name, (code, out + err, text)

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            cls.results = dict(pool.map(ptx_of, VALID))

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "tmp"):
            cls.tmp.cleanup()

    def test_every_configuration(self):
        problems = []
        for name, _ in VALID:
            code, output, ptx = self.results[name]
            if code != 0:
                problems.append("%s: nvcc -ptx failed: %s" % (name, tail(output, 3)))
                continue
            body = d_gemm_ptx(ptx)
            if body is None:
                problems.append("%s: no d_gemm entry in the PTX" % name)
                continue
            loads = re.findall(r"wmma\.load\.[ab]\.[^\s]*", body)
            generic = [load for load in loads if ".shared." not in load]
            if not loads or generic:
                problems.append("%s: %d wmma.load, generic: %s" % (name, len(loads), sorted(set(generic))))
        self.assertEqual(problems, [], "\n".join(problems))

    def test_slabs_by_the_copy_engine_on_sm_90(self):
        problems = []
        for name, _ in VALID:
            code, _, ptx = self.results[name]
            body = d_gemm_ptx(ptx) if code == 0 else None
            if body is None:
                problems.append("%s: no d_gemm in the PTX" % name)
                continue
            for number, kernel in enumerate(d_gemm_ptx_all(ptx)):
                copies = re.findall(r"cp\.async\.bulk\.tensor\.3d\.[^\s]*", kernel)
                multicast = [copy for copy in copies if ".multicast::cluster" in copy]
                per_thread = re.findall(r"cp\.async\.c[ag]\.", kernel)
                want_multicast = 0 if name.startswith("F64_IN_OUT") else 1
                b_by_threads = "_tb1" in name and number in B_BY_THREADS.get(name.split("_MNK_")[0], ())
                want_copies = 1 if b_by_threads else 2
                if len(copies) != want_copies or len(multicast) != want_multicast or bool(per_thread) != b_by_threads:
                    problems.append("%s tile %d: %d bulk tensor copies (%d multicast, want %d and %d), %d cp.async%s"
                                    % (name, number, len(copies), len(multicast), want_copies, want_multicast,
                                       len(per_thread), " (want some: B by the threads)" if b_by_threads else ""))
        self.assertEqual(problems, [], "\n".join(problems))

    def test_one_kernel_per_tile_configuration(self):
        """The binary carries d_gemm<TILE> for every row of its type pair's tile table, so the
        host can choose by the GPU's shared memory (gemm.md, "Tile sizes per GPU")."""
        problems = []
        for name, _ in VALID:
            code, _, ptx = self.results[name]
            found = len(d_gemm_ptx_all(ptx)) if code == 0 else 0
            want = TILE_COUNTS[name.split("_MNK_")[0]]
            if found != want:
                problems.append("%s: %d d_gemm kernels, want %d" % (name, found, want))
        self.assertEqual(problems, [], "\n".join(problems))

    def test_slabs_by_cp_async_on_sm_80(self):
        path = os.path.join(self.tmp.name, "sm80.ptx")
        code, out, err = run([NVCC, "-ptx", "-arch=sm_80"] + makefile_nvcc_flags() + [str(GEMM_CU), "-o", path],
                             timeout=COMPILE_TIMEOUT_S)
        self.assertEqual(code, 0, tail(out + err, 5))
        body = d_gemm_ptx(open(path).read())
        self.assertIsNotNone(body, "no d_gemm in the sm_80 PTX")
        self.assertIn("cp.async.cg.shared.global", body)
        self.assertIn("cp.async.mbarrier.arrive.noinc", body)
        for absent in ("cp.async.bulk", "barrier.cluster", "mapa"):
            self.assertNotIn(absent, body, "sm_80 has no " + absent)
        kernels = d_gemm_ptx_all(open(path).read())
        self.assertEqual(len(kernels), TILE_COUNTS["F16_IN_F32_OUT"], "one d_gemm per tile configuration")
        for kernel in kernels:
            self.assertIn("cp.async.mbarrier.arrive.noinc", kernel, "every tile configuration copies by cp.async")


class MakeOverrides(unittest.TestCase):
    """make TYPE=... MNK=... TRANSPOSE_B=... BIN=... builds one configuration."""

    @classmethod
    def setUpClass(cls):
        _require_sources(cls)
        if shutil.which("make") is None:
            raise unittest.SkipTest("make not found")
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-make-")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def bin_path(self, name):
        return os.path.join(self.tmp.name, name, "gemm")

    def make(self, *args, timeout=MAKE_TIMEOUT_S):
        with make_lock():
            return run(["make", "--no-print-directory"] + list(args), timeout=timeout)

    def test_dry_run_passes_type_and_default_shape(self):
        code, out, err = self.make("-n", "BIN=" + self.bin_path("dry"), "TYPE=TF32_IN_F32_OUT",
                                   timeout=120)
        self.assertEqual(code, 0, err)
        nvcc_lines = [line for line in out.splitlines() if "nvcc" in line and "-DTF32_IN_F32_OUT" in line]
        self.assertTrue(nvcc_lines, "make -n shows no nvcc line with -DTF32_IN_F32_OUT:\n" + out)
        line = nvcc_lines[-1]
        self.assertIn("-DCONFIG_ON_COMMAND_LINE", line)
        self.assertIn("-DMNK_16x16x8", line, "TF32's only shape is not the default MNK")
        self.assertIn(self.bin_path("dry"), out)

    def test_dry_run_passes_shape_and_transpositions(self):
        code, out, err = self.make("-n", "BIN=" + self.bin_path("dry2"), "TYPE=I8_IN_I32_OUT",
                                   "MNK=32x8x16", "TRANSPOSE_A=1", "TRANSPOSE_B=1", timeout=120)
        self.assertEqual(code, 0, err)
        lines = [line for line in out.splitlines() if "-DI8_IN_I32_OUT" in line]
        self.assertTrue(lines, out)
        for text in ("-DMNK_32x8x16", "-DTRANSPOSE_A=1", "-DTRANSPOSE_B=1"):
            self.assertIn(text, lines[-1])

    def test_real_build_of_an_override(self):
        """A TF32 build with the shape left to the Makefile builds and runs its self-test."""
        binary = self.bin_path("tf32")
        code, out, err = self.make("BIN=" + binary, "TYPE=TF32_IN_F32_OUT")
        self.assertEqual(code, 0, "make failed:\n" + tail(out + err))
        self.assertTrue(os.access(binary, os.X_OK), "no executable at " + binary)
        code, out, err = run([binary, "--self-test"], timeout=600)
        self.assertEqual(code, 0, "self-test of the TF32 build failed:\n" + tail(out + err))
        cuobjdump = shutil.which("cuobjdump") or (
            os.path.join(os.path.dirname(NVCC), "cuobjdump")
            if os.access(os.path.join(os.path.dirname(NVCC), "cuobjdump"), os.X_OK) else None)
        if cuobjdump:   # the tensor-core instructions are the TF32 ones
            code, out, err = run([cuobjdump, "-sass", binary], timeout=600)
            self.assertEqual(code, 0, err)
            self.assertRegex(out, r"(?i)tf32", "no TF32 MMA instruction in the TF32 build")

    def test_broken_builds_of_gpu_test(self):
        """make gpu-test breaks one line of out/gemm.cu three ways and builds it with SRC=."""
        import importlib.util
        spec = importlib.util.spec_from_file_location("gpu_test", str(REPO / "tests" / "gpu_test.py"))
        gpu_test = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gpu_test)
        text = GEMM_CU.read_text()
        self.assertEqual(len(gpu_test.FAULTS), 3)
        for name, original, replacement, _, expect, _, _ in gpu_test.FAULTS:
            self.assertEqual(text.count(original), 1, "%s: the line gpu_test.py breaks is not in out/gemm.cu "
                             "exactly once: %s" % (name, original))
            self.assertNotIn("\n", replacement, "%s: a replacement must keep the #line numbering" % name)
            self.assertNotEqual(original, replacement)
            self.assertIn(expect, (1, 5))
        broken = os.path.join(self.tmp.name, "broken", "gemm.cu")
        os.makedirs(os.path.dirname(broken), exist_ok=True)
        name, original, replacement = gpu_test.FAULTS[0][:3]
        with open(broken, "w") as handle:
            handle.write(text.replace(original, replacement))
        code, out, err = self.make("-n", "BIN=" + self.bin_path("broken"), "SRC=" + broken,
                                   "TYPE=F16_IN_F32_OUT", timeout=120)
        self.assertEqual(code, 0, err)
        nvcc_lines = [line for line in out.splitlines() if "nvcc" in line and "-o" in line]
        self.assertTrue(nvcc_lines and broken in nvcc_lines[-1] and str(GEMM_CU) not in nvcc_lines[-1]
                        and " out/gemm.cu" not in nvcc_lines[-1], "make SRC= does not build SRC:\n" + out)

    def test_unknown_type_fails_with_message(self):
        binary = self.bin_path("nope")
        code, out, err = self.make("BIN=" + binary, "TYPE=NOPE")
        self.assertIsNotNone(code, err)
        self.assertNotEqual(code, 0, "make TYPE=NOPE succeeded")
        self.assertRegex(out + err, r"NOPE|no type pair selected",
                         "the failure does not say what is wrong:\n" + tail(out + err))
        self.assertFalse(os.path.exists(binary), "a binary was left at " + binary)

    def test_wrong_shape_for_type_fails_with_message(self):
        binary = self.bin_path("f64bad")
        code, out, err = self.make("BIN=" + binary, "TYPE=F64_IN_OUT", "MNK=16x16x16")
        self.assertIsNotNone(code, err)
        self.assertNotEqual(code, 0, "make TYPE=F64_IN_OUT MNK=16x16x16 succeeded")
        self.assertIn("F64_IN_OUT supports only MNK_8x8x4", out + err)
        self.assertFalse(os.path.exists(binary), "a binary was left at " + binary)


if __name__ == "__main__":
    unittest.main()
