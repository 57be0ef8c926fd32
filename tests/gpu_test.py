#!/usr/bin/env python3
"""make gpu-test: every configuration of out/gemm at awkward sizes, on a GPU.

What it does, in one call that must stay under ten minutes:

  1. tangles once, then builds every configuration in parallel
     (7 type pairs x their WMMA shapes = 17, x 4 transpositions = 68 binaries,
     out/cfg/<TYPE>_<MNK>_ta<A>_tb<B>/gemm, through the Makefile);
  2. runs each binary as soon as it is built, one process at a time on the
     GPU: sizes 1 1 1, 127 253 61, 1000 777 333, 1024 1024 1024 with both
     kernels and non-trivial alpha/beta, one run with the defaults, and
     4096^3 with --verify=gpu (fast kernel; naive only for the default
     shape and transposition); for int8 with B as stored, 64 x 64 x 4194368,
     whose B is transposed before the kernel in 65,537 rows of tiles (more
     than a grid's second dimension holds) and whose uint8 sums leave int32,
     and 300 x 520 x 200 with alpha = 1000003 (both kernels), whose results
     wrap modulo 2^32; exit status 0 pass, 1 verification failure, anything
     else an error;
  3. an independent check: runs with --dump and recomputes the result in
     NumPy (tests/npy_check.py);
  4. compute-sanitizer memcheck, racecheck, initcheck and synccheck at a small
     ragged size, up to --san-jobs at a time, alongside the runs;
  5. failure paths: device memory exhausted (exit 4), bad usage (exit 2), no
     GPU visible (exit 3), an unwritable --dump (exit 6), plus --help,
     --self-test, --peak, --format=csv/text, --print, --cublas, determinism;
     and three deliberately broken builds of out/gemm.cu (FAULTS below): a
     launch that cannot start and a kernel that writes out of bounds (exit 5,
     one line naming the check's line in gemm.md), and a kernel that computes
     the wrong result (exit 1);
  6. every tile configuration (gemm.md, "Tile sizes per GPU"): each type pair, each
     transposition, forced to the budgets of smaller GPUs with --shared-limit
     (163K an A100, 99K an RTX 4090, 64K a T4; a type pair with no tile that
     small must exit 3), at two ragged sizes with alpha and beta, memcheck on
     the smallest; and PTX-only builds (ARCH=compute_75, 80, 86, 89) that the
     driver compiles for this GPU, so the plain-load and cp.async paths run on
     it too, each at every budget;
  7. the steps of d_gemm (gemm.md, "d_gemm: the tiled kernel"; --kernel=step1 .. step6, in builds made
     with STEPS=1): each type pair, each transposition, every step at 1000 777 333 with alpha and beta
     (the matrix, part 9, has every step at the small and ragged sizes), each smaller budget for two
     transpositions, the copy path each step must report, memcheck on every step and racecheck on steps
     1 to 4 (fp16 and f64) at the sanitizers' small size;
     and a compute_80 and a compute_75 build of fp16 whose steps run the cp.async and plain-load paths;
     on a 9.0 GPU the same builds also run steps 1 to 9 of d_gemm_hopper (--kernel=hopper1 .. hopper9)
     at 1000 777 333 with alpha and beta; for F16_IN_OUT also hopper8 at the hopper part's sizes (its
     256-row tile, which --kernel=hopper leaves for 128 or 64 rows at some sizes), memcheck on it;
  8. d_gemm_hopper (gemm.md, "Past WMMA"; --kernel=hopper, on a GPU of compute capability 9.0 in the
     sm_90a builds that ARCH=90 makes): every type pair (f64 through mma.sync), each transposition, at
     1 1 1, 127 253 61, 1000 777 333 and 513 1031 1100 with alpha and beta, and on the GPU reference
     2048^3 and 2304 2048 1000 (whole rounds of tiles and a partial last one), 4608 2048 12288 (whole
     rounds, then a last round split along K: step 7), HOPPER_FILL (16 4096 65536 and 777 1001 65536,
     where step 8 splits every tile along K, and step 9 too, 64-row tiles at the first), HOPPER_WIDE
     (64 33792 256 and its transpose), 256 6144 256 and 18944 64 256 (step 9's 64 x 192 in every layout),
     HOPPER_SWAPPED (100 14000 300, 128 4096 14336 and 16 8192 8192: where the roles swap, tf32's, int8's and
     uint8's with B as stored, the 128-row tiles without a cluster, whole and split); a check that the passing runs covered each of step 9's
     tiles (kv tile and cluster); memcheck for each type pair, also unverified at 4608 2048 12288, both
     HOPPER_FILL sizes (the splits), 1000 777 333, 2304 2048 1000, 64 33792 256, 256 6144 256 and
     18944 64 256 (step 9's tiles), and for tf32, int8 and uint8 the HOPPER_SWAPPED sizes; a compute_80 build must
     exit 3 with one line; on a GPU that is not 9.0 (nvidia-smi's compute_cap) every type pair must
     exit 3 instead;
  9. the matrix (issue 30): every --kernel a STEPS=1 build has (naive, fast, step1 .. step7, hopper,
     hopper1 .. hopper10; a check fails when the binary's --help names other kernels) x every type pair
     x the four layouts, each at MATRIX_SHAPES, where M, N and K each take every one of MATRIX_VALUES
     (1, 2, 7, 11, 63, 65, 129, 300 and 513, one past two 256-row tiles), with alpha and beta, verified
     on the GPU reference: one process per kernel and build runs all the shapes (out/gemm
     --shapes=FILE, a kv line each); memcheck on one sample per kernel, the type pairs and layouts
     taken in turn; on a GPU that is not 9.0 the hopper kernels must refuse;
 10. prints a summary table, then `gpu-test: planned P, run R, passed X, failed F, not run N (reasons)` and
     `gpu-test: N passed, N failed`.  A job that raises fails the checks it made and did not finish, and one
     more check for the exception (its line in this file); the run goes on.  A check the plan holds (the same
     plan run dry, as --list prints it) that the run never made counts as not run.  Exits 1 on any failure,
     including a check that did not run for any reason but --budget, which is reported and not failed.  The
     full log and a CSV of every check go to --out (default out/gpu-test/).

--list prints the plan instead, without a GPU, building or running nothing: one
check a line, with its kernel, type pair, layout (TRANSPOSE_A=0 TRANSPOSE_B=1),
size, alpha, beta and command, as on a 9.0 GPU (--list-cc to plan for another);
tests/test_gpu_plan.py checks from it that every (kernel, type pair, layout)
is in the matrix at every awkward size.

A budget (--budget, seconds) stops starting new work so that the summary is
always printed; --quick keeps the essential part.  Standard library only
(NumPy for the .npy check, which is reported as failed when NumPy is absent).

Usage: python3 tests/gpu_test.py [--quick] [--jobs N] [--out DIR] [--types T,T] [--parts P,P] [--list]
"""

import argparse
import collections
import concurrent.futures
import csv
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TYPE_PAIRS = ("F16_IN_F32_OUT", "F16_IN_OUT", "U8_IN_I32_OUT", "I8_IN_I32_OUT",
              "BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "F64_IN_OUT")
SIXTEEN_BIT_SHAPES = ("16x16x16", "32x8x16", "8x32x16")
SHAPES = {
    "F16_IN_F32_OUT": SIXTEEN_BIT_SHAPES, "F16_IN_OUT": SIXTEEN_BIT_SHAPES,
    "U8_IN_I32_OUT": SIXTEEN_BIT_SHAPES, "I8_IN_I32_OUT": SIXTEEN_BIT_SHAPES,
    "BF16_IN_F32_OUT": SIXTEEN_BIT_SHAPES, "TF32_IN_F32_OUT": ("16x16x8",),
    "F64_IN_OUT": ("8x8x4",),
}
INTEGER_TYPES = ("U8_IN_I32_OUT", "I8_IN_I32_OUT")
TRANSPOSITIONS = ((0, 0), (0, 1), (1, 0), (1, 1))
KERNELS = ("fast", "naive")
STEPS = tuple("step%d" % n for n in range(1, 7))   # step7 is d_gemm, which the main part runs as "fast"
HOPPER_STEPS = tuple("hopper%d" % n for n in range(1, 10))   # hopper10 is d_gemm_hopper, which the hopper part runs
# What a run's kv line may say for kernel=: its --kernel name, or for these two the kernel's own name too. Every
# other --kernel name (steps, hopper, any added later) must come back as asked: names come from --help.
KERNEL_ALIASES = {"fast": ("fast", "d_gemm"), "naive": ("naive", "d_gemm_naive")}
# The matrix runs every step at 18 small and ragged shapes in every type pair and layout; the steps part adds a
# larger ragged size, the smaller budgets and the copy path each step must report.
STEP_SIZES = ((1000, 777, 333),)
RACECHECK_STEPS = STEPS[:4]                          # the steps without the copy engine
RACECHECK_STEP_TYPES = ("F16_IN_F32_OUT", "F64_IN_OUT")
HOPPER_SIZES = ((1, 1, 1), (127, 253, 61), (1000, 777, 333), (513, 1031, 1100))
HOPPER_BIG = (2048, 2048, 2048)
HOPPER_ROUNDS = (2304, 2048, 1000)   # on 132 SMs, whole rounds of tiles and a short last round
HOPPER_SPLIT = (4608, 2048, 12288)   # whole rounds, then at most 33 tiles long enough that step 7 splits them
# Step 8: at most 33 tiles in all, each long enough to split, so every tile is split along K: a skinny layer (16
# rows of 256; step 9 splits its 64 x 128 tiles, its 64 x 64 ones where tf32's roles swap, or 128 x 128 for int8
# with A transposed) and a ragged size whose last cluster tile is mostly padding rows, which no piece stores; its
# odd N ends a 16-byte vector of d_gather_pieces in padding where the roles swap (tf32 with B as stored).
HOPPER_FILL = ((16, 4096, 65536), (777, 1001, 65536))   # K long enough that every type pair splits both
# Step 9's 64 x 128 tile whole, 264 and 132 of them, and 128 x 128 whole for int8 with A transposed (the transposes
# for tf32 with B as stored, whose roles swap M and N). With the sizes above, every type pair runs each of step 9's
# tiles: 4608 2048 12288 splits the last round of 128 x 128 tiles, whose clusters share A.
HOPPER_WIDE = ((64, 33792, 256), (33792, 64, 256), (64, 16896, 256), (16896, 64, 256))
# Step 9's 64 x 192 tile, 128 of them in one round, in every layout: int8 with B as stored pads N to 384 (whole
# transposition tiles), and at 2304 2048 1000 takes 64 x 128. tf32 with B as stored (the roles swapped) takes
# 128 x 128 at the first, since whole small tiles count their bytes at a block's pull there, and 64 x 192 at the
# second (M and N swapped: 64 rows of 18944 columns), where the other layouts take 64 x 64.
HOPPER_192 = ((256, 6144, 256), (18944, 64, 256))
# tf32 with B as stored (the roles swapped) also has 128 x 64 and 128 x 128 tiles without a cluster: 64 33792 256
# takes the first (HOPPER_WIDE); a ragged size takes the second whole, 128 4096 14336 split along K, 16 8192 8192
# the first split. int8 and uint8 with B as stored (their small tiles swapped since stop 72) take the same two
# tiles at the first two sizes, and 64 x 64 whole at 16 8192 8192; with A transposed first, never 128 x 64
# (hopper_tiles_wanted). tests/test_gpu_plan.py compiles the rule and checks these picks on the CPU.
HOPPER_SWAPPED = ((100, 14000, 300), (128, 4096, 14336), (16, 8192, 8192))
SWAPS = ("TF32_IN_F32_OUT", "I8_IN_I32_OUT", "U8_IN_I32_OUT")   # with B as stored, their roles swap
# Step 8's tiles (block M x N, cluster) as the kv line names them; f64 has its 128-column pair.
HOPPER_TILES = ("64x64c1", "64x128c1", "64x192c1", "128x128c2")
HOPPER_TILES_F64 = ("64x128c1", "128x128c2")
HOPPER_TILES_SWAPPED = HOPPER_TILES + ("128x64c1", "128x128c1")
# The hopper part's sizes on the GPU reference, after HOPPER_SIZES.
HOPPER_CHECKED = (HOPPER_BIG, HOPPER_ROUNDS, HOPPER_SPLIT) + HOPPER_FILL + HOPPER_WIDE + HOPPER_192 + HOPPER_SWAPPED


def hopper_must_split(type_pair, tb, size):
    """Whether --kernel=hopper must split tiles along K at `size` (a HOPPER_CHECKED size) in this build."""
    swapped = type_pair in SWAPS and tb == 0   # B as stored: the roles swap (8-bit: small tiles)
    splits = HOPPER_SWAPPED[1:] if type_pair == "TF32_IN_F32_OUT" else HOPPER_SWAPPED[1:2]
    return size in (HOPPER_SPLIT,) + HOPPER_FILL or (swapped and size in splits)


def hopper_tiles_wanted(type_pair, ta, tb):
    """The tiles (HOPPER_TILES' names) that --kernel=hopper must run, together, at HOPPER_SIZES and HOPPER_CHECKED.
    tests/test_gpu_plan.py compiles the rule on the CPU and checks that it picks them there."""
    if type_pair == "F64_IN_OUT":
        return HOPPER_TILES_F64
    if not (type_pair in SWAPS and tb == 0):
        return HOPPER_TILES
    if type_pair != "TF32_IN_F32_OUT" and ta == 1:
        # 8-bit A transposed first is padded to whole transposition tiles, 128 along M: the swapped kernel's N,
        # so 64 x 128 has as many tiles as 128 x 64 and runs faster (paired speed 67 against 49, pull 77 against
        # 60 GB/s a block). The rule never takes 128 x 64 there.
        return tuple(tile for tile in HOPPER_TILES_SWAPPED if tile != "128x64c1")
    return HOPPER_TILES_SWAPPED

SIZES_FULL = ((1, 1, 1), (127, 253, 61), (1000, 777, 333), (1024, 1024, 1024))
SIZES_QUICK = ((127, 253, 61), (1024, 1024, 1024))
BIG = (4096, 4096, 4096)
# int8 transposes an operand stored with K across rows (A transposed, or B as stored) before d_gemm: this K makes
# 65,537 rows of 64 x 64 tiles, one more than a grid's y dimension allows (gemm.md, "Operands prepared before the kernel").
LONG_K = (64, 64, 4194368)
WRAP_ALPHA = "1000003"   # int8 times this leaves int32 at any K above a few hundred
SANITIZER_SIZE = (67, 45, 29)
# Forced tiers: the shared memory per block of an A100, an RTX 30xx/40xx and a T4 (gemm.md, "Tile sizes per GPU").
BUDGETS = ("163K", "99K", "64K")
NO_TILE = {("TF32_IN_F32_OUT", "64K"), ("F64_IN_OUT", "64K")}   # no GPU with 64 KiB runs them; the program says so
TIER_SIZES = ((127, 253, 61), (1000, 777, 333))
# PTX-only builds the driver compiles for the GPU at hand, and the copy path each must report.
PTX_ARCHS = {"compute_75": "loads", "compute_80": "cp.async", "compute_86": "cp.async", "compute_89": "cp.async"}
SM80_TYPES = ("BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "F64_IN_OUT")   # no WMMA for them before sm_80
NPY_SIZE = (127, 253, 61)
# The matrix: every kernel of a STEPS=1 build, in --help's order (tests/test_gpu_plan.py checks it against
# out/gemm --help), at shapes where M, N and K each take every value: small, one off a fragment or a tile,
# ragged, and one past two 256-row block tiles. Row i is (v[i], v[i+3], v[i+6]), then (v[i], v[i+6], v[i+3]).
MATRIX_KERNELS = ("naive", "fast") + tuple("step%d" % n for n in range(1, 8)) + ("hopper",) \
    + tuple("hopper%d" % n for n in range(1, 11))
MATRIX_VALUES = (1, 2, 7, 11, 63, 65, 129, 300, 513)
MATRIX_SHAPES = tuple((MATRIX_VALUES[i], MATRIX_VALUES[(i + a) % 9], MATRIX_VALUES[(i + b) % 9])
                      for a, b in ((3, 6), (6, 3)) for i in range(9))
MATRIX_SANITIZER_SHAPE = (65, 129, 7)
OOM_SIZE = (400000, 400000, 64)   # C alone: 320 GB in half, 640 GB in float

TIMEOUT_RUN = 90
TIMEOUT_BIG = 180
TIMEOUT_SANITIZER = 300
TIMEOUT_BUILD = 400
GRACE = 40  # seconds past the budget that already running work may take


def step_copy_path(step, arch):
    """The copy path a step must report: plain loads before step 3 (and on sm_75), cp.async for steps 3 and 4
    (and every later step in a compute_80 build); None where it depends on the GPU (the copy engine from step 5)."""
    number = int(step[len("step"):])
    if arch == "compute_75" or number < 3:
        return "loads"
    if number < 5 or arch == "compute_80":
        return "cp.async"
    return None


def kernels_from_help(help_text):
    """The --kernel names out/gemm --help offers: fast, naive, stepN (1 to A), hopper, hopperN (1 to B)."""
    choices = re.search(r"--kernel=(\S+)", help_text).group(1).split("|")
    steps = re.search(r"step N of d_gemm \((\d+) to (\d+)\)", help_text)
    hopper = re.search(r"d_gemm_hopper or its step N \((\d+) to (\d+)", help_text)
    names = []
    for choice in choices:
        if choice == "stepN":
            names += ["step%d" % n for n in range(int(steps.group(1)), int(steps.group(2)) + 1)]
        elif choice == "hopperN":
            names += ["hopper%d" % n for n in range(int(hopper.group(1)), int(hopper.group(2)) + 1)]
        else:
            names.append(choice)
    return names


def alpha_beta(type_pair):
    return ("2", "-1") if type_pair in INTEGER_TYPES else ("1.5", "-0.5")


def normalize(text):
    return re.sub(r"[^0-9a-z]", "", str(text).lower().replace("mnk_", ""))


def parse_kv(stdout):
    """The last line of key=value tokens that has mode= or result=."""
    for line in reversed(stdout.splitlines()):
        if "mode=" in line or "result=" in line:
            pairs = {}
            for token in line.split():
                if "=" in token:
                    key, value = token.split("=", 1)
                    pairs[key] = value
            if pairs:
                return pairs
    return None


def to_float(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def first_line(text, limit=160):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:limit]
    return ""


class Config:
    def __init__(self, type_pair, mnk, transpose_a, transpose_b, arch=None, steps=False):
        self.type = type_pair
        self.mnk = mnk
        self.ta = transpose_a
        self.tb = transpose_b
        self.arch = arch   # None: the make arguments' ARCH; "compute_80": PTX alone
        self.steps = steps   # built with STEPS=1: --kernel=step1 .. step6 too
        self.name = "%s_%s_ta%d_tb%d" % (type_pair, mnk, transpose_a, transpose_b) + ("_" + arch if arch else "") \
            + ("_steps" if steps else "")
        self.binary = os.path.join("out", "cfg", self.name, "gemm")
        self.default_shape = mnk == SHAPES[type_pair][0] and arch is None and not steps

    def row_key(self):
        if self.steps:
            return (self.type, "steps" + (" " + self.arch.replace("compute_", "ptx ") if self.arch else ""))
        return (self.type, self.arch.replace("compute_", "ptx ") if self.arch else self.mnk)


# Deliberately broken builds: (name, text in out/gemm.cu, replacement, arguments, exit status wanted,
# what the one stderr line must contain, which check's line in gemm.md it must name).  Each
# replacement stays on one line, so the #line directives still point at gemm.md.
LAUNCH_SHAPE = "config.blockDim = dim3(tile.threads);"
LAUNCH_ARGUMENTS = "Run args = *run;"
FAULTS = (
    ("launch", LAUNCH_SHAPE, LAUNCH_SHAPE.replace("tile.threads", "2 * 1024"),
     ["--format=kv", "127", "253", "61"], 5, "cudaLaunchKernelExC", "CHECK_CUDA"),
    ("out-of-bounds", LAUNCH_ARGUMENTS, LAUNCH_ARGUMENTS + " args.c += (size_t)1 << 40;",
     ["--format=kv", "127", "253", "61"], 5, "illegal memory access", "CHECK_"),
    ("wrong-result", LAUNCH_ARGUMENTS, LAUNCH_ARGUMENTS + " args.alpha += args.alpha;",
     ["--format=kv", "127", "253", "61"], 1, None, None),
)
FAULT_TYPE, FAULT_MNK = "F16_IN_F32_OUT", "16x16x16"


class FaultConfig(Config):
    """A broken copy of the default configuration, built from out/cfg/FAULT_<name>/gemm.cu."""

    def __init__(self, fault):
        Config.__init__(self, FAULT_TYPE, FAULT_MNK, 0, 0)
        self.fault = fault
        self.name = "FAULT_" + fault[0]
        self.binary = os.path.join("out", "cfg", self.name, "gemm")
        self.source = self.binary + ".cu"
        self.default_shape = False

    def row_key(self):
        return ("broken build", self.fault[0])


class Record:
    FIELDS = ("kind", "config", "type", "mnk", "ta", "tb", "label", "kernel", "m", "n", "k",
              "status", "rc", "expect", "ratio", "max_err", "bound", "errors", "seconds", "detail", "command")

    def __init__(self, kind, config=None, label="", **fields):
        self.kind = kind
        self.config = config
        self.label = label
        self.status = "fail"
        self.rc = ""
        self.expect = ""
        self.kernel = ""
        self.m = self.n = self.k = ""
        self.ratio = None
        self.max_err = ""
        self.bound = ""
        self.errors = ""
        self.seconds = 0.0
        self.detail = ""
        self.command = ""
        self.job = None   # the job that made it (Tester.guarded)
        for key, value in fields.items():
            setattr(self, key, value)

    def key(self):
        """What names this check in the plan: kind, configuration and label."""
        return (self.kind, self.config.name if self.config else "", self.label)

    @property
    def finished(self):
        """Passed, or ended with a reason: a check starts as "fail" with no detail and says so until it ends."""
        return self.passed or self.status == "skip" or bool(self.detail)

    def not_run_reason(self):
        """Why a check did not run (budget, build failed, crash, interrupted), or None if it ran."""
        if self.kind == "build" or not (self.status == "skip" or self.detail.startswith("not run")):
            return None
        for reason in ("budget", "build failed", "crash", "interrupted"):
            if reason in self.detail:
                return reason
        return "aborted" if "aborted" in self.detail else "other"

    @property
    def passed(self):
        return self.status == "pass"

    def take_error(self, kv):
        """max_err, bound and their ratio from a run's kv line (0 for an exact match, inf past a zero bound)."""
        self.max_err, self.bound = kv.get("max_err", ""), kv.get("bound", "")
        error, bound = to_float(self.max_err), to_float(self.bound)
        if error is not None and bound is not None:
            self.ratio = error / bound if bound > 0 else (0.0 if error == 0 else float("inf"))

    def row(self):
        config = self.config
        values = {
            "kind": self.kind, "config": config.name if config else "",
            "type": config.type if config else "", "mnk": config.mnk if config else "",
            "ta": config.ta if config else "", "tb": config.tb if config else "",
            "label": self.label, "kernel": self.kernel, "m": self.m, "n": self.n, "k": self.k,
            "status": self.status, "rc": self.rc, "expect": self.expect,
            "ratio": "" if self.ratio is None else "%.4g" % self.ratio,
            "max_err": self.max_err, "bound": self.bound, "errors": self.errors,
            "seconds": "%.2f" % self.seconds, "detail": self.detail, "command": self.command,
        }
        return [values[f] for f in self.FIELDS]


class Outcome:
    def __init__(self, rc, stdout, stderr, seconds, skipped=None):
        self.rc = rc            # int, or "timeout" / "skipped" / "error"
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.skipped = skipped  # reason when the command never ran


class Tester:
    def __init__(self, args):
        self.args = args
        self.root = args.root
        self.out = args.out if os.path.isabs(args.out) else os.path.join(self.root, args.out)
        self.start = time.monotonic()
        self.deadline = self.start + args.budget
        self.hard_stop = self.deadline + GRACE
        self.lock = threading.Lock()
        self.records = []
        self.processes = set()
        self.aborted = threading.Event()
        self.log_file = None
        self.gpu = "unknown GPU"
        self.cc = ""   # compute capability as nvidia-smi writes it ("9.0"); d_gemm_hopper runs on 9.0 only
        self.sanitizer = None
        self.builds = {}
        self.build_records = {}
        self.local = threading.local()   # .job: the job this thread runs (guarded)
        self.raised = []                 # (job, message) of every job that raised
        self.interrupted = False
        self.phase_seconds = {}
        self.dry = getattr(args, "list", False)   # --list: plan only, nothing built or run

    # ---------------------------------------------------------------- utilities
    def elapsed(self):
        return time.monotonic() - self.start

    def say(self, text):
        if self.dry:   # --list prints the plan alone
            return
        with self.lock:
            print(text, flush=True)
            if self.log_file:
                self.log_file.write(text + "\n")
                self.log_file.flush()

    def log(self, text):
        with self.lock:
            if self.log_file:
                self.log_file.write(text + "\n")
                self.log_file.flush()

    def add(self, record):
        record.job = getattr(self.local, "job", None)
        with self.lock:
            self.records.append(record)
        return record

    def guarded(self, job, function):
        """function as job `job`: if it raises, every check it made and did not finish fails with the exception
        and its line in this file, one more check records the exception, and the run goes on."""
        def run():
            self.local.job = job
            try:
                return function()
            except Exception as error:
                frames = [f for f in traceback.extract_tb(error.__traceback__)
                          if os.path.basename(f.filename) == os.path.basename(__file__)]
                place = "gpu_test.py:%d" % frames[-1].lineno if frames else "?"
                message = "crash: %s raised %s: %s at %s" % (job, type(error).__name__, error, place)
                with self.lock:
                    self.raised.append((job, message))
                    unfinished = [r for r in self.records if r.job == job and not r.finished]
                for record in unfinished:
                    record.status, record.detail = "error", "not run: " + message
                self.add(Record("internal", None, label="job raised: %s" % job, status="error", detail=message))
                self.say("gpu-test: " + message)
                return None
            finally:
                self.local.job = None
        return run

    def guarded_sanitizer(self, config, tool, kernel, *args, **fields):
        name = "sanitizer %s %s %s" % (config.name if config else "-", tool, kernel)
        return self.guarded(name, lambda: self.sanitizer_run(config, tool, kernel, *args, **fields))()

    def not_built(self, config):
        """The detail of a check whose binary is missing: the build failed, or the budget stopped it."""
        build = self.build_records.get(config.name)
        if build is not None and build.status == "skip" and "budget" in build.detail:
            return "not run: build not started, budget used up"
        return "not run: build failed"

    def execute(self, argv, timeout, env=None, log=True, log_limit=6000):
        """Run argv (cwd = repo root) with a timeout capped by the budget."""
        if self.dry:
            return Outcome("skipped", "", "", 0.0, skipped="listed")
        if self.aborted.is_set():
            return Outcome("skipped", "", "", 0.0, skipped="aborted")
        now = time.monotonic()
        if now > self.deadline:
            return Outcome("skipped", "", "", 0.0, skipped="budget of %ds used up" % self.args.budget)
        limit = min(timeout, self.hard_stop - now)
        started = time.monotonic()
        try:
            process = subprocess.Popen(argv, cwd=self.root, env=env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       start_new_session=True)
        except OSError as error:
            return Outcome("error", "", "cannot start %s: %s" % (argv[0], error), 0.0)
        with self.lock:
            self.processes.add(process)
        try:
            stdout, stderr = process.communicate(timeout=limit)
            rc = process.returncode
        except subprocess.TimeoutExpired:
            self._kill(process)
            stdout, stderr = process.communicate()
            rc = "timeout"
        finally:
            with self.lock:
                self.processes.discard(process)
        seconds = time.monotonic() - started
        stdout = stdout.decode("utf-8", "replace")
        stderr = stderr.decode("utf-8", "replace")
        if rc == "timeout":
            stderr += "\n[killed after %.0f s]" % seconds
        if log:
            text = "$ %s\n  rc=%s  %.2fs\n" % (" ".join(shlex.quote(a) for a in argv), rc, seconds)
            if stdout.strip():
                text += "  stdout: " + stdout[-log_limit:].rstrip().replace("\n", "\n          ") + "\n"
            if stderr.strip():
                text += "  stderr: " + stderr[-log_limit:].rstrip().replace("\n", "\n          ") + "\n"
            self.log(text)
        return Outcome(rc, stdout, stderr, seconds)

    def _kill(self, process):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def abort(self):
        self.aborted.set()
        with self.lock:
            processes = list(self.processes)
        for process in processes:
            self._kill(process)

    def binary_path(self, config):
        return os.path.join(self.root, config.binary)

    def build_ok(self, config):
        future = self.builds.get(config.name)
        if future is None:
            return False
        try:
            return future.result()
        except Exception:
            return False

    # ---------------------------------------------------------------- set-up
    def gpu_info(self):
        smi = shutil.which("nvidia-smi")
        if smi:
            outcome = self.execute([smi, "--query-gpu=name,driver_version,memory.total",
                                    "--format=csv,noheader"], 30)
            if outcome.rc == 0 and outcome.stdout.strip():
                self.gpu = outcome.stdout.strip().splitlines()[0]
            outcome = self.execute([smi, "--query-gpu=compute_cap", "--format=csv,noheader"], 30)
            if outcome.rc == 0 and outcome.stdout.strip():
                self.cc = outcome.stdout.strip().splitlines()[0].strip()
        else:
            self.gpu = "no nvidia-smi"

    def find_sanitizer(self):
        candidates = [self.args.sanitizer] if self.args.sanitizer else []
        candidates.append(shutil.which("compute-sanitizer"))
        nvcc = shutil.which("nvcc")
        if nvcc:
            candidates.append(os.path.join(os.path.dirname(os.path.realpath(nvcc)), "compute-sanitizer"))
        for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
            if home:
                candidates.append(os.path.join(home, "bin", "compute-sanitizer"))
        for candidate in candidates:
            if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
        return None

    def tangle(self):
        outcome = self.execute(["make", "-s", "out/gemm.cu"], 120)
        if outcome.rc != 0:
            self.say("gpu-test: 'make out/gemm.cu' failed (%s); trying python3 tangle.py" % first_line(outcome.stderr))
            outcome = self.execute([sys.executable, "tangle.py"], 120)
        return outcome.rc == 0 and os.path.isfile(os.path.join(self.root, "out", "gemm.cu"))

    # ---------------------------------------------------------------- builds
    def build(self, config):
        if self.dry:
            return True
        record = self.add(Record("build", config, label="make %s" % config.name))
        self.build_records[config.name] = record
        directory = os.path.dirname(self.binary_path(config))
        os.makedirs(directory, exist_ok=True)
        argv = ["make", "-s", "BIN=%s" % config.binary, "TYPE=%s" % config.type, "MNK=%s" % config.mnk,
                "TRANSPOSE_A=%d" % config.ta, "TRANSPOSE_B=%d" % config.tb] + self.args.make_arg
        if config.arch:
            argv.append("ARCH=%s" % config.arch)
        if config.steps:
            argv.append("STEPS=1")
        if isinstance(config, FaultConfig):
            problem = self.write_fault_source(config)
            if problem:
                record.detail = problem
                self.log("build %s: fail %s" % (config.name, problem))
                return False
            argv.insert(3, "SRC=%s" % config.source)
        record.command = " ".join(argv)
        if self.args.no_build:
            ok = os.access(self.binary_path(config), os.X_OK)
            record.status = "pass" if ok else "fail"
            record.detail = "" if ok else "--no-build and no binary"
            return ok
        outcome = self.execute(argv, TIMEOUT_BUILD, log=False)
        record.seconds = outcome.seconds
        record.rc = outcome.rc
        log_path = os.path.join(self.out, "build", config.name + ".log")
        with open(log_path, "w") as handle:
            handle.write("$ %s\nrc=%s %.1fs\n%s\n%s" % (record.command, outcome.rc, outcome.seconds,
                                                       outcome.stdout, outcome.stderr))
        ok = outcome.rc == 0 and os.access(self.binary_path(config), os.X_OK)
        if ok:
            record.status = "pass"
        else:
            record.status = "skip" if outcome.skipped else "fail"
            errors = [l for l in (outcome.stderr + outcome.stdout).splitlines() if "error" in l.lower()]
            record.detail = outcome.skipped or (errors[0][:200] if errors else first_line(outcome.stderr)) \
                or "rc=%s, no binary" % outcome.rc
            record.detail += " (log: %s)" % os.path.relpath(log_path, self.root)
        self.log("build %s: %s %.1fs %s" % (config.name, record.status, outcome.seconds, record.detail))
        return ok

    def write_fault_source(self, config):
        """out/gemm.cu with one launch line replaced; a message if the line is not there exactly once."""
        name, original, replacement = config.fault[:3]
        with open(os.path.join(self.root, "out", "gemm.cu")) as handle:
            text = handle.read()
        if text.count(original) != 1:
            return ("the line to break occurs %d times in out/gemm.cu, want 1: update FAULTS in "
                    "tests/gpu_test.py (%s)" % (text.count(original), original[:60]))
        with open(os.path.join(self.root, config.source), "w") as handle:
            handle.write(text.replace(original, replacement))
        return None

    def fault_run(self, config):
        """Run a broken build; it must fail with its exit status, naming the check's line in gemm.md."""
        name, _, _, args, expect, message, check_name = config.fault
        with open(os.path.join(self.root, "gemm.md")) as handle:
            source_lines = handle.read().splitlines()

        def names_its_check(outcome):
            if expect == 1:
                kv = parse_kv(outcome.stdout) or {}
                return [] if kv.get("result") == "fail" else ["result=%s, want fail" % kv.get("result")]
            line = outcome.stderr.strip()
            problems = [] if message in line else ["message lacks '%s'" % message]
            place = re.search(r"\bgemm\.md:(\d+):", line)
            if not place:
                return problems + ["message does not name a line of gemm.md"]
            number = int(place.group(1))
            text = source_lines[number - 1] if 0 < number <= len(source_lines) else ""
            if check_name not in text:
                problems.append("gemm.md:%d is '%s', not a %s" % (number, text.strip()[:60], check_name))
            return problems
        self.expect_exit(config, "broken build: %s" % name, args, expect, check=names_its_check)

    # ---------------------------------------------------------------- gemm runs
    def gemm_run(self, config, kernel, size, extra, label, timeout=TIMEOUT_RUN, expect_verify=True,
                 alpha=None, beta=None, budget=None, copy_path=None, split=False):
        """One verified run; the kv line must agree with what was asked for (split: d_gemm_hopper split its last
        round, split_tiles > 0)."""
        record = self.add(Record("run", config, label=label, kernel=kernel,
                                 m=size[0], n=size[1], k=size[2], expect=0))
        if not self.build_ok(config):
            record.detail = self.not_built(config)
            return record
        argv = [self.binary_path(config), "--kernel=%s" % kernel, "--format=kv",
                "--iterations=1", "--warmup=0"] + list(extra) + [str(s) for s in size]
        record.command = " ".join([config.binary] + argv[1:])
        outcome = self.execute(argv, timeout)
        record.seconds = outcome.seconds
        record.rc = outcome.rc
        if outcome.skipped:
            record.status = "skip"
            record.detail = "not run: " + outcome.skipped
            return record
        kv = parse_kv(outcome.stdout)
        problems = []
        if outcome.rc == 1:
            record.status = "fail"
            problems.append("verification failed (exit 1)")
        elif outcome.rc != 0:
            record.status = "error"
            problems.append("exit %s: %s" % (outcome.rc, first_line(outcome.stderr) or first_line(outcome.stdout)))
        if kv is None:
            if outcome.rc == 0:
                problems.append("no kv line on stdout")
        else:
            problems += self.compare_kv(config, kernel, size, kv, expect_verify, alpha, beta)
            record.tile = "%sc%s" % (kv.get("tile", "").rsplit("x", 1)[0], kv.get("cluster", ""))
            if budget is not None and not (0 < (to_float(kv.get("shared_bytes")) or 0) <= budget
                                           and to_float(kv.get("shared_budget")) == budget):
                problems.append("shared_bytes=%s shared_budget=%s, limit %d"
                                % (kv.get("shared_bytes"), kv.get("shared_budget"), budget))
            if copy_path is not None and kv.get("copy_path") != copy_path:
                problems.append("copy_path=%s, want %s" % (kv.get("copy_path"), copy_path))
            if split and not (to_float(kv.get("split_tiles")) or 0) > 0:
                problems.append("split_tiles=%s, want a split last round" % kv.get("split_tiles"))
            record.take_error(kv)
            if record.ratio is not None and record.ratio > 1:
                if kv.get("result") == "pass":
                    problems.append("max_err %s > bound %s but result=pass" % (record.max_err, record.bound))
                problems.append("worst at (%s,%s)" % (kv.get("worst_i"), kv.get("worst_j")))
        if not problems and outcome.rc == 0:
            record.status = "pass"
        record.detail = "; ".join(problems)
        return record

    def compare_kv(self, config, kernel, size, kv, expect_verify, alpha, beta):
        problems = []
        if kv.get("mode", "gemm") != "gemm":
            problems.append("mode=%s" % kv.get("mode"))
        for key, want in (("m", size[0]), ("n", size[1]), ("k", size[2])):
            if key not in kv:
                problems.append("kv lacks %s" % key)
            elif to_float(kv[key]) != want:
                problems.append("%s=%s, asked %s" % (key, kv[key], want))
        if "type" in kv and normalize(kv["type"]) != normalize(config.type):
            problems.append("type=%s, built %s" % (kv["type"], config.type))
        if "mnk" in kv and normalize(kv["mnk"]) != normalize(config.mnk):
            problems.append("mnk=%s, built %s" % (kv["mnk"], config.mnk))
        for key, want in (("transpose_a", config.ta), ("transpose_b", config.tb)):
            if key in kv and to_float(kv[key]) != want:
                problems.append("%s=%s, built %d" % (key, kv[key], want))
        if "kernel" in kv and kv["kernel"].lower() not in KERNEL_ALIASES.get(kernel, (kernel,)):
            problems.append("kernel=%s, asked %s" % (kv["kernel"], kernel))
        for key, want in (("alpha", alpha), ("beta", beta)):
            if want is not None and key in kv and to_float(kv[key]) != float(want):
                problems.append("%s=%s, asked %s" % (key, kv[key], want))
        result = kv.get("result")
        if result is None:
            problems.append("kv lacks result")
        elif expect_verify and result != "pass":
            problems.append("result=%s" % result)
        for key in ("median_ms", "rate"):
            value = to_float(kv.get(key))
            if value is None or value != value or value < 0:
                problems.append("%s=%s" % (key, kv.get(key)))
        return problems

    def config_runs(self, config, quick):
        """All plain runs of one binary, in order."""
        alpha, beta = alpha_beta(config.type)
        scaled = ["--alpha=%s" % alpha, "--beta=%s" % beta]
        sizes = SIZES_QUICK if quick else SIZES_FULL
        main_config = config.default_shape and config.ta == 0 and config.tb == 0
        for kernel in KERNELS:
            for size in sizes:
                self.gemm_run(config, kernel, size, scaled, "%s %s a=%s b=%s" % (kernel, "x".join(map(str, size)), alpha, beta),
                              alpha=alpha, beta=beta)
        if not quick:
            self.gemm_run(config, "fast", (1000, 777, 333), [], "fast 1000x777x333 defaults", alpha=1, beta=0)
            if main_config:
                self.gemm_run(config, "fast", (1000, 777, 333), scaled + ["--verify=cpu"],
                              "fast 1000x777x333 --verify=cpu", alpha=alpha, beta=beta)
        if not quick or main_config:
            self.gemm_run(config, "fast", BIG, scaled + ["--verify=gpu"], "fast 4096^3 --verify=gpu",
                          timeout=TIMEOUT_BIG, alpha=alpha, beta=beta)
        if not quick and config.type in INTEGER_TYPES and main_config:
            self.gemm_run(config, "fast", LONG_K, scaled + ["--verify=gpu"], "fast 64x64x4194368 --verify=gpu",
                          timeout=TIMEOUT_BIG, alpha=alpha, beta=beta)
        if not quick and config.type in INTEGER_TYPES and main_config:
            for kernel in KERNELS:   # alpha * AB leaves int32: the result wraps modulo 2^32 and must match
                self.gemm_run(config, kernel, (300, 520, 200), ["--alpha=%s" % WRAP_ALPHA, "--beta=-7"],
                              "%s 300x520x200 a=%s b=-7 (int32 wraps)" % (kernel, WRAP_ALPHA),
                              alpha=WRAP_ALPHA, beta="-7")
        if main_config:
            self.gemm_run(config, "naive", BIG, scaled + ["--verify=gpu"], "naive 4096^3 --verify=gpu",
                          timeout=TIMEOUT_BIG, alpha=alpha, beta=beta)
            self.peak_run(config)

    def tier_runs(self, config, budgets, big=False):
        """The fast kernel with the tiles of smaller GPUs: every budget, two ragged sizes, alpha and beta."""
        alpha, beta = alpha_beta(config.type)
        scaled = ["--alpha=%s" % alpha, "--beta=%s" % beta]
        copy_path = PTX_ARCHS.get(config.arch)
        for budget in budgets:
            limit = ["--shared-limit=%s" % budget] if budget else []
            if (config.type, budget) in NO_TILE:
                self.expect_exit(config, "--shared-limit=%s: no tile fits" % budget, limit + ["64", "64", "64"], 3,
                                 check=lambda o, b=budget: [] if "d_gemm needs at least" in o.stderr and
                                 "--shared-limit=%s allows" % b in o.stderr else ["no size or no --shared-limit"])
                continue
            budget_bytes = int(budget[:-1]) * 1024 if budget else None
            for size in TIER_SIZES:
                self.gemm_run(config, "fast", size, scaled + limit, "fast %s %s a=%s b=%s"
                              % (budget or "own budget", "x".join(map(str, size)), alpha, beta),
                              alpha=alpha, beta=beta, budget=budget_bytes, copy_path=copy_path)
        if big:
            self.gemm_run(config, "fast", BIG, scaled + ["--verify=gpu"], "fast 4096^3 --verify=gpu",
                          timeout=TIMEOUT_BIG, alpha=alpha, beta=beta, copy_path=copy_path)

    def step_runs(self, config, budgets):
        """Steps 1 to 6 of d_gemm: the awkward sizes with alpha and beta, then the smaller budgets."""
        alpha, beta = alpha_beta(config.type)
        scaled = ["--alpha=%s" % alpha, "--beta=%s" % beta]
        for step in STEPS:
            copy_path = step_copy_path(step, config.arch)
            for size in STEP_SIZES:
                self.gemm_run(config, step, size, scaled, "%s %s a=%s b=%s" % (step, "x".join(map(str, size)), alpha, beta),
                              alpha=alpha, beta=beta, copy_path=copy_path)
            for budget in budgets:
                if (config.type, budget) in NO_TILE:
                    continue
                self.gemm_run(config, step, TIER_SIZES[0], scaled + ["--shared-limit=%s" % budget],
                              "%s %s %s" % (step, budget, "x".join(map(str, TIER_SIZES[0]))), alpha=alpha, beta=beta,
                              budget=int(budget[:-1]) * 1024, copy_path=copy_path)
        if self.cc == "9.0" and not config.arch:   # d_gemm_hopper's steps: sm_90a code on a 9.0 GPU
            for step in HOPPER_STEPS:
                for size in STEP_SIZES:
                    self.gemm_run(config, step, size, scaled,
                                  "%s %s a=%s b=%s" % (step, "x".join(map(str, size)), alpha, beta),
                                  alpha=alpha, beta=beta, copy_path="copy-engine")
            if config.type == "F16_IN_OUT":   # --kernel=hopper takes 128 or 64 rows at some sizes; hopper8 256
                for size in HOPPER_SIZES[1:] + (HOPPER_BIG, HOPPER_ROUNDS, HOPPER_SPLIT):
                    big = size in (HOPPER_BIG, HOPPER_ROUNDS, HOPPER_SPLIT)
                    self.gemm_run(config, "hopper8", size, scaled + (["--verify=gpu"] if big else []),
                                  "hopper8 %s a=%s b=%s" % ("x".join(map(str, size)), alpha, beta), alpha=alpha,
                                  beta=beta, copy_path="copy-engine", timeout=TIMEOUT_BIG if big else TIMEOUT_RUN,
                                  split=size == HOPPER_SPLIT)

    def hopper_runs(self, config):
        """d_gemm_hopper: the awkward sizes with alpha and beta, then 2048^3 on the GPU reference; a GPU other
        than 9.0 must refuse it."""
        if self.cc != "9.0":
            self.expect_exit(config, "hopper: refused on compute capability %s" % (self.cc or "?"),
                             ["--kernel=hopper", "64", "64", "64"], 3,
                             check=lambda o: [] if "9.0" in o.stderr else ["message does not name 9.0"])
            return
        alpha, beta = alpha_beta(config.type)
        scaled = ["--alpha=%s" % alpha, "--beta=%s" % beta]
        if config.ta == 0 and config.tb == 0:   # a forced budget refuses it, and says what forced it
            self.expect_exit(config, "hopper: refused under --shared-limit=64K",
                             ["--kernel=hopper", "--shared-limit=64K", "64", "64", "64"], 3,
                             check=lambda o: [] if "--shared-limit=64K allows 65536" in o.stderr
                             else ["message does not name --shared-limit=64K"])
        runs = []
        for size in HOPPER_SIZES:
            runs.append(self.gemm_run(config, "hopper", size, scaled, "hopper %s a=%s b=%s"
                                      % ("x".join(map(str, size)), alpha, beta), alpha=alpha, beta=beta,
                                      copy_path="copy-engine"))
        for size in HOPPER_CHECKED:
            runs.append(self.gemm_run(config, "hopper", size, scaled + ["--verify=gpu"],
                                      "hopper %s a=%s b=%s gpu" % ("x".join(map(str, size)), alpha, beta), alpha=alpha,
                                      beta=beta, timeout=TIMEOUT_BIG, copy_path="copy-engine",
                                      split=hopper_must_split(config.type, config.tb, size)))
        record = self.add(Record("check", config, label="hopper: step 10 ran each of step 9's tiles"))
        ran = set(getattr(run, "tile", "") for run in runs if run.status == "pass")
        missing = [tile for tile in hopper_tiles_wanted(config.type, config.ta, config.tb) if tile not in ran]
        if any(run.status == "skip" or run.detail.startswith("not run") for run in runs):
            record.status = "skip"
            record.detail = "not run: a run it needs did not run"
        else:
            record.status = "pass" if not missing else "fail"
            record.detail = "tiles that passed: %s; missing: %s" % (", ".join(sorted(ran)), ", ".join(missing) or "none")

    def matrix_shapes_file(self):
        """Where the matrix's shapes are, one M N K a line, for out/gemm --shapes (run writes it)."""
        return os.path.join(self.out, "matrix", "shapes.txt")

    def matrix_runs(self, config, kernel):
        """One kernel of a STEPS=1 build at every shape of the matrix, in one process (--shapes): a record
        per shape, from its kv line; a GPU that is not 9.0 must refuse the hopper kernels."""
        if kernel.startswith("hopper") and self.cc != "9.0":
            self.expect_exit(config, "matrix: %s refused on compute capability %s" % (kernel, self.cc or "?"),
                             ["--kernel=%s" % kernel, "64", "64", "64"], 3,
                             check=lambda o: [] if "9.0" in o.stderr else ["message does not name 9.0"])
            return
        alpha, beta = alpha_beta(config.type)
        path = self.matrix_shapes_file()
        argv = [self.binary_path(config), "--kernel=%s" % kernel, "--format=kv", "--iterations=1", "--warmup=0",
                "--verify=gpu", "--alpha=%s" % alpha, "--beta=%s" % beta, "--shapes=%s" % path]
        command = " ".join([config.binary] + argv[1:]).replace(self.root + os.sep, "")
        records = [self.add(Record("run", config, label="matrix %s %s" % (kernel, "x".join(map(str, size))),
                                   kernel=kernel, m=size[0], n=size[1], k=size[2], expect=0, command=command))
                   for size in MATRIX_SHAPES]
        if not self.build_ok(config):
            for record in records:
                record.detail = self.not_built(config)
            return
        outcome = self.execute(argv, TIMEOUT_BIG)
        lines = [parse_kv(line) for line in outcome.stdout.splitlines() if line.strip()]
        lines = [kv for kv in lines if kv]
        for index, record in enumerate(records):
            record.rc, record.seconds = outcome.rc, outcome.seconds / len(records)
            if outcome.skipped:
                record.status, record.detail = "skip", "not run: " + outcome.skipped
                continue
            if index >= len(lines):
                record.detail = "no kv line (exit %s: %s)" % (outcome.rc, first_line(outcome.stderr))
                continue
            kv = lines[index]
            problems = self.compare_kv(config, kernel, (record.m, record.n, record.k), kv, True, alpha, beta)
            if kv.get("result") != "pass":
                problems.append("result=%s, worst at (%s,%s)" % (kv.get("result"), kv.get("worst_i"),
                                                                 kv.get("worst_j")))
            record.take_error(kv)
            record.status = "pass" if not problems else "fail"
            record.detail = "; ".join(problems)
        if outcome.rc not in (0, 1) and not outcome.skipped:
            records[-1].status = "fail"
            records[-1].detail += "; exit %s: %s" % (outcome.rc, first_line(outcome.stderr))

    def help_check(self, config):
        """The matrix plans MATRIX_KERNELS; the binary's --help names what a reader can run. They must agree, so that
        no kernel goes untested and none is planned that the program lacks."""
        record = self.add(Record("path", config, label="matrix: --help names the planned kernels", expect=0))
        if not self.build_ok(config):
            record.detail = self.not_built(config)
            return
        argv = [self.binary_path(config), "--help"]
        record.command = " ".join([config.binary, "--help"])
        outcome = self.execute(argv, TIMEOUT_RUN)
        record.rc, record.seconds = outcome.rc, outcome.seconds
        if outcome.skipped:
            record.status, record.detail = "skip", "not run: " + outcome.skipped
            return
        named = kernels_from_help(outcome.stdout)
        unplanned = [k for k in named if k not in MATRIX_KERNELS]
        absent = [k for k in MATRIX_KERNELS if k not in named]
        problems = (["--help names %s, not in MATRIX_KERNELS" % ",".join(unplanned)] if unplanned else []) + \
            (["planned %s, which --help does not name" % ",".join(absent)] if absent else [])
        record.status = "pass" if outcome.rc == 0 and not problems else "fail"
        record.detail = "; ".join(problems) or "%d kernels" % len(named)

    def peak_run(self, config):
        record = self.add(Record("run", config, label="--peak", kernel="peak", expect=0))
        if not self.build_ok(config):
            record.detail = self.not_built(config)
            return
        argv = [self.binary_path(config), "--peak", "--format=kv"]
        record.command = " ".join([config.binary] + argv[1:])
        outcome = self.execute(argv, TIMEOUT_RUN)
        record.rc, record.seconds = outcome.rc, outcome.seconds
        if outcome.skipped:
            record.status, record.detail = "skip", "not run: " + outcome.skipped
            return
        kv = parse_kv(outcome.stdout) or {}
        rate = to_float(kv.get("rate"))
        if outcome.rc == 0 and kv.get("mode") == "peak" and rate and rate > 0:
            record.status = "pass"
            record.detail = "peak %s %s" % (kv.get("rate"), kv.get("unit", ""))
        else:
            record.detail = "exit %s mode=%s rate=%s %s" % (outcome.rc, kv.get("mode"), kv.get("rate"),
                                                         first_line(outcome.stderr))

    # ---------------------------------------------------------------- npy
    def npy_check(self, config, kernel):
        alpha, beta = alpha_beta(config.type)
        record = self.add(Record("npy", config, label="npy %s ta%d tb%d" % (kernel, config.ta, config.tb),
                                 kernel=kernel, m=NPY_SIZE[0], n=NPY_SIZE[1], k=NPY_SIZE[2], expect=0))
        if not self.build_ok(config):
            record.detail = self.not_built(config)
            return
        directory = os.path.join(self.out, "npy")
        prefix = os.path.join(directory, "%s_%s" % (config.name, kernel))
        for suffix in ("A", "B", "C_in", "C_out"):
            try:
                os.remove("%s_%s.npy" % (prefix, suffix))
            except FileNotFoundError:
                pass
        argv = [self.binary_path(config), "--kernel=%s" % kernel, "--format=kv", "--iterations=1", "--warmup=0",
                "--alpha=%s" % alpha, "--beta=%s" % beta, "--dump=%s" % prefix] + [str(s) for s in NPY_SIZE]
        record.command = " ".join([config.binary] + argv[1:])
        outcome = self.execute(argv, TIMEOUT_RUN)
        record.rc, record.seconds = outcome.rc, outcome.seconds
        if outcome.skipped:
            record.status, record.detail = "skip", "not run: " + outcome.skipped
            return
        if outcome.rc != 0:
            record.detail = "dump run exit %s: %s" % (outcome.rc, first_line(outcome.stderr))
            return
        try:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import npy_check
        except ImportError as error:
            record.detail = "cannot import numpy/npy_check: %s" % error
            return
        try:
            result = npy_check.check(prefix, config.type, float(alpha), float(beta), config.ta, config.tb,
                                     mnk=config.mnk, expect_mnk_size=NPY_SIZE)
        except Exception as error:  # report, never crash the whole run
            record.detail = "npy_check raised %s: %s" % (type(error).__name__, error)
            return
        record.ratio = result.worst_ratio
        record.max_err = "%.4g" % result.max_abs_err
        record.status = "pass" if result.ok else "fail"
        record.detail = result.message()
        self.log("npy %s %s: %s" % (config.name, kernel, record.detail))

    # ---------------------------------------------------------------- sanitizers
    def sanitizer_run(self, config, tool, kernel, verify="cpu", shared_limit=None, size=SANITIZER_SIZE):
        alpha, beta = alpha_beta(config.type)
        label = "%s %s%s%s" % (tool, kernel, "" if verify == "cpu" else " --verify=" + verify,
                               "" if size == SANITIZER_SIZE else " " + "x".join(map(str, size)))
        record = self.add(Record("sanitizer", config, label=label, kernel=kernel, m=size[0], n=size[1], k=size[2],
                                 expect=0))
        if not self.build_ok(config):
            record.detail = self.not_built(config)
            return
        if not self.sanitizer:
            record.detail = "compute-sanitizer not found"
            return
        argv = [self.sanitizer, "--tool", tool]
        if tool == "memcheck":
            argv += ["--leak-check", "full"]
        argv += [self.binary_path(config), "--kernel=%s" % kernel, "--format=kv", "--iterations=1", "--warmup=0",
                 "--verify=%s" % verify, "--alpha=%s" % alpha, "--beta=%s" % beta] + [str(s) for s in size]
        if shared_limit:
            argv.insert(-3, "--shared-limit=%s" % shared_limit)
            label += " --shared-limit=%s" % shared_limit
        record.command = " ".join(["compute-sanitizer"] + argv[1:])
        outcome = self.execute(argv, TIMEOUT_SANITIZER, log=False)
        record.rc, record.seconds = outcome.rc, outcome.seconds
        if outcome.skipped:
            record.status, record.detail = "skip", "not run: " + outcome.skipped
            return
        log_path = os.path.join(self.out, "sanitizer", "%s_%s_%s_%s%s%s.log" % (
            config.name, tool, kernel, verify, "_" + shared_limit if shared_limit else "",
            "" if size == SANITIZER_SIZE else "_" + "x".join(map(str, size))))
        text = outcome.stdout + "\n" + outcome.stderr
        with open(log_path, "w") as handle:
            handle.write("$ %s\nrc=%s %.1fs\n%s" % (record.command, outcome.rc, outcome.seconds, text))
        errors = [int(n) for n in re.findall(r"ERROR SUMMARY:\s*(\d+) error", text)]
        races = re.findall(r"RACECHECK SUMMARY:\s*(\d+) hazards? displayed\s*\((\d+) errors?,\s*(\d+) warnings?\)", text)
        count = sum(errors) + sum(int(r[1]) for r in races)
        warnings = sum(int(r[2]) for r in races)
        record.errors = count
        problems = []
        if not errors and not races:
            problems.append("no sanitizer summary")
        if count:
            problems.append("%d errors" % count)
        if warnings:
            problems.append("%d racecheck warnings (not counted as errors)" % warnings)
        if outcome.rc != 0:
            problems.append("exit %s" % outcome.rc)
        if "not supported" in text.lower():
            problems.append("device not supported by compute-sanitizer")
        record.status = "pass" if (errors or races) and count == 0 and outcome.rc == 0 else "fail"
        if record.status == "fail":
            first_error = next((l.strip() for l in text.splitlines()
                                if l.startswith("=========") and ("Invalid" in l or "Hazard" in l
                                                                 or "Uninitialized" in l or "error" in l.lower())
                                and "SUMMARY" not in l), "")
            if first_error:
                problems.append(first_error[:160])
        problems.append("log: %s" % os.path.relpath(log_path, self.root))
        record.detail = "; ".join(problems)
        self.log("sanitizer %s %s: %s %.1fs %s" % (config.name, label, record.status, outcome.seconds, record.detail))

    # ---------------------------------------------------------------- failure paths
    def expect_exit(self, config, label, args, expect, env_update=None, check=None, timeout=TIMEOUT_RUN):
        """Run with args and compare the exit status; errors must be one stderr line 'gemm: ...'."""
        record = self.add(Record("path", config, label=label, expect=expect))
        if not self.build_ok(config):
            record.detail = self.not_built(config)
            return record
        env = None
        if env_update is not None:
            env = dict(os.environ)
            env.update(env_update)
        argv = [self.binary_path(config)] + list(args)
        prefix = " ".join("%s=%s" % item for item in (env_update or {}).items())
        record.command = (prefix + " " if prefix else "") + " ".join([config.binary] + list(args))
        outcome = self.execute(argv, timeout, env=env)
        record.rc, record.seconds = outcome.rc, outcome.seconds
        if outcome.skipped:
            record.status, record.detail = "skip", "not run: " + outcome.skipped
            return record
        problems = []
        if outcome.rc != expect:
            problems.append("exit %s, want %s" % (outcome.rc, expect))
        stderr_lines = [l for l in outcome.stderr.splitlines() if l.strip()]
        if expect not in (0, 1):
            if len(stderr_lines) != 1:
                problems.append("%d stderr lines, want 1" % len(stderr_lines))
            if not stderr_lines or not stderr_lines[0].startswith("gemm: "):
                problems.append("stderr does not start with 'gemm: '")
        if check:
            problems += check(outcome)
        record.status = "pass" if not problems else "fail"
        message = stderr_lines[0] if stderr_lines else first_line(outcome.stdout)
        record.detail = "; ".join(problems + ['"%s"' % message[:110]])
        return record

    def failure_paths(self, default, unsigned, signed_int):
        small = ["16", "16", "16"]
        quiet = ["--iterations=1", "--warmup=0"]
        for label, args in (
                ("usage: unknown kernel", ["--kernel=bogus"] + small),
                ("usage: two sizes", ["16", "16"]),
                ("usage: non-numeric size", ["16", "x", "16"]),
                ("usage: zero size", ["0", "16", "16"]),
                ("usage: unknown option", ["--no-such-option"] + small),
                ("usage: bad --verify", ["--verify=maybe"] + small),
                ("usage: bad --format", ["--format=xml"] + small),
                ("usage: bad --iterations", ["--iterations=abc"] + small),
                ("usage: --print 64^3", ["--print", "64", "64", "64"])):
            self.expect_exit(default, label, args, 2)
        if signed_int.type == "I8_IN_I32_OUT":   # --types may leave the integer type pairs out
            self.expect_exit(signed_int, "usage: --alpha=1.5 on I8", ["--alpha=1.5"] + small, 2)
        self.expect_exit(default, "no GPU visible", ["--format=kv"] + quiet + small, 3,
                         env_update={"CUDA_VISIBLE_DEVICES": ""})
        self.expect_exit(default, "dump to missing dir", ["--format=kv", "--dump=/nonexistent-gemm-dir/x"] + quiet + small, 6)
        self.expect_exit(default, "device memory exhausted %dx%dx%d" % OOM_SIZE,
                         ["--verify=off", "--format=kv"] + quiet + [str(s) for s in OOM_SIZE], 4, timeout=150)

        def has_stdout(outcome):
            return [] if outcome.stdout.strip() else ["nothing on stdout"]
        self.expect_exit(default, "--help", ["--help"], 0, check=has_stdout)
        self.expect_exit(default, "--self-test", ["--self-test"], 0)

        def csv_two_lines(outcome):
            lines = [l for l in outcome.stdout.splitlines() if l.strip()]
            if len(lines) != 2:
                return ["%d stdout lines, want header + 1 row" % len(lines)]
            header, row = next(csv.reader([lines[0]])), next(csv.reader([lines[1]]))
            if len(header) != len(row):
                return ["csv header has %d fields, row %d" % (len(header), len(row))]
            return [] if "result" in header else ["csv header lacks result"]
        self.expect_exit(default, "--format=csv", ["--format=csv"] + quiet + ["64", "48", "40"], 0, check=csv_two_lines)
        self.expect_exit(default, "--format=text", quiet + ["100", "90", "80"], 0, check=has_stdout)
        self.expect_exit(default, "--print 4 5 3", ["--print"] + quiet + ["4", "5", "3"], 0, check=has_stdout)

        def cublas_numeric(outcome):
            kv = parse_kv(outcome.stdout) or {}
            rate = to_float(kv.get("cublas_rate"))
            return [] if rate and rate > 0 else ["cublas_rate=%s" % kv.get("cublas_rate")]

        def cublas_na(outcome):
            kv = parse_kv(outcome.stdout) or {}
            return [] if kv.get("cublas_rate") == "na" else ["cublas_rate=%s, want na" % kv.get("cublas_rate")]
        self.expect_exit(default, "--cublas 512^3", ["--cublas", "--format=kv", "--iterations=2", "--warmup=1",
                                                      "512", "512", "512"], 0, check=cublas_numeric)

        def cold_l2_ran(outcome):   # evict_l2 ran before each timed run of both, and the result still passed
            kv = parse_kv(outcome.stdout) or {}
            wrong = [] if kv.get("cold_l2") == "1" else ["cold_l2=%s, want 1" % kv.get("cold_l2")]
            wrong += [] if kv.get("result") == "pass" else ["result=%s" % kv.get("result")]
            return wrong + cublas_numeric(outcome)
        self.expect_exit(default, "--cold-l2 --cublas 300x200x100", ["--cold-l2", "--cublas", "--format=kv",
                                                                    "--iterations=3", "--warmup=1", "300", "200",
                                                                    "100"], 0, check=cold_l2_ran)
        if unsigned.type == "U8_IN_I32_OUT":
            self.expect_exit(unsigned, "--cublas on U8 (na)", ["--cublas", "--format=kv"] + quiet + ["256", "256", "256"],
                             0, check=cublas_na)
        self.determinism(default)

    def determinism(self, config):
        record = self.add(Record("path", config, label="determinism: --seed=7 twice, --seed=8", expect=0))
        if not self.build_ok(config):
            record.detail = self.not_built(config)
            return
        directory = os.path.join(self.out, "npy")
        contents = []
        for tag, seed in (("s7a", 7), ("s7b", 7), ("s8", 8)):
            prefix = os.path.join(directory, "determinism_%s" % tag)
            outcome = self.execute([self.binary_path(config), "--format=kv", "--iterations=1", "--warmup=0",
                                    "--seed=%d" % seed, "--dump=%s" % prefix, "33", "17", "21"], TIMEOUT_RUN)
            record.seconds += outcome.seconds
            if outcome.skipped:
                record.status, record.detail = "skip", "not run: " + outcome.skipped
                return
            if outcome.rc != 0:
                record.detail = "seed %d run exit %s %s" % (seed, outcome.rc, first_line(outcome.stderr))
                return
            try:
                with open(prefix + "_A.npy", "rb") as a, open(prefix + "_B.npy", "rb") as b:
                    contents.append(a.read() + b.read())
            except OSError as error:
                record.detail = "cannot read dump: %s" % error
                return
        problems = []
        if contents[0] != contents[1]:
            problems.append("seed 7 twice gave different inputs")
        if contents[0] == contents[2]:
            problems.append("seeds 7 and 8 gave the same inputs")
        record.status = "pass" if not problems else "fail"
        record.detail = "; ".join(problems)

    # ---------------------------------------------------------------- plan and run
    def plan(self):
        types = self.args.types
        configs = []
        plain = {"main", "tiers", "hopper"} & set(self.args.parts)   # the parts that run the plain builds
        for type_pair in types if plain else ():
            shapes = SHAPES[type_pair][:1] if self.args.quick or "main" not in self.args.parts else SHAPES[type_pair]
            for mnk in shapes:
                for ta, tb in TRANSPOSITIONS:
                    configs.append(Config(type_pair, mnk, ta, tb))
        # default shapes first: the sanitizers, npy checks and failure paths need them
        configs.sort(key=lambda c: (not c.default_shape, SHAPES[c.type].index(c.mnk), c.ta, c.tb,
                                    types.index(c.type)))
        if "ptx" in self.args.parts:
            for arch in PTX_ARCHS:
                for type_pair in types:
                    if arch == "compute_75" and type_pair in SM80_TYPES:
                        continue
                    transpositions = ((0, 0), (1, 1)) if arch == "compute_80" else ((0, 0),)
                    for ta, tb in transpositions:
                        configs.append(Config(type_pair, SHAPES[type_pair][0], ta, tb, arch))
        if "steps" in self.args.parts or "matrix" in self.args.parts:
            for type_pair in types:
                for ta, tb in TRANSPOSITIONS:
                    configs.append(Config(type_pair, SHAPES[type_pair][0], ta, tb, steps=True))
        if "steps" in self.args.parts:
            if FAULT_TYPE in types:
                for arch in ("compute_80", "compute_75"):
                    configs.append(Config(FAULT_TYPE, FAULT_MNK, 0, 0, arch, steps=True))
        return configs

    def run(self):
        args = self.args
        if self.dry:
            self.gpu, self.cc = "the plan for a %s GPU" % args.list_cc, args.list_cc
            self.sanitizer = None if args.skip_sanitizers else "compute-sanitizer"
            return self.list_plan()
        for sub in ("build", "sanitizer", "npy", "matrix"):
            os.makedirs(os.path.join(self.out, sub), exist_ok=True)
        with open(self.matrix_shapes_file(), "w") as handle:
            handle.write("# tests/gpu_test.py MATRIX_SHAPES\n" + "".join("%d %d %d\n" % s for s in MATRIX_SHAPES))
        self.log_file = open(os.path.join(self.out, "log.txt"), "w")
        self.gpu_info()
        self.sanitizer = None if args.skip_sanitizers else self.find_sanitizer()
        return self.run_plan()

    def list_plan(self):
        """--list: the checks run_plan would make, one a line, nothing built or run."""
        self.run_plan()
        count = 0
        for record in self.records:
            if record.kind in ("build", "internal"):
                continue
            config = record.config
            layout = "TYPE=%s TRANSPOSE_A=%d TRANSPOSE_B=%d" % (config.type, config.ta, config.tb) if config else "-"
            alpha_beta_args = re.findall(r"--(?:alpha|beta)=\S+", record.command)
            print("%s kernel=%s %s size=%s %s | %s | %s" % (
                record.kind, record.kernel or "-", layout,
                "x".join(str(v) for v in (record.m, record.n, record.k)) if record.m != "" else "-",
                " ".join(alpha_beta_args) or "-", record.label, record.command.replace(self.root + os.sep, "")))
            count += 1
        print("gpu-test --list: %d checks" % count)
        return 0

    def run_plan(self):
        args = self.args
        configs = self.plan()
        by_name = {c.name: c for c in configs}
        self.say("gpu-test: %s; %d configurations; budget %ds; jobs %d; sanitizer %s; out %s"
                 % (self.gpu, len(configs), args.budget, args.jobs,
                    "skipped" if args.skip_sanitizers else (self.sanitizer or "NOT FOUND"),
                    os.path.relpath(self.out, self.root)))
        if not self.dry and not args.no_build and not self.tangle():
            self.say("gpu-test: cannot tangle gemm.md into out/gemm.cu")
            self.say("gpu-test: 0 passed, 1 failed")
            return 1

        build_pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
        san_pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.san_jobs))
        pools = (build_pool, san_pool)
        try:
            t0 = time.monotonic()
            main_part = "main" in args.parts
            faults = [] if args.skip_failure_paths or FAULT_TYPE not in args.types or not main_part else \
                [FaultConfig(fault) for fault in FAULTS]
            for config in configs + faults:
                self.builds[config.name] = build_pool.submit(self.build, config)
            all_builds = list(self.builds.values())

            def builds_done(_):
                self.phase_seconds["builds (wall)"] = time.monotonic() - t0
            threading.Thread(target=lambda: (concurrent.futures.wait(all_builds), builds_done(None)),
                             daemon=True).start()

            default_of = {t: by_name.get("%s_%s_ta0_tb0" % (t, SHAPES[t][0])) for t in args.types}
            # sanitizers: alongside the plain runs, up to san_jobs at a time
            san_futures = []
            if not args.skip_sanitizers and "tiers" in args.parts:
                for type_pair in args.types:   # the smallest tiles of each type pair
                    smallest = "99K" if (type_pair, "64K") in NO_TILE else "64K"
                    if default_of[type_pair] is not None:
                        san_futures.append(san_pool.submit(self.guarded_sanitizer, default_of[type_pair], "memcheck",
                                                           "fast", "cpu", smallest))
            if not args.skip_sanitizers and "ptx" in args.parts:
                for arch, tools in (("compute_80", ("memcheck", "racecheck")), ("compute_75", ("memcheck",))):
                    config = by_name.get("%s_%s_ta0_tb0_%s" % (FAULT_TYPE, FAULT_MNK, arch))
                    for tool in tools if config else ():
                        san_futures.append(san_pool.submit(self.guarded_sanitizer, config, tool, "fast", "cpu"))
            if not args.skip_sanitizers and "steps" in args.parts:
                for type_pair in args.types:
                    config = by_name.get("%s_%s_ta0_tb0_steps" % (type_pair, SHAPES[type_pair][0]))
                    for step in STEPS if config else ():
                        san_futures.append(san_pool.submit(self.guarded_sanitizer, config, "memcheck", step, "cpu"))
                        if type_pair in RACECHECK_STEP_TYPES and step in RACECHECK_STEPS:
                            san_futures.append(san_pool.submit(self.guarded_sanitizer, config, "racecheck", step, "cpu"))
            if not args.skip_sanitizers and "hopper" in args.parts and self.cc == "9.0":
                for type_pair in args.types:
                    for ta, tb in ((0, 0), (1, 1)):
                        config = by_name.get("%s_%s_ta%d_tb%d" % (type_pair, SHAPES[type_pair][0], ta, tb))
                        steps = by_name.get("%s_%s_ta%d_tb%d_steps" % (type_pair, SHAPES[type_pair][0], ta, tb))
                        for kernel in ("hopper", "hopper8") if steps and type_pair == "F16_IN_OUT" else ("hopper",):
                            built = steps if kernel == "hopper8" else config   # hopper8: the 256-row tile
                            if built:
                                san_futures.append(san_pool.submit(self.guarded_sanitizer, built, "memcheck", kernel, "cpu"))
                                if (ta, tb) == (0, 0):   # step 7's split last round, step 8's split tiles, the gathering
                                    # fp16: 128 x 128 with its last round split, 64 x 128 and 128 x 256 all split,
                                    # then 64 x 128 whole; tf32, int8, uint8 (roles swapped): two tiles without a cluster
                                    for size in (HOPPER_SPLIT,) + HOPPER_FILL + (HOPPER_SIZES[2], HOPPER_ROUNDS,
                                                                                  HOPPER_WIDE[0]) + HOPPER_192 + (
                                            HOPPER_SWAPPED if type_pair in SWAPS else ()):
                                        san_futures.append(san_pool.submit(self.guarded_sanitizer, built, "memcheck",
                                                                           kernel, "off", size=size))
            if not args.skip_sanitizers and "matrix" in args.parts:
                steps_builds = [c for c in configs if c.steps and not c.arch]
                for index, kernel in enumerate(MATRIX_KERNELS):   # a sample of each kernel, in turn
                    if steps_builds and (not kernel.startswith("hopper") or self.cc == "9.0"):
                        config = steps_builds[(index * 5) % len(steps_builds)]
                        san_futures.append(san_pool.submit(self.guarded_sanitizer, config, "memcheck", kernel, "gpu",
                                                           size=MATRIX_SANITIZER_SHAPE))
            if not args.skip_sanitizers and main_part:
                for type_pair in args.types:
                    main = default_of[type_pair]
                    transposed = by_name.get("%s_%s_ta1_tb1" % (type_pair, SHAPES[type_pair][0]))
                    jobs = [(main, "memcheck", "fast", "cpu"), (main, "memcheck", "naive", "cpu"),
                            (main, "racecheck", "fast", "cpu")]
                    if not args.quick:
                        jobs += [(transposed, "memcheck", "fast", "cpu"), (transposed, "memcheck", "naive", "cpu"),
                                 (main, "initcheck", "fast", "cpu"), (main, "initcheck", "naive", "cpu"),
                                 (main, "synccheck", "fast", "cpu"), (main, "synccheck", "naive", "cpu"),
                                 (main, "memcheck", "fast", "gpu")]
                    for job in jobs:
                        if job[0] is not None:
                            san_futures.append(san_pool.submit(self.guarded_sanitizer, *job))

            # the GPU lane: one process at a time, work picked as its build is ready
            lane = []
            for config in configs if main_part else ():
                if config.default_shape:
                    lane.append(([config], lambda c=config: self.config_runs(c, args.quick)))
            for config in configs if "tiers" in args.parts else ():
                if config.default_shape:
                    lane.append(([config], lambda c=config: self.tier_runs(c, BUDGETS)))
            for config in configs if "hopper" in args.parts else ():
                if config.mnk == SHAPES[config.type][0] and not config.arch and not config.steps:
                    lane.append(([config], lambda c=config: self.hopper_runs(c)))
            ptx80 = by_name.get("%s_%s_ta0_tb0_compute_80" % (FAULT_TYPE, FAULT_MNK))
            if ptx80 and "ptx" in args.parts:   # the ptx part builds it: a plan split by parts keeps this check
                lane.append(([ptx80], lambda c=ptx80: self.expect_exit(
                    c, "hopper: a compute_80 build has no sm_90a code", ["--kernel=hopper", "64", "64", "64"], 3,
                    check=lambda o: [] if "sm_90a" in o.stderr else ["message does not name sm_90a"])))
            for config in configs if "steps" in args.parts else ():
                if config.steps:
                    budgets = BUDGETS if (config.ta == config.tb and not config.arch) else ()
                    lane.append(([config], lambda c=config, b=budgets: self.step_runs(c, b)))
            matrix_builds = [c for c in configs if "matrix" in args.parts and c.steps and not c.arch]
            if matrix_builds:
                lane.append(([matrix_builds[0]], lambda c=matrix_builds[0]: self.help_check(c)))
            for config in configs if "matrix" in args.parts else ():
                if config.steps and not config.arch:
                    for kernel in MATRIX_KERNELS:
                        lane.append(([config], lambda c=config, k=kernel: self.matrix_runs(c, k)))
            for config in configs:
                if config.arch and not config.steps:
                    lane.append(([config], lambda c=config: self.tier_runs(c, (None,) + BUDGETS,
                                                                          big=c.ta == 0 and c.tb == 0)))
            for type_pair in args.types if main_part else ():
                for ta, tb in TRANSPOSITIONS:
                    config = by_name.get("%s_%s_ta%d_tb%d" % (type_pair, SHAPES[type_pair][0], ta, tb))
                    if config:
                        lane.append(([config], lambda c=config: self.npy_check(c, "fast")))
                main = default_of[type_pair]
                if main:
                    lane.append(([main], lambda c=main: self.npy_check(c, "naive")))
            default = default_of.get("F16_IN_F32_OUT") or next((c for c in default_of.values() if c), None)
            unsigned = default_of.get("U8_IN_I32_OUT") or default
            signed_int = default_of.get("I8_IN_I32_OUT") or default
            if default and not args.skip_failure_paths and main_part:
                needs = list({c.name: c for c in (default, unsigned, signed_int)}.values())
                lane.append((needs, lambda: self.failure_paths(default, unsigned, signed_int)))
            for fault in faults:
                lane.append(([fault], lambda c=fault: self.fault_run(c)))
            for config in configs if main_part else ():
                if not config.default_shape and not config.arch and not config.steps:
                    lane.append(([config], lambda c=config: self.config_runs(c, args.quick)))

            t_lane = time.monotonic()
            self.run_lane(lane, max(1, args.gpu_jobs))
            self.phase_seconds["GPU lane (wall)"] = time.monotonic() - t_lane
            t_san = time.monotonic()
            concurrent.futures.wait(san_futures)
            self.phase_seconds["sanitizers after lane (wall)"] = time.monotonic() - t_san
            for future in san_futures + all_builds:
                if future.exception():
                    self.add(Record("internal", None, label="worker raised", detail=repr(future.exception())))
        except KeyboardInterrupt:
            self.say("gpu-test: interrupted at %.0fs; killing children and summarizing" % self.elapsed())
            self.abort()
            with self.lock:
                for record in self.records:
                    if record.status != "pass" and not record.detail:
                        record.detail = "not run: interrupted"
            self.interrupted = True
            self.add(Record("internal", None, label="interrupted",
                            detail="interrupted (signal) at %.0fs; checks not yet started are not counted" % self.elapsed()))
        finally:
            for pool in pools:
                pool.shutdown(wait=False, cancel_futures=True)
        return 0 if self.dry else self.summary(configs)

    def planned(self):
        """The checks this run plans, as a count per Record.key(): the same plan run dry (as --list runs it),
        for this GPU's compute capability."""
        dry = argparse.Namespace(**vars(self.args))
        dry.list = True
        tester = Tester(dry)
        tester.gpu, tester.cc = self.gpu, self.cc
        tester.sanitizer = None if self.args.skip_sanitizers else (self.sanitizer or "compute-sanitizer")
        tester.run_plan()
        for job, message in tester.raised:   # the plan itself raised: its checks cannot be counted, so it fails
            self.add(Record("internal", None, label="plan raised: %s" % job, status="error", detail=message))
        self.plan_counts = collections.Counter(r.key() for r in tester.records if r.kind not in ("build", "internal"))
        return self.plan_counts

    def unrun_planned(self):
        """A failed record for every planned check this run never made (a job that raised before reaching it, an
        interruption): nothing planned goes uncounted."""
        with self.lock:
            made = collections.Counter(r.key() for r in self.records)
        reason = "interrupted" if self.interrupted else \
            "crash: never started (%d job(s) raised)" % len(self.raised) if self.raised else "never started"
        missing = self.planned() - made
        for (kind, config_name, label), count in sorted(missing.items()):
            for _ in range(count):
                record = Record(kind, None, label="%s %s" % (config_name, label), status="error",
                                detail="not run: " + reason)
                with self.lock:
                    self.records.append(record)
        return sum(missing.values())

    def run_lane(self, lane, workers):
        """Run the GPU jobs in order of priority as their builds finish, `workers` at a time."""
        pending = [(needs, self.guarded("job %d (%s)" % (index, ", ".join(c.name for c in needs)), function))
                   for index, (needs, function) in enumerate(lane)]
        condition = threading.Condition()
        state = {"last_note": 0.0}

        def take():
            with condition:
                while pending:
                    ready = next((job for job in pending if all(self.builds[c.name].done() for c in job[0])), None)
                    if ready is not None:
                        pending.remove(ready)
                        return ready
                    condition.wait(timeout=1.0)
                return None

        def worker():
            while True:
                job = take()
                if job is None:
                    return
                job[1]()
                if self.elapsed() - state["last_note"] > 30:
                    state["last_note"] = self.elapsed()
                    self.progress()

        if workers == 1:
            worker()
            return
        threads = [threading.Thread(target=worker, daemon=True) for _ in range(workers)]
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            for thread in threads:
                thread.join(timeout=0.5)

    def progress(self):
        with self.lock:
            records = list(self.records)
        # A check starts as "fail" and says so until it ends; one still running has no detail and no time yet.
        finished = [r for r in records if r.kind != "build" and (r.passed or r.status == "skip" or r.detail or r.seconds)]
        done = len(finished)
        failed = sum(1 for r in finished if not r.passed and r.status != "skip")
        builds = sum(1 for r in records if r.kind == "build" and r.status != "fail")
        self.say("  [%4.0fs] %d builds ok, %d checks done, %d failed" % (self.elapsed(), builds, done, failed))

    # ---------------------------------------------------------------- summary
    def summary(self, configs):
        args = self.args
        self.unrun_planned()
        with self.lock:
            records = list(self.records)
        csv_path = os.path.join(self.out, "results.csv")
        with open(csv_path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(Record.FIELDS)
            for record in records:
                writer.writerow(record.row())

        rows = []
        seen = []
        for config in configs:
            if config.row_key() not in seen:
                seen.append(config.row_key())
        width = max([len(t) for t, _ in seen] + [9])
        header = "%-*s %-8s %6s %9s %9s %6s %14s %6s" % (width, "type pair", "shape", "builds", "runs",
                                                        "worst", "(npy)", "sanitizers", "npy")
        rows.append(header)
        rows.append("%-*s %-8s %6s %9s %9s %6s %14s %6s" % (width, "", "", "", "pass/all", "err/bound",
                                                            "", "ok/all (errs)", ""))

        def fraction(items):
            return "%d/%d" % (sum(1 for r in items if r.passed), len(items)) if items else "-"

        def worst(items):
            values = [r.ratio for r in items if r.ratio is not None]
            return "%.3g" % max(values) if values else "-"

        for key in seen:
            mine = [r for r in records if r.config is not None and r.config.row_key() == key]
            builds = [r for r in mine if r.kind == "build"]
            runs = [r for r in mine if r.kind == "run"]
            npys = [r for r in mine if r.kind == "npy"]
            sans = [r for r in mine if r.kind == "sanitizer"]
            if sans:
                errors = sum(int(r.errors) for r in sans if str(r.errors).isdigit())
                san_text = "%s (%d)" % (fraction(sans), errors)
            else:
                san_text = "-"
            rows.append("%-*s %-8s %6s %9s %9s %6s %14s %6s" % (width, key[0], key[1], fraction(builds),
                                                                fraction(runs), worst(runs), worst(npys),
                                                                san_text, fraction(npys)))
        paths = [r for r in records if r.kind == "path"]
        # Budget: work the --budget stopped is reported, not failed. Anything else that did not pass fails: a check
        # that ran and failed, a build, a job that raised, a check planned and never made.
        budget = [r for r in records if r.not_run_reason() == "budget"]
        failures = [r for r in records if not r.passed and r.not_run_reason() != "budget"]
        passed = sum(1 for r in records if r.passed and r.kind != "build")   # a build is not a check
        failed = len(failures)
        checks = [r for r in records if r.kind not in ("build", "internal")]
        reasons = collections.Counter(r.not_run_reason() for r in checks if r.not_run_reason())
        ran = len(checks) - sum(reasons.values())
        counts = "gpu-test: planned %d, run %d, passed %d, failed %d, not run %d%s" % (
            sum(self.plan_counts.values()), ran, sum(1 for r in checks if r.passed),
            sum(1 for r in checks if not r.passed and not r.not_run_reason()), sum(reasons.values()),
            " (%s)" % ", ".join("%s %d" % item for item in sorted(reasons.items())) if reasons else "")
        extra = [r for r in records if r.kind in ("build", "internal") and not r.passed]
        if extra:
            counts += "; and %d builds or jobs failed or raised" % len(extra)

        out = ["", "== gpu-test summary: %s ==" % self.gpu]
        out += rows
        if paths:
            out.append("failure paths and options (exit status observed / wanted):")
            for record in paths:
                mark = "ok" if record.passed else "skip" if record.not_run_reason() else "FAIL"
                out.append("  %-4s %-44s %7s/%-2s %s" % (mark, record.label[:44],
                                                          record.rc, record.expect, record.detail[:120]))
        if failures:
            # builds and real failures first, then what did not run, grouped per configuration
            skipped = [r for r in failures if r.detail.startswith("not run")]
            real = [r for r in failures if not r.detail.startswith("not run")]
            real.sort(key=lambda r: r.kind != "build")
            lines = []
            for record in real:
                name = record.config.name if record.config else ""
                lines.append("  %s %s [%s] %s" % (name, record.label, record.status, record.detail[:220]))
            groups = {}
            for record in skipped:
                names = groups.setdefault(record.detail, [])
                names.append(record.config.name if record.config else "-")
            for detail, names in groups.items():
                distinct = sorted(set(names))
                lines.append("  %d checks %s, in %d configuration(s): %s%s" % (
                    len(names), detail, len(distinct), ", ".join(distinct[:3]), ", ..." if len(distinct) > 3 else ""))
            limit = args.show_failures
            out.append("failures (%d%s):" % (len(failures), ", %d lines of %d shown" % (limit, len(lines))
                                            if len(lines) > limit else ""))
            out += lines[:limit]
        timing = ", ".join("%s %.0fs" % item for item in self.phase_seconds.items())
        run_seconds = sum(r.seconds for r in records if r.kind in ("run", "npy", "path"))
        san_seconds = sum(r.seconds for r in records if r.kind == "sanitizer")
        build_seconds = sum(r.seconds for r in records if r.kind == "build")
        out.append("time: total %.0fs; %s; summed: builds %.0fs, GPU runs %.0fs, sanitizers %.0fs"
                   % (self.elapsed(), timing, build_seconds, run_seconds, san_seconds))
        out.append("logs: %s, %s, %s/{build,sanitizer}/" % (os.path.relpath(os.path.join(self.out, "log.txt"), self.root),
                                                           os.path.relpath(csv_path, self.root),
                                                           os.path.relpath(self.out, self.root)))
        if budget:
            out.append("%d checks not run: the --budget of %ds was used up (not counted as failed)"
                       % (len(budget), args.budget))
        out.append(counts)
        out.append("gpu-test: %d passed, %d failed" % (passed, failed))
        for line in out:
            self.say(line)
        if self.log_file:
            self.log_file.close()
            self.log_file = None
        return 0 if failed == 0 and passed > 0 else 1


def main(argv=None):
    parser = argparse.ArgumentParser(description="Build and test every configuration of out/gemm on a GPU.")
    parser.add_argument("--quick", action="store_true",
                        help="default WMMA shapes only, sizes 127x253x61 and 1024^3, fewer sanitizer runs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="parallel builds (default: CPUs)")
    parser.add_argument("--gpu-jobs", type=int, default=4,
                        help="binaries run at a time on the GPU (default 4; 1: sequential)")
    parser.add_argument("--san-jobs", type=int, default=4, help="compute-sanitizer runs at a time (default 4)")
    parser.add_argument("--out", default=os.path.join("out", "gpu-test"), help="log directory (default out/gpu-test)")
    parser.add_argument("--types", default=",".join(TYPE_PAIRS), help="comma-separated type pairs")
    parser.add_argument("--budget", type=int, default=1200,
                        help="seconds after which no new work starts (default 1200; every part takes about 520 on "
                             "an H100 with --gpu-jobs 4); running work gets %ds more" % GRACE)
    parser.add_argument("--parts", default="main,tiers,ptx,steps,hopper,matrix",
                        help="what to run (default all): main (every configuration, failure paths), tiers (the "
                             "tiles of smaller GPUs), ptx (PTX-only builds for sm_75, 80, 86, 89), steps (steps 1 "
                             "to 6 of d_gemm, built with STEPS=1), hopper (d_gemm_hopper, on a 9.0 GPU), matrix "
                             "(every --kernel x type pair x layout at the awkward sizes, --shapes)")
    parser.add_argument("--list", action="store_true",
                        help="print the plan, one check a line, and exit: no GPU, nothing built or run")
    parser.add_argument("--list-cc", default="9.0", help="with --list: the compute capability to plan for")
    parser.add_argument("--skip-sanitizers", action="store_true")
    parser.add_argument("--skip-failure-paths", action="store_true")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already in out/cfg/")
    parser.add_argument("--sanitizer", default=None, help="path of compute-sanitizer")
    parser.add_argument("--make-arg", action="append", default=[], help="extra make argument (repeatable), e.g. ARCH=sm_90")
    parser.add_argument("--show-failures", type=int, default=30, help="failures listed in the summary")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.types = [t.strip() for t in args.types.split(",") if t.strip()]
    args.parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    if not args.parts or set(args.parts) - {"main", "tiers", "ptx", "steps", "hopper", "matrix"}:
        parser.error("--parts takes main, tiers, ptx, steps, hopper and matrix")
    unknown = [t for t in args.types if t not in TYPE_PAIRS]
    if unknown or not args.types:
        parser.error("unknown type pair(s): %s (choose from %s)" % (",".join(unknown), ",".join(TYPE_PAIRS)))
    args.root = os.path.abspath(args.root)

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    return Tester(args).run()


if __name__ == "__main__":
    sys.exit(main())
