"""The step sections show each step's own code (issue 31): docs/step_code.py folds the template's
switches for one step, docs/filters/steps.lua puts the result on the page.

* Every step of d_gemm has a section headed "Step N: ..." holding one {.step} block for that step.
* Each block folds: the step's flags are gone from the code shown, a later step's mechanisms are
  absent from an earlier step's code, every step after the first marks at least one new line, and the
  rate printed is the one in the committed CSV.
* The folding itself, on made-up code: known branches go, unknown ones stay (so it can fail).
* The built page has one marked code block per {.step} block.
"""

import csv
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs"))
import step_code  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "tests"))
from test_build import find_nvcc  # noqa: E402

GEMM_MD = os.path.join(ROOT, "gemm.md")
STEP_BLOCK = re.compile(r"^```\{\.step ([^}]*)\}$")
STEPS = {"d_gemm": list(range(1, 8)), "d_gemm_hopper": list(range(1, 9))}   # 9: a host rule; 10: one function
STEPS_CSV = os.path.basename(step_code.records.STEPS)   # the canonical run's make steps
CSV = {"d_gemm": (STEPS_CSV, "step%d", "naive"), "d_gemm_hopper": (STEPS_CSV, "hopper%d", "step7")}


def step_blocks(path=GEMM_MD):
    """(line, the nearest heading above it, attributes) of every {.step} block."""
    out, heading, fence = [], None, False
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.rstrip("\n")
            match = STEP_BLOCK.match(line)
            if match and not fence:
                out.append((number, heading, step_code.block_attributes(match.group(1))))
            if line.startswith("```"):
                fence = not fence
            elif not fence and re.match(r"#{2,3} ", line):
                heading = re.sub(r"\s*\{[^}]*\}$", "", line.split(" ", 1)[1])
    return out


def run_view(attributes):
    args = [sys.executable, os.path.join(ROOT, "docs", "step_code.py"), GEMM_MD, "--kernel", attributes["kernel"],
            "--step", attributes["step"], "--show", attributes["show"]]
    if "context" in attributes:
        args += ["--context", attributes["context"]]
    if "numbers" in attributes:
        args += ["--numbers"]
    if "spell" in attributes:
        args += ["--spell"]
    result = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=120)
    if result.returncode != 0:
        raise AssertionError("step_code.py failed for %s: %s" % (attributes, result.stderr.strip()))
    new, rate, code = result.stdout.split("\n", 2)
    return step_code.numbers(new[len("new: "):]), rate[len("rate: "):], code


def entry_ptx(ptx, name):
    """The PTX of the kernel `name`, its own names (the entry's, its labels') made neutral."""
    match = re.search(r"\.entry (_Z\d+%s\w*)\(" % name, ptx)
    assert match, "no entry %s in the PTX" % name
    body = ptx[match.start():ptx.find("\n}\n", match.start())]
    return re.sub(r"\$L__BB\d+_", "$L__BB_", body.replace(match.group(1)[2:], "KERNEL"))


def csv_rate(kernel_name, name=STEPS_CSV):
    path = os.path.join(ROOT, "docs", "bench", name)
    with open(path, encoding="utf-8") as handle:
        for row in csv.DictReader(line for line in handle if not line.startswith("#")):
            if (row["kernel"], row["type"], row["transpose_a"], row["transpose_b"], row["m"]) == \
                    (kernel_name, "F16_IN_F32_OUT", "0", "0", "8192"):
                return float(row["rate"])
    raise AssertionError("no fp16 8192 row for %s in %s" % (kernel_name, name))


class StepSections(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.blocks = step_blocks()
        cls.views = {}
        for _, _, attributes in cls.blocks:
            cls.views[(attributes["kernel"], int(attributes["step"]))] = run_view(attributes)

    def test_every_step_has_its_section_and_its_code(self):
        """15 step sections: 7 of d_gemm, 8 of d_gemm_hopper (step 9, a host rule, has none, and step 10 shows
        store_staged whole), each with its folded code."""
        for kernel, wanted in STEPS.items():
            steps = sorted(int(a["step"]) for _, _, a in self.blocks if a["kernel"] == kernel)
            self.assertEqual(steps, wanted, "one {.step} block per step of %s" % kernel)
        for line, heading, attributes in self.blocks:
            if attributes["kernel"] not in STEPS:
                continue
            self.assertRegex(heading or "", r"^Step %s\b" % attributes["step"],
                             "gemm.md:%d: step %s's code is under '%s'" % (line, attributes["step"], heading))

    def test_the_sections_come_in_step_order(self):
        for kernel in STEPS:
            lines = [line for line, _, a in self.blocks if a["kernel"] == kernel]
            self.assertEqual(lines, sorted(lines))

    def test_the_step_flags_are_folded_away(self):
        for (kernel, step), (_, _, code) in self.views.items():
            for flag in ("tile.pipelined", "tile.copy_engine", "tile.row_stores", "tma", "USE_TMA", "#if"):
                self.assertNotRegex(code, r"(?<![\w.])%s\b" % re.escape(flag),
                                    "%s step %d still shows %s" % (kernel, step, flag))

    def test_no_later_mechanism_in_step_1(self):
        _, _, code = self.views[("d_gemm", 1)]
        body = code.split("{", 1)[1]
        for later in ("barrier_", "cluster_sync", "cluster_rank", "request_slab", "load_stage_tensor", "a_map",
                      "prefetch", "static_assert"):
            self.assertNotIn(later, body, "step 1's code shows %s, a mechanism of a later step" % later)
        self.assertIn("__syncthreads();", code)

    def test_the_tensor_maps_enter_the_signature_at_step_5(self):
        """Issue 41: step 1's kernel took step 5's tensor maps; a parameter the folded body never reads leaves the
        view, and a comment says which step adds it (the program keeps one signature for every step)."""
        for step in (1, 2, 3, 4):
            _, _, code = self.views[("d_gemm", step)]
            self.assertNotIn("CUtensorMap", code, "step %d's signature shows step 5's tensor maps" % step)
            self.assertNotIn("__grid_constant__", code)
            if "\nd_gemm(" in code:   # step 2's view shows multiply_stage only
                self.assertIn("/* step 5 adds a_map, b_map */)", code)
        self.assertIn("/* step 5 adds a_map, b_map */)", self.views[("d_gemm", 1)][2])
        _, _, code = self.views[("d_gemm", 5)]
        self.assertIn("const __grid_constant__ CUtensorMap b_map)", code)
        self.assertNotIn("step 5 adds", code)

    def test_hopper_step_1_shows_no_pieces_cluster_or_group_in_flight(self):
        """Issue 41, a cold read of the Hopper part: step 1's code carried step 7's pieces (`if (PIECES)`, the
        slot), step 5's multicast (`everyone`, `rank * (32768 / 1)`) and step 4's `previous`, then step 2's
        producer. Each now folds away until its step: PIECES is false before step 7 splits a round, a local
        nothing reads leaves, and before step 2 the one warpgroup copies and multiplies itself."""
        args = {"kernel": "d_gemm_hopper", "step": "1", "show": "d_gemm_hopper copy_and_consume", "numbers": "1"}
        _, _, code = run_view(args)
        body = code.split("{", 1)[1]
        for later in ("if (PIECES)", "PIECES ?", "slot", "griddepcontrol", "everyone", "rank * (", "previous",
                      "produce<", " consume<", "empty", "registers()", "cluster_start", "cluster_rank", "else",
                      "next_piece", "n == 0", "&last", "LastRound"):
            self.assertNotIn(later, body, "Hopper step 1's code shows %s, a later step's" % later)
        args["show"] = "d_gemm_hopper produce request_stage consume"
        _, _, code = run_view(dict(args, step="2"))
        self.assertIn("release_buffer(&empty[s], 1);", code)
        self.assertNotIn("copy_and_consume", code)
        _, _, code = run_view(dict(args, step="4"))
        self.assertIn("previous = s;", code)
        self.assertNotIn("everyone", code)
        _, _, code = run_view(dict(args, step="5"))
        self.assertIn("everyone", code)
        self.assertIn("cluster_start();", code)
        self.assertIn("int rank = cluster_rank(),", code)
        self.assertNotIn("if (PIECES)", code)
        # step 1's one warpgroup has one piece, its tile; from step 2 both roles loop over the block's pieces
        self.assertIn("piece = Piece{(int)blockIdx.x, 0, shape.k_padded / tile.block_k, 0};", body)
        _, _, code = run_view(dict(args, step="2"))
        self.assertIn("for (int n = 0; next_piece<STEP, PIECES>(n, &shape, &last, &piece); n++) {", code)
        self.assertIn("for (int n = 0; next_piece<STEP, PIECES>(n, shape, last, &piece); n++) {", code)
        self.assertNotIn("Piece{", code)
        _, _, code = run_view(dict(args, step="7"))
        self.assertIn("if (PIECES)", code)

    def test_no_sm90_mechanism_before_step_5(self):
        """Issue 31: the copy engine and clusters appear in step 5's code, not in steps 3 and 4."""
        for step in (3, 4):
            args = {"kernel": "d_gemm", "step": str(step), "show": "d_gemm request_slab release_slab"}
            _, _, code = run_view(args)
            body = code.split("{", 1)[1]
            for later in ("cluster_sync", "cluster_rank", "fence_barrier_init", "barrier_arrive_expect",
                          "b_copied", "a_map", "load_stage_tensor"):
                self.assertNotIn(later, body, "step %d's code shows %s, a mechanism of step 5" % (step, later))
            self.assertIn("__syncthreads();   /* the barriers are ready", body)

    def test_the_copy_engine_appears_in_step_5(self):
        _, _, code = self.views[("d_gemm", 5)]
        self.assertIn("barrier_arrive_expect", code)
        self.assertIn("load_stage_tensor", code)

    def test_the_first_kernel_is_the_naive_kernel_for_fp16(self):
        """The run-up's kernel (in the WMMA chapter) is d_gemm_naive written for fp16: none of the configuration's
        names is left, and compiled beside the program (fp16, A and B as stored) its PTX is d_gemm_naive's."""
        found = [a for line, heading, a in self.blocks if a["kernel"] == "d_gemm_naive"]
        self.assertEqual(len(found), 1)
        self.assertIn("spell", found[0], "the first kernel is shown spelled out for fp16")
        _, _, code = self.views[("d_gemm_naive", 1)]
        self.assertIn("wmma::load_matrix_sync(a_frag,", code)
        self.assertIn("wmma::mma_sync(acc, a_frag, b_frag, acc);", code)
        left = set(re.findall(r"\b(FRAG_\w+|NAIVE_WARPS|STAGED_\w+|ACCUM_ZERO|input_t|accum_t|scalar_t|fragment_[abc]|"
                              r"load_fragment|round_fragment|[ab]_index|scale_accumulator|staging_[ab])\b", code))
        self.assertEqual(left, set(), "names the first kernel still uses")
        nvcc = find_nvcc()
        if nvcc is None:
            self.skipTest("nvcc not found")
        with tempfile.TemporaryDirectory(prefix="first-kernel-") as tmp:
            source = os.path.join(tmp, "first.cu")
            with open(os.path.join(ROOT, "out", "gemm.cu"), encoding="utf-8") as handle:
                program = handle.read()
            with open(source, "w", encoding="utf-8") as handle:
                handle.write(program + "\n" + code.replace("d_gemm_naive(", "d_gemm_first(", 1) + "\n")
            result = subprocess.run([nvcc, "-std=c++17", "-O3", "-gencode", "arch=compute_80,code=compute_80", "-ptx",
                                     "-o", os.path.join(tmp, "first.ptx"), source],
                                    capture_output=True, text=True, timeout=600)
            self.assertEqual(result.returncode, 0, result.stderr[-2000:])
            with open(os.path.join(tmp, "first.ptx"), encoding="utf-8") as handle:
                ptx = handle.read()
        self.assertEqual(entry_ptx(ptx, "d_gemm_naive"), entry_ptx(ptx, "d_gemm_first"),
                         "the kernel the page shows compiles to other PTX than d_gemm_naive")

    def test_hopper_steps_show_what_they_add(self):
        _, _, first = self.views[("d_gemm_hopper", 1)]
        self.assertIn("wgmma<256>(", first)                  # the instruction, in step 1's own code
        self.assertNotIn("(1 << 2) - 1", first)              # no multicast before the clusters of step 5
        self.assertIn("__syncthreads();", first)             # one warpgroup: every warp done before a refill
        new, _, second = self.views[("d_gemm_hopper", 2)]
        self.assertIn("wgmma_wait<0>();   /* at most", second)
        self.assertTrue(any("produce<STEP, PIECES>(" in second.split("\n")[n - 1] for n in new),
                        "step 2 marks its producer")
        new, _, fourth = self.views[("d_gemm_hopper", 4)]
        lines = fourth.split("\n")
        self.assertTrue(any("wgmma_wait<1>()" in lines[n - 1] for n in new), "step 4 marks its group in flight")
        new, _, fifth = self.views[("d_gemm_hopper", 5)]
        self.assertTrue(any("(1 << 2) - 1" in fifth.split("\n")[n - 1] for n in new), "step 5 marks its multicast")

    def test_every_later_step_marks_what_it_adds(self):
        for (kernel, step), (new, _, code) in self.views.items():
            if step > 1:
                self.assertTrue(new, "%s step %d marks no line as new" % (kernel, step))
                self.assertLessEqual(max(new), len(code.rstrip("\n").split("\n")))

    def test_the_rates_are_the_csv_rates(self):
        for (kernel, step), (_, rate, _) in self.views.items():
            if kernel == "d_gemm_naive":
                self.assertEqual(re.findall(r"\*\*([\d.]+) TFLOP/s\*\*", rate), ["%.1f" % csv_rate("naive")], rate)
                continue
            name, pattern, first = CSV[kernel]
            shown = re.findall(r"\*\*([\d.]+) TFLOP/s\*\*", rate)
            self.assertEqual(shown, ["%.1f" % csv_rate(pattern % step, name)], rate)
            before = csv_rate(pattern % (step - 1) if step > 1 else first, name)
            self.assertIn("%.1f" % before, rate)


MADE_UP = """\
template <int STEP>
__device__ void f(int *x, int next)
{
    constexpr Geometry tile = geometry(STEP);
    constexpr bool fast = USE_FAST && tile.fast;
    if (tile.fast) {   /* from step 2 */
        x[0] = 1;
    } else {
        x[0] = 2;
    }
    if (next > 3)
        x[1] = fast ? 5 : 6;
#if USE_FAST
    x[2] = 7;
#else
    x[2] = 8;
#endif
    g(x, !fast);
}"""


class Folding(unittest.TestCase):
    def fold(self, env):
        return "\n".join(step_code.fold(MADE_UP.split("\n"), env))

    def test_a_known_condition_keeps_its_branch(self):
        code = self.fold({"USE_FAST": 1, "tile.fast": True})
        self.assertIn("x[0] = 1;", code)
        self.assertNotIn("x[0] = 2;", code)
        self.assertIn("x[1] = 5;", code)
        self.assertIn("x[2] = 7;", code)
        self.assertIn("g(x, false);", code)
        self.assertNotIn("fast", code.replace("/* from step 2 */", ""))

    def test_a_semicolon_in_a_comment_ends_no_statement(self):
        """`if (PIECES)   /* may be launched now; it waits */` folded to half its comment and kept the call."""
        lines = ["__device__ void f(void)", "{", "    if (tile.fast)   /* one; two */", "        g(1);", "    h();",
                 "}"]
        code = "\n".join(step_code.fold(lines, {"tile.fast": False}))
        self.assertNotIn("g(1)", code)
        self.assertNotIn("two */", code)
        self.assertIn("h();", code)

    def test_an_else_after_a_commented_statement_folds_with_it(self):
        """`if (tile.cluster > 1) cluster_start();   /* ... */ else __syncthreads();`: the comment hid the `else`,
        which stayed in step 1's view on its own, code no compiler takes. Each branch keeps its own comment."""
        lines = ["__device__ void f(void)", "{", "    if (tile.fast)", "        g(1);   /* the fast one */", "    else",
                 "        g(2);   /* the slow one */", "    h();", "}"]
        for fast, kept, gone in ((False, "    g(2);   /* the slow one */", "g(1)"),
                                 (True, "    g(1);   /* the fast one */", "g(2)")):
            code = "\n".join(step_code.fold(lines, {"tile.fast": fast}))
            self.assertIn(kept + "\n    h();", code)
            self.assertNotIn(gone, code)
            self.assertNotIn("else", code)
            self.assertNotIn("the %s one" % ("fast" if not fast else "slow"), code)

    def test_an_if_constexpr_folds_as_an_if(self):
        """`if constexpr (tile.a_regs) { multiply_regs...; } else { ...wgmma... }` in multiply_slab: the pattern
        saw only `if (`, so step 1's view showed `if constexpr (false)` and both branches."""
        lines = ["__device__ void f(void)", "{", "    if constexpr (tile.fast) {", "        g(1);", "    } else {",
                 "        g(2);", "    }", "    h();", "}"]
        code = "\n".join(step_code.fold(lines, {"tile.fast": False}))
        self.assertIn("    g(2);\n    h();", code)
        self.assertNotIn("g(1)", code)
        self.assertNotIn("constexpr", code)

    def test_a_loop_that_runs_once_is_its_body(self):
        """Before the persistent grid a block has one piece: `for (int n = 0; tile.persistent ? next_piece<STEP,
        PIECES>(...) : n == 0; n++)` folds to its body. The `,` of a template's arguments before the `:` ended the
        ternary, which stayed unfolded. A loop whose body reads its counter stays a loop."""
        lines = ["__device__ void f(int *x)", "{", "    for (int n = 0; tile.fast ? g<A, B>(n, x) : n == 0; n++) {",
                 "        h(x);   /* once */", "        x++;", "    }", "}"]
        code = "\n".join(step_code.fold(lines, {"tile.fast": False}))
        self.assertEqual(code, "__device__ void f(int *x)\n{\n    h(x);   /* once */\n    x++;\n}")
        code = "\n".join(step_code.fold(lines, {"tile.fast": True}))
        self.assertIn("for (int n = 0; g<A, B>(n, x); n++) {", code)
        lines[3] = "        h(x + n);"
        code = "\n".join(step_code.fold(lines, {"tile.fast": False}))
        self.assertIn("for (int n = 0; n == 0; n++) {", code)

    def test_an_elided_run_sits_inside_its_block_and_takes_its_pragma(self):
        """Hopper step 2's view read `#pragma unroll` then `/* ... as in step 1 ... */` four columns in, then the
        loop's `}`: a cold reader took it for broken code. A `#pragma` goes with the statement after it, and the
        comment is indented as the code it stands for, inside the block that a lone `}` after it closes."""
        lines = ["void f(void)", "{", "    for (;;) {", "        a();", "#pragma unroll", "        for (;;)",
                 "            b();", "    }", "}"]
        out, new = step_code.elide(lines, [3, 4, 8], 0, 2)
        self.assertEqual(out, ["void f(void)", "{", "    for (;;) {", "        a();",
                               "        /* ... as in step 1 ... */", "    }", "}"])
        self.assertEqual(new, [3, 4, 6])
        out, _ = step_code.elide(["void f(void)", "{", "    if (x) {", "        a();", "        b();", "    }", "}"],
                                 [3, 6], 0, 2)
        self.assertEqual(out[3:5], ["        /* ... as in step 1 ... */", "    }"])

    def test_a_count_of_one_leaves_a_product(self):
        """With numbers, step 2's release count read `1 * HOPPER_RELEASERS * 1` (one consumer, no cluster). A
        factor 1 goes where nothing binds tighter beside it; `f / 1 * M` keeps it (that is f * M)."""
        lines = ["    init(&e, tile.consumers * R * tile.cluster);", "    x = f / tile.cluster * M;",
                 "    y = a + tile.cluster * b;", "    if (n < tile.consumers * tile.cluster)"]
        env = {"tile.consumers": 1, "tile.cluster": 1}
        self.assertEqual(step_code.with_numbers(lines, env),
                         ["    init(&e, R);", "    x = f / 1 * M;", "    y = a + b;", "    if (n < 1)"])
        self.assertEqual(step_code.with_numbers(lines[:1], {"tile.consumers": 2, "tile.cluster": 1}),
                         ["    init(&e, 2 * R);"])

    def test_context_cut_from_its_statement_goes(self):
        """d_gemm's step 3 showed a loop's body after `/* ... as in step 2 ... */` with its head left out, and the
        tail of a wrapped call: braces a reader could not match. After a gap, context deeper than the code before
        it goes, unless a new line is among it (step 5's `if (previous >= 0)` above its new release stays); then
        the heads it sits in are shown (step 2's new `empty` barrier inside the `for` that inits `full`)."""
        lines = ["void f(void)", "{", "    x();", "    y();", "    for (i = 0; i < 2; i++)", "        for (j = 0; j < 2; j++)",
                 "            a(i, j);", "    b();", "    z();", "    c(1,", "      2);", "    d();", "    w();",
                 "    for (k = 0; k < 2; k++)", "        if (q)", "            g();", "}"]
        out, _ = step_code.elide(lines, [3, 8, 12, 16], 1, 2)
        self.assertEqual(out, ["void f(void)", "{", "    x();", "    y();", "    /* ... as in step 1 ... */", "    b();",
                               "    z();", "    /* ... as in step 1 ... */", "    d();", "    w();",
                               "    for (k = 0; k < 2; k++)", "        if (q)", "            g();", "}"])

    def test_the_other_value_keeps_the_other_branch(self):
        code = self.fold({"USE_FAST": 0, "tile.fast": False})
        self.assertIn("x[0] = 2;", code)
        self.assertNotIn("x[0] = 1;", code)
        self.assertIn("x[1] = 6;", code)
        self.assertIn("x[2] = 8;", code)
        self.assertIn("g(x, true);", code)

    def test_an_unknown_condition_stays(self):
        """The folding can fail to fold: with nothing known, the code is unchanged."""
        code = self.fold({})
        self.assertEqual(code, MADE_UP)
        self.assertIn("if (next > 3)", self.fold({"USE_FAST": 1, "tile.fast": True}))

    def test_conditions_are_three_valued(self):
        self.assertIs(step_code.evaluate("a && b", {"a": False}), False)
        self.assertIs(step_code.evaluate("a || b", {"a": True}), True)
        self.assertIsNone(step_code.evaluate("a && b", {"a": True}))
        self.assertEqual(step_code.evaluate("s >= 3 ? 2 : 1", {"s": 4}), 2)

    def test_checks_and_unread_constants_leave_the_view(self):
        """A static_assert (a message with a semicolon included) compiles to nothing; a constant no later line
        reads is dropped, one that is read stays (issue 41: step 1 showed the pipeline's `prefetch`)."""
        text = ("    constexpr int cluster = 1, prefetch = tile.in_flight;   /* x */\n"
                "    static_assert(prefetch >= 1 && (prefetch < 4),\n"
                "                  \"one stage; or more\");\n"
                "    use(cluster);\n")
        self.assertEqual(step_code.drop_checks_and_unused(text), "    constexpr int cluster = 1;\n    use(cluster);\n")
        self.assertEqual(step_code.drop_checks_and_unused("    constexpr int a = 1;\n    f(a);\n"),
                         "    constexpr int a = 1;\n    f(a);\n")

    def test_a_definition_is_found_past_its_prototype_and_its_uses(self):
        lines = ["constexpr Geo geo(int index, int step = 7);   /* defined below */",
                 "template <int T, int S>",
                 "__device__ void use(float (&acc)[geo(T, S).m][geo(T, S).n], int k)",
                 "{", "    geo(T, S);", "}",
                 "/* The geometry. */",
                 "constexpr Geo geo(int index, int step)",
                 "{", "    return Geo{};", "}"]
        self.assertEqual(step_code.find_function(lines, "geo"), (6, 10))
        self.assertEqual(step_code.find_function(lines, "use"), (1, 5))
        with self.assertRaises(step_code.StepError):
            step_code.find_function(lines[:6], "geo")

    def test_a_ternary_in_another_ternarys_else_folds(self):
        """`split ? a : fill ? 0 : t` with fill known false is `split ? a : t` (step 6 showed `false ? 0 : t`)."""
        self.assertEqual(step_code.fold_ternaries("    return split ? t - l : fill ? 0 : t;\n", {"fill": False}),
                         "    return split ? t - l : t;\n")
        self.assertEqual(step_code.fold_ternaries("    x = ns::f(a) ? 1 : 2;\n", {}), "    x = ns::f(a) ? 1 : 2;\n")

    def test_a_flag_false_by_its_first_term_folds_whatever_follows(self):
        """Step 7's view of hopper_whole_tiles ended `bool fill = false && tiles * hopper_fill_share(tile, ...) <=
        clusters &&`, cut off: a flag whose initialiser has a call with commas was never learnt. `false && ...` is
        false, so the flag goes and its ternary folds."""
        lines = ["static int f(int t, int c)", "{", "    bool fill = tile.fill && t * g(t, c) <= c &&",
                 "                h(c) >= 1;", "    return fill ? 0 : t;", "}"]
        code = "\n".join(step_code.fold(lines, {"tile.fill": False}))
        self.assertEqual(code, "static int f(int t, int c)\n{\n    return t;\n}")
        view = run_view({"kernel": "d_gemm_hopper", "step": "7", "show": "hopper_whole_tiles", "context": "2"})[2]
        self.assertNotIn("false &&", view)
        self.assertIn("return split ? tiles - last : tiles;", view)

    def test_an_elided_run_names_a_step_that_showed_its_lines(self):
        """'as in step 6' above hopper_whole_tiles at step 7 sent a cold reader to code the page never showed: an
        elided run names the last step whose view showed its function, unchanged since, or says it is not new."""
        view = run_view({"kernel": "d_gemm_hopper", "step": "7", "show": "hopper_whole_tiles", "context": "2"})[2]
        self.assertIn("/* ... not new in step 7 ... */", view)
        view = run_view({"kernel": "d_gemm_hopper", "step": "8", "show": "hopper_whole_tiles", "context": "1"})[2]
        self.assertIn("/* ... as in step 7 ... */", view)
        view = run_view({"kernel": "d_gemm", "step": "3", "show": "d_gemm request_slab release_slab",
                         "context": "3"})[2]   # step 2's view shows multiply_stage alone; d_gemm is step 1's
        self.assertIn("/* ... as in step 1 ... */", view)
        self.assertNotIn("as in step 2", view)

    def test_numbers_keep_the_1_of_a_comparison(self):
        """A count of 1 in `if (1 && x)` goes; the 1 of `2 > 1 && x` stays (it once printed `2 > x`)."""
        env = {"tile.cluster": 2, "tile.consumers": 1}
        self.assertEqual(step_code.with_numbers(["    for (; tile.cluster > 1 && i < n; i++)"], env),
                         ["    for (; 2 > 1 && i < n; i++)"])
        self.assertEqual(step_code.with_numbers(["    if (tile.consumers && x)"], env), ["    if (x)"])

    def test_a_branch_of_several_lines_without_braces_is_dedented(self):
        lines = ["void f(int n)", "{", "    if (tile.wait)   /* stay */", "        for (int i = 0; i < n; i++)",
                 "            if (i >= 0)", "                g(i);", "}"]
        self.assertEqual(step_code.fold(lines, {"tile.wait": True}),
                         ["void f(int n)", "{", "    /* stay */", "    for (int i = 0; i < n; i++)",
                          "        if (i >= 0)", "            g(i);", "}"])

    def test_changed_lines(self):
        self.assertEqual(step_code.changed_lines(["a", "b"], ["a", "c", "b"]), [2])
        self.assertEqual(step_code.ranges([1, 2, 3, 7]), "1-3,7")


class Page(unittest.TestCase):
    def test_the_page_shows_every_step_block_marked(self):
        path = os.path.join(ROOT, "out", "gemm.html")
        with open(path, encoding="utf-8") as handle:
            html = handle.read()
        blocks = re.findall(r'<div class="step-code" data-kernel="([^"]+)" data-step="(\d+)" data-new(?:="([\d,-]*)")?>'
                            r'\s*<div class="sourceCode" id="(cb\d+)"', html)
        self.assertEqual(len(blocks), len(step_blocks()), "one marked block per {.step} block")
        for kernel, step, new, block_id in blocks:
            marked = len(re.findall(r'<span class="new" id="%s-\d+"' % block_id, html))
            self.assertEqual(marked, len(step_code.numbers(new)),
                             "%s step %s: %d lines marked, data-new says %s" % (kernel, step, marked, new))
            if int(step) > 1:
                self.assertGreater(marked, 0)


if __name__ == "__main__":
    unittest.main()
