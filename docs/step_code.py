#!/usr/bin/env python3
"""step_code.py -- one step of a kernel, as the compiler sees it: the code a step section shows.

    python3 docs/step_code.py gemm.md --kernel d_gemm --step 3 --show "d_gemm request_slab"

d_gemm<TILE, STEP> and d_gemm_hopper<STEP> are each one template whose
mechanisms switch on step by step: `if (tile.pipelined)`, `#if USE_TMA`,
`tma ? a : b`.  The compiler folds those switches away for each step; this
script does the same on the source text, so that a step's section can show
that step's own code without the reader having to run the switches in
their head.  It reads the code tangle.py pulls out of gemm.md (never a copy),
so what the page shows is what nvcc compiles.

What it knows of a step (the *environment*):

* the configuration the page measures: fp16 with float accumulators, A and B
  as stored, compiled for sm_90 (BASE below);
* the step's number, and the enum that names the steps (STEP_PIPELINE = 3);
* every flag the geometry function sets from the step, read from that
  function's own lines (`tile.pipelined = step >= STEP_PIPELINE;`), and every
  local constant a shown function defines from known values
  (`constexpr bool tma = USE_TMA && tile.copy_engine;`).

What it folds: `#if`/`#ifdef`/`#else`/`#endif` with a known condition;
`if (...) ... else ...` statements whose condition is known (the branch
taken is kept, one level less indented; the other is dropped); `c ? a : b`
with a known `c`; a `for` loop that runs once (`n == 0`) into its body;
and a known local flag's name in what is left (`!tma` becomes `true`),
after which its now unused definition goes.  A condition
with any unknown part (`next >= tile.stages`) is left as it is: the result
is always code the compiler would accept for that step, only shorter.

Output: a first line `new: 1-4,9` (the lines that differ from the step
before, by a line diff of the two folded texts; none for the first step),
a line `rate: ...` (the step's rate and gain from its CSV, as Markdown),
then the code.

Standard library only.
"""

import argparse
import csv
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tangle  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))
import records  # noqa: E402  the canonical run's CSVs

# The configuration every view is folded for: the one the page's step rates are measured in.
BASE = {
    "__CUDA_ARCH__": 900,
    "USE_TMA": 1,
    "TRANSPOSE_A": 0, "TRANSPOSE_B": 0,
    "TILE_TRANSPOSE_A": 0, "TILE_TRANSPOSE_B": 0,
    "IS_INTEGER": 0,
    "PREROUND": 0,
    "defined(PTX_TYPE)": 0,
    "TYPE_PAIR": 0,
}
# The configuration macros (type pair, WMMA shape): these are defined, every other one is not.
DEFINED = {"F16_IN_F32_OUT", "MNK_16x16x16", "CONFIG_ON_COMMAND_LINE"}
CONFIG_MACRO = re.compile(r"^(MNK_\w+|[A-Z0-9]+_IN(_[A-Z0-9]+)?_OUT)$")

# Per kernel: the function that turns a step into flags, the prefix of its step enum, and where its
# steps' rates are: the CSV `make steps` writes, the --kernel name of step N, and what step 1 follows.
KERNELS = {
    "d_gemm": {"geometry": "tile_geometry", "enum": "STEP_", "last": "LAST_STEP", "table": "TILES_16BIT",
               "csv": records.STEPS, "name": "step%d", "before": ("naive", "the naive kernel")},
    "d_gemm_hopper": {"geometry": "hopper_tile", "enum": "HOPPER_", "last": "HOPPER_LAST",
                      "csv": records.STEPS, "name": "hopper%d",
                      "before": ("step7", "`d_gemm`"),
                      # a template flag false until the step whose field is named: before step 6 splits the
                      # last round, no launch has pieces (the PIECES kernels are step 8's tiles')
                      "false_until": {"PIECES": "tile.split"}},
    # the baseline has one step, itself: folded for the configuration, rated alone
    "d_gemm_naive": {"geometry": None, "csv": records.STEPS, "name": "naive", "before": None},
}
SIZE = 8192   # the size the steps are compared at: M = N = K

# The first kernel as nvcc compiles it for fp16 with A and B as stored (--spell): each name the configuration
# defines written as its value, and the calls fp16 reduces to one WMMA call, or to nothing, written that way.
# tests/test_step_code.py compiles the result beside the program and checks that its PTX is d_gemm_naive's.
SPELLING = [
    (r"load_fragment<[^>]*>\((\w+), (.*), (\w+), staging_[ab]\[warp\]\);", r"wmma::load_matrix_sync(\1, \2, \3);"),
    (r"\binput_t\b", "half"), (r"\baccum_t\b", "float"), (r"\bscalar_t\b", "float"),
    (r"\bNAIVE_WARPS\b", "4"), (r"\bFRAG_[MNK]\b", "16"), (r"\bSTAGED_C_LD\b", "16"), (r"\bACCUM_ZERO\b", "0.0f"),
    (r"\bfragment_a\b", "wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major>"),
    (r"\bfragment_b\b", "wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major>"),
    (r"\bfragment_c\b", "wmma::fragment<wmma::accumulator, 16, 16, 16, float>"),
    (r"\b[ab]_index\((\w+), (\w+), (\w+)\)", r"(size_t)\1 * \3 + \2"),
    (r"scale_accumulator\(alpha, (.*), beta, old\)", r"alpha * \1 + beta * old"),
]
SPELLED_AWAY = re.compile(r"^\s*(round_fragment\(|__shared__ .* staging_[ab]\[)")   # nothing, for fp16


def spelled(lines):
    """The folded lines of d_gemm_naive written for fp16 (SPELLING): what is left once its names are resolved."""
    out = []
    for line in lines:
        if SPELLED_AWAY.match(line):
            continue
        for pattern, value in SPELLING:
            line = re.sub(pattern, value, line)
        out.append(line)
    return out



class StepError(Exception):
    pass


# --------------------------------------------------------------------------
# Conditions: three-valued (True, False, or None for unknown)
# --------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)[uUlLfF]*|(defined\s*\(\s*\w+\s*\))|([A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*)"
                   r"|(\|\||&&|==|!=|>=|<=|<<|>>|[-+*/%<>!()?:]))")


def tokens(text):
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise StepError("cannot read condition %r at %r" % (text, text[pos:]))
        number, defined, name, op = match.groups()
        if number is not None:
            out.append(("num", float(number) if re.search(r"[.eE]", number) else int(number)))
        elif defined is not None:
            out.append(("name", "defined(%s)" % re.sub(r"defined\s*\(\s*(\w+)\s*\)", r"\1", defined)))
        elif name is not None:
            out.append(("name", re.sub(r"\s+", "", name)))
        else:
            out.append(("op", op))
        pos = match.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


BINARY = [["?"], ["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]]


def truth(value):
    return None if value is None else bool(value)


def apply(op, a, b):
    if op == "||":
        if truth(a) is True or truth(b) is True:
            return True
        return None if a is None or b is None else False
    if op == "&&":
        if truth(a) is False or truth(b) is False:
            return False
        return None if a is None or b is None else True
    if a is None or b is None:
        return None
    if op in ("/", "%") and b == 0:
        return None
    return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, ">": lambda: a > b,
            "<=": lambda: a <= b, ">=": lambda: a >= b, "+": lambda: a + b, "-": lambda: a - b,
            "*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a % b}[op]()


def evaluate(text, env):
    """The value of a C condition or integer expression, or None where it depends on something unknown."""
    toks = tokens(text)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else (None, None)

    def level(n):
        if n == len(BINARY):
            return unary()
        ops = BINARY[n]
        if ops == ["?"]:
            cond = level(n + 1)
            if peek() == ("op", "?"):
                pos[0] += 1
                a = level(0)
                if peek() != ("op", ":"):
                    raise StepError("no ':' in %r" % text)
                pos[0] += 1
                b = level(0)
                c = truth(cond)
                return a if c is True else b if c is False else (a if a == b else None)
            return cond
        value = level(n + 1)
        while peek()[0] == "op" and peek()[1] in ops:
            op = peek()[1]
            pos[0] += 1
            value = apply(op, value, level(n + 1))
        return value

    def unary():
        kind, value = peek()
        pos[0] += 1
        if kind == "num":
            return value
        if kind == "name":
            if peek() == ("op", "("):   # a function call: unknown
                depth = 0
                while pos[0] < len(toks):
                    depth += {"(": 1, ")": -1}.get(toks[pos[0]][1], 0) if toks[pos[0]][0] == "op" else 0
                    pos[0] += 1
                    if depth == 0:
                        break
                return None
            if value.startswith("defined(") and value not in env:
                name = value[8:-1]
                return (name in DEFINED) if CONFIG_MACRO.match(name) else None
            return env.get(value)
        if (kind, value) == ("op", "!"):
            v = truth(unary())
            return None if v is None else not v
        if (kind, value) == ("op", "-"):
            v = unary()
            return None if v is None else -v
        if (kind, value) == ("op", "("):
            v = level(0)
            if peek() != ("op", ")"):
                raise StepError("unbalanced parentheses in %r" % text)
            pos[0] += 1
            return v
        raise StepError("cannot read condition %r" % text)

    value = level(0)
    if pos[0] != len(toks):
        raise StepError("cannot read condition %r (stopped at token %d)" % (text, pos[0]))
    return value


# --------------------------------------------------------------------------
# The source: functions and the step environment
# --------------------------------------------------------------------------

def source_lines(md_path):
    """The program's lines, as tangle.py writes them, without its #line directives, with the #if
    branches of other configurations dropped."""
    blocks = tangle.find_blocks(tangle.read_lines(md_path), md_path)
    return fold_preprocessor([line for block in blocks for line in block.lines], BASE)


def macro_values(lines, env):
    """env with every object-like #define whose value is a known number or truth value."""
    env = dict(env)
    for line in lines:
        match = re.match(r"#define ([A-Z_][A-Z0-9_]*) (.*)$", line)
        if not match or match.group(1) in env:
            continue
        value = re.sub(r"/\*.*?\*/", "", match.group(2)).strip()
        try:
            value = evaluate(value, env)
        except (StepError, IndexError):
            continue
        if value is not None:
            env[match.group(1)] = value
    return env


def find_function(lines, name):
    """(first, last) line indices of the definition of `name`, with its template line and the comment above it."""
    head = re.compile(r"(?<![\w.])%s\s*\(" % re.escape(name))

    def declares(line):   # the name at the top of a declarator, not a call inside another's parameters
        if re.match(r"[ \t#/*]", line):
            return False
        for match in head.finditer(line):
            before = line[:match.start()]
            if before.count("(") == before.count(")") and before.count("[") == before.count("]"):
                return True
        return False

    def ends_statement(line):   # a prototype or a statement, with or without a comment after it
        return re.sub(r"/\*.*?\*/\s*$", "", line).rstrip().endswith(";")

    for i, line in enumerate(lines):
        if not declares(line) or ends_statement(line):
            continue
        j = i
        while j < len(lines) and lines[j] != "{":
            if ends_statement(lines[j]):
                break
            j += 1
        if j == len(lines) or lines[j] != "{":
            continue
        end = j
        while end < len(lines) and lines[end] != "}":
            end += 1
        first = i
        while first > 0 and (lines[first - 1].startswith("template") or lines[first - 1].startswith("__global__")):
            first -= 1
        above = first - 1   # a comment block right above, whose continuation lines are indented
        if above >= 0 and lines[above].rstrip().endswith("*/"):
            while above > 0 and not lines[above].startswith("/*") and lines[above].startswith(" "):
                above -= 1
            if lines[above].startswith("/*"):
                first = above
        return first, end
    raise StepError("no definition of %s in the source" % name)


def table_row(lines, struct, family):
    """The first row of the tile table for `family`, as {"row.field": value}."""
    text = "\n".join(lines)
    end = text.find("} %s;" % struct)
    start = text.rfind("typedef struct {", 0, end)
    if end < 0 or start < 0:
        return {}
    fields = []
    for declaration in re.sub(r"/\*.*?\*/", "", text[start + 16:end], flags=re.S).split(";"):
        names = declaration.strip().split(None, 1)
        if len(names) == 2:
            fields.extend(name.strip() for name in names[1].split(","))
    match = re.search(r"\{%s,([^}]*)\}" % family, text)
    if not match:
        return {}
    values = [family] + [v.strip() for v in match.group(1).split(",")]
    return {"row." + f: int(v) for f, v in zip(fields, values) if re.fullmatch(r"\d+", v)}


def step_environment(lines, kernel, step):
    """What is known at `step` of `kernel`: BASE, the configuration's macros, the step enum, and the
    fields the geometry function sets for the configuration's first tile."""
    spec = KERNELS[kernel]
    env = macro_values(lines, BASE)
    if spec["geometry"] is None:
        if step != 1:
            raise StepError("%s has one step, 1, not %d" % (kernel, step))
        return env
    text = "\n".join(lines)
    for body in re.findall(r"enum\s*\{([^}]*)\}", text):
        value = -1
        for item in re.sub(r"/\*.*?\*/", "", body, flags=re.S).split(","):
            item = item.strip()
            if not item.startswith(spec["enum"]) and not item.startswith(spec["last"]):
                continue
            name, _, expr = item.partition("=")
            name = name.strip()
            value = evaluate(expr, env) if expr.strip() else value + 1
            env[name] = value
    if step < 1 or step > (env.get(spec["last"]) or 0):
        raise StepError("%s has steps 1 to %s, not %d" % (kernel, env.get(spec["last"]), step))
    env["step"] = step
    first, last = find_function(lines, spec["geometry"])
    local = dict(env)
    if spec.get("table"):   # the geometry starts from a row of the tile table
        local.update(table_row(lines, "Tile", spec["table"]))
    for line in fold_ifs("\n".join(lines[first:last + 1]), env).split("\n"):   # the branches the step takes
        code = re.sub(r"/\*.*?\*/", "", line).strip()
        match = re.match(r"(?:bool |int |constexpr bool |constexpr int )?((?:tile\.|row\.)?\w+) = (.*);$", code)
        if not match:
            continue
        try:
            value = evaluate(match.group(2), local)
        except StepError:
            value = None
        local[match.group(1)] = value
        if value is not None and (match.group(1).startswith("tile.") or isinstance(value, bool)):
            env[match.group(1)] = value
    for flag, field in spec.get("false_until", {}).items():
        if env.get(field) is False:
            env[flag] = False
    return env


# --------------------------------------------------------------------------
# Folding
# --------------------------------------------------------------------------

def fold_preprocessor(lines, env):
    """Drop the #if branches not taken, where the condition is known."""
    out, stack = [], []   # stack: (known value or None, taken so far, emitting)
    logical, i = [], 0    # a directive continued with backslashes is one line
    while i < len(lines):
        j = i
        while lines[i].lstrip().startswith("#") and lines[j].endswith("\\") and j + 1 < len(lines):
            j += 1
        logical.append("\n".join(lines[i:j + 1]))
        i = j + 1
    for line in logical:
        stripped = re.sub(r"\\\n", " ", line.strip())
        directive = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", stripped)
        emitting = all(entry[2] for entry in stack)
        if not directive:
            if emitting:
                out.append(line)
            continue
        kind, rest = directive.group(1), re.sub(r"/\*.*?\*/", "", directive.group(2)).strip()
        if kind in ("if", "ifdef", "ifndef"):
            cond = {"if": rest, "ifdef": "defined(%s)" % rest, "ifndef": "!defined(%s)" % rest}[kind]
            try:
                value = truth(evaluate(cond, env))
            except StepError:
                value = None
            if value is None:
                stack.append([None, False, True])
                if emitting:
                    out.append(line)
            else:
                stack.append([value, value, value])
        elif kind == "elif":
            top = stack[-1]
            if top[0] is None:
                if emitting or all(e[2] for e in stack[:-1]):
                    out.append(line)
                continue
            try:
                value = False if top[1] else truth(evaluate(rest, env))
            except StepError:
                value = None
            if value is None:
                raise StepError("#elif with an unknown condition after a known #if: %s" % stripped)
            top[2] = value and not top[1]
            top[1] = top[1] or value
        elif kind == "else":
            top = stack[-1]
            if top[0] is None:
                if all(e[2] for e in stack[:-1]):
                    out.append(line)
                continue
            top[2] = not top[1]
            top[1] = True
        else:
            top = stack.pop()
            if top[0] is None and all(e[2] for e in stack):
                out.append(line)
    return "\n".join(out).split("\n") if out else []


def matching(text, pos, open_char, close_char):
    """Index just past the bracket that closes the one at text[pos]."""
    depth = 0
    i = pos
    while i < len(text):
        c = text[i]
        if text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == open_char:
            depth += 1
        elif c == close_char:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise StepError("unbalanced %s%s" % (open_char, close_char))


def statement_end(text, pos):
    """Index just past the statement that starts at text[pos] (a block, an if/for/while, or up to ';'); a
    comment before it or inside it is skipped, so its ';' ends nothing."""
    while text[pos].isspace() or text.startswith("/*", pos):
        pos = text.index("*/", pos) + 2 if text.startswith("/*", pos) else pos + 1
    if text[pos] == "{":
        return matching(text, pos, "{", "}")
    keyword = re.match(r"(if|for|while)\s*\(", text[pos:])
    if keyword:
        close = matching(text, pos + keyword.end() - 1, "(", ")")
        end = statement_end(text, close)
        if keyword.group(1) == "if":
            rest = ELSE.match(text, end)
            if rest:
                end = statement_end(text, rest.end())
        return end
    depth = 0
    i = pos
    while True:
        c = text[i]
        if text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth == 0:
            return i + 1
        i += 1


def body_lines(text, indent):
    """A branch's statements, one level less indented, without its braces."""
    text = text.strip()
    if text.startswith("{"):
        text = text[1:-1]
        lines = text.split("\n")
        if lines and lines[0].strip() == "":
            lines = lines[1:]
        elif lines:   # `{   /* comment */` : keep the comment on a line of its own
            lines[0] = " " * (indent + 4) + lines[0].strip()
        if lines and lines[-1].strip() == "":
            lines = lines[:-1]
    else:   # one statement, perhaps over several lines (a `for` and its body) after a comment
        lines = (" " * (indent + 4) + text).split("\n")
    return "\n".join(line[4:] if line.startswith(" " * 4) else line.lstrip() for line in lines)


IF = re.compile(r"(?m)^([ \t]*)(?:\}\s*else\s+)?if\s*(?:constexpr\s*)?\(")   # `if constexpr` folds alike
ELSE = re.compile(r"(?:\s|/\*.*?\*/)*else\b", re.S)   # an `else`, perhaps after the branch's comment


def fold_ifs(text, env):
    """Replace every `if` with a known condition by the branch taken."""
    pos = 0
    while True:
        match = IF.search(text, pos)
        if not match:
            return text
        start = match.start()
        if_at = text.index("if", match.start(1) + len(match.group(1)))
        if text[start:if_at].strip().startswith("}"):   # an `else if` of an unknown chain: leave it
            pos = match.end()
            continue
        close = matching(text, match.end() - 1, "(", ")")
        cond = text[match.end():close - 1]
        try:
            value = truth(evaluate(cond, env))
        except StepError:
            value = None
        if value is None:
            pos = match.end()
            continue
        then_end = statement_end(text, close)
        else_match = ELSE.match(text, then_end)
        else_end = statement_end(text, else_match.end()) if else_match else then_end
        indent = len(match.group(1))
        then_comment = ""   # a one-statement branch's comment before its `else`
        if else_match:
            comment = re.match(r"[ \t]*/\*.*?\*/", text[then_end:else_match.end()], re.S)
            then_comment = comment.group(0) if comment and "\n" not in comment.group(0) else ""
        if value:
            kept = text[close:then_end]
        else:
            kept = text[else_match.end():else_end] if else_match else ""
        kept = kept.strip()
        if kept.startswith("if"):
            replacement = " " * indent + kept
        elif kept:
            replacement = body_lines(kept, indent)
        else:
            replacement = ""
        line_end = text.find("\n", else_end)
        tail = text[else_end:line_end if line_end >= 0 else len(text)]
        if value and then_comment and replacement and not kept.startswith("{"):
            replacement += then_comment   # the taken branch's own comment, not the other's
            tail = ""
        if tail.strip().startswith("/*") or tail.strip() == "":
            if tail.strip() and replacement and not kept.startswith("{"):
                replacement += tail   # the comment on the statement kept stays with it
            else_end = line_end if line_end >= 0 else len(text)
        if replacement:
            text = text[:start] + replacement + text[else_end:]
        else:
            after = else_end + 1 if text[else_end:else_end + 1] == "\n" else else_end
            text = text[:start] + text[after:]
        pos = start   # fold what the branch holds, too


def condition_start(text, question):
    """Where the condition of the `?` at text[question] starts: after `(`, `,`, `=`, `{`, `return`, or the `?` or
    `:` of the ternary it is a branch of (not `::`)."""
    depth, i = 0, question - 1
    while i >= 0:
        c = text[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and c in ",;{":
            return i + 1
        elif depth == 0 and c in "?:" and text[i - 1:i] != ":" and text[i + 1:i + 2] != ":":   # `a ? b : c ? d : e`
            return i + 1
        elif depth == 0 and c == "=" and text[i - 1] not in "=!<>" and text[i + 1] != "=":
            return i + 1
        elif depth == 0 and text.startswith("return", i) and not re.match(r"\w", text[i - 1:i] or " "):
            return i + 6
        i -= 1
    return 0


def fold_ternaries(text, env):
    """Replace `c ? a : b` by a or b where the condition c is known."""
    pos = 0
    while True:
        question = text.find(" ? ", pos)
        if question < 0:
            return text
        start = condition_start(text, question)
        while start < question and text[start].isspace():
            start += 1
        try:
            value = truth(evaluate(text[start:question], env))
        except StepError:
            value = None
        if value is None:
            pos = question + 3
            continue
        i, depth, colon = question + 3, 0, None
        while i < len(text):
            c = text[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and c == "?" and colon is None:   # a nested ternary: leave this one
                colon = -1
                break
            elif depth == 0 and c == ":" and colon is None:
                colon = i
            elif depth == 0 and (c == ";" or (c in ",\n" and colon is not None)):   # before the `:`, a `,` is a
                break                                                               # template's: `f<A, B>(x)`
            i += 1
        if colon is None or colon < 0:
            pos = question + 3
            continue
        chosen = text[question + 3:colon].strip() if value else text[colon + 1:i].strip()
        text = text[:start] + chosen + text[i:]
        pos = start


ONCE = re.compile(r"(?m)^([ \t]*)for \(int (\w+) = 0; \2 == 0; \2\+\+\)")


def fold_once(text):
    """Replace a loop that runs once, `for (int n = 0; n == 0; n++) body` (step 1's one piece: the loop over
    pieces with its condition folded), by its body, when the body does not read `n`."""
    pos = 0
    while True:
        match = ONCE.search(text, pos)
        if not match:
            return text
        end = statement_end(text, match.end())
        body = text[match.end():end]
        if re.search(r"(?<![\w.>])%s\b" % re.escape(match.group(2)), body):
            pos = match.end()
            continue
        text = text[:match.start()] + body_lines(body, len(match.group(1))) + text[end:]
        pos = match.start()


# A flag whose initialiser starts `false && ...` is false, whatever follows (step 7's `fill`, over two lines, which
# LOCAL, below, does not match).
SHORT_FALSE = re.compile(r"(?m)^[ \t]*(?:const )?bool (\w+) = false && [^;]*;")


def fold_locals(text, env):
    """Learn the local flags the function defines from known values; name them no more."""
    env = dict(env)
    for match in SHORT_FALSE.finditer(text):
        env[match.group(1)] = False
    for match in LOCAL.finditer(text):
        try:
            value = evaluate(match.group(2), env)
        except StepError:
            continue
        if isinstance(value, bool) or (value is not None and "bool" in match.group(0)):
            env[match.group(1)] = bool(value)
    return env


def substitute_locals(text, env, names):
    for name in names:
        value = env[name]
        definition = re.compile(r"(?m)^[ \t]*(?:constexpr |const )?bool %s = [^;]*;[^\n]*\n" % re.escape(name))
        body = definition.sub("", text, count=1)
        body = re.sub(r"!\b%s\b" % re.escape(name), "true" if not value else "false", body)
        body = re.sub(r"(?<![.>\w])%s\b" % re.escape(name), "true" if value else "false", body)
        text = body
    return text


CONSTANTS = re.compile(r"(?m)^([ \t]*)constexpr int ([^;]*);[^\n]*\n")


# A local of one line whose initialiser calls nothing: `accum_t *slot = last.slots + ...;`, `int previous = -1;`
LOCAL = re.compile(r"(?m)^[ \t]+(?:const |unsigned |long |constexpr )*[A-Za-z_]\w*[ \t]+\**(\w+) = ([^;\n]*);[^\n]*\n")


def drop_checks_and_unused(text):
    """What the compiled step keeps of a function: no static_assert (a check passed leaves no code), no
    constant it never reads (step 1's `prefetch`, which only the pipeline uses), and no local of one line that
    calls nothing and that nothing reads once the step's branches are folded (step 1's slot for pieces)."""
    while True:
        for match in LOCAL.finditer(text):
            if re.search(r"[A-Za-z_]\w*\s*\(", match.group(2)):
                continue
            if not re.search(r"(?<![\w.>])%s\b" % re.escape(match.group(1)), text[match.end():]):
                text = text[:match.start()] + text[match.end():]
                break
        else:
            break
    while True:
        check = re.search(r"(?m)^[ \t]*static_assert(?=\()", text)
        if not check:
            break
        end = matching(text, check.end(), "(", ")")
        text = text[:check.start()] + text[text.index("\n", end) + 1:]

    def keep_used(match):
        declarators = [d.strip() for d in match.group(2).split(",")]
        rest = text[match.end():]
        used = [d for d in declarators if re.search(r"(?<![\w.>])%s\b" % re.escape(d.split("=")[0].strip()), rest)]
        if len(used) == len(declarators):
            return match.group(0)
        return "%sconstexpr int %s;\n" % (match.group(1), ", ".join(used)) if used else ""
    return CONSTANTS.sub(keep_used, text)


def fold(lines, env):
    """The lines of one function with everything `env` decides folded away."""
    env = dict(env, true=True, false=False)
    text = "\n".join(fold_preprocessor(lines, env)) + "\n"
    for name, value in env.items():   # the step's flags, wherever they are used (a template argument, say)
        if name.startswith("tile.") and isinstance(value, bool):
            text = re.sub(r"(?<![\w.])%s\b(?!\.)" % re.escape(name), "true" if value else "false", text)
    local_env = fold_locals(text, env)
    for _ in range(4):
        text = fold_ternaries(text, local_env)
        text = fold_ifs(text, local_env)
        local_env = fold_locals(text, local_env)
    names = [n for n in local_env if n not in env]
    text = substitute_locals(text, local_env, names)
    text = fold_once(fold_ifs(fold_ternaries(text, local_env), local_env))
    text = re.sub(r"\btrue && |(?<=[\w)\]]) && true\b", "", text)             # `true && x` is x
    text = re.sub(r"(?<![\w\]])(?<!if )(?<!while )\((\w+(?:(?:\.|->)\w+)+)\)", r"\1", text)   # `(tile.b.elems)`
    text = re.sub(r"\n{3,}", "\n\n", text)
    text = drop_checks_and_unused(text)
    lines = text.rstrip("\n").split("\n")
    for i, line in enumerate(lines):   # a branch kept that returns: the rest of the function is dead
        if line == "    return;" and lines[-1] == "}":
            lines = lines[:i] + ["}"]
            break
    return lines


def called_closure(lines, kernel, env):
    """The functions step `env` of `kernel` runs: the kernel, and every function its folded code calls."""
    seen, todo = set(), [kernel]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        try:
            first, last = find_function(lines, name)
        except StepError:
            continue
        seen.add(name)
        text = "\n".join(fold(lines[first:last + 1], env)[1:])
        todo.extend(re.findall(r"(?<![\w.>])([a-z_]\w*)\s*[<(]", text))
    return seen


def with_numbers(lines, env):
    """Every tile.field the configuration fixes, written as its number (fp16's first tile)."""
    def number(match):
        value = env.get(match.group(0))
        return str(int(value)) if isinstance(value, int) and not isinstance(value, bool) else match.group(0)
    lines = [line if "tile = " in line else re.sub(r"\btile\.\w+\b(?!\.)", number, line) for line in lines]
    # `if (1 && x)`: a count of 1 is true; not the 1 of a comparison or a sum (`2 > 1 && x`)
    lines = [re.sub(r"(?<![\w.<>=!+*/%-] )(?<![\w.])1 && ", "", line) for line in lines]
    # a count of 1 as a factor: `1 * x` where nothing binds tighter before it, `x * 1` where nothing after it
    lines = [re.sub(r"(?<=[(,=+\-<>?:&|] )1 \* |(?<=\()1 \* ", "", line) for line in lines]
    return [re.sub(r" \* 1(?= *[),;+\-<>=?:&|])", "", line) for line in lines]


def parameters(folded, name):
    """(first, last, params) of a kernel's parameter list in its folded lines: the lines it spans and each
    parameter's text; None if the function has no such list."""
    start = next((i for i, line in enumerate(folded) if re.match(r"%s\s*\(" % re.escape(name), line)), None)
    if start is None or "{" not in folded[start:]:
        return None
    brace = folded.index("{", start)
    text = " ".join(line.strip() for line in folded[start:brace])
    text = re.sub(r"/\*.*?\*/", "", text)
    inner = text[text.index("(") + 1:text.rindex(")")]
    return start, brace - 1, [p.strip() for p in inner.split(",") if p.strip()]


def first_use(lines, kernel, function, parameter, step):
    """The first step after `step` whose folded `function` reads `parameter`, or None."""
    later = step + 1
    while True:
        try:
            env = step_environment(lines, kernel, later)
        except StepError:
            return None
        first, last = find_function(lines, function)
        body = "\n".join(fold(lines[first:last + 1], env))
        body = body[body.index("\n{\n") + 3:] if "\n{\n" in body else body
        if re.search(r"(?<![\w.>])%s\b" % re.escape(parameter), body):
            return later
        later += 1
        if later > step + 16:
            return None


def elide_parameters(folded, lines, kernel, step, name):
    """A kernel's parameters that its folded body never reads (step 1's tensor maps) leave the view, and a
    comment at the end of the list says which step brings them; so does a comment above the function that
    names only them. The program keeps them: every step is one template, launched with the same arguments."""
    found = parameters(folded, name)
    if found is None:
        return folded
    start, end, params = found
    body = "\n".join(folded[end + 2:])
    names = [re.findall(r"\w+", p)[-1] for p in params]
    unused = [n for n in names if not re.search(r"(?<![\w.>])%s\b" % re.escape(n), body)]
    if not unused:
        return folded
    kept = [p for p, n in zip(params, names) if n not in unused]
    by_step = {}
    for n in unused:
        by_step.setdefault(first_use(lines, kernel, name, n, step), []).append(n)
    notes = ["step %d adds %s" % (when, ", ".join(group)) if when else ", ".join(group) + ": unused"
             for when, group in sorted(by_step.items(), key=lambda item: item[0] or 99)]
    indent = " " * (len(name) + 1)
    signature, line = [], name + "("
    for i, param in enumerate(kept):
        piece = param + ("," if i < len(kept) - 1 else "")
        if len(line) + 1 + len(piece) > 116 and line != name + "(":
            signature.append(line.rstrip())
            line = indent
        line += ("" if line.endswith("(") or line == indent else " ") + piece
    line += " /* %s */)" % "; ".join(notes)
    if len(line) > 120:
        signature.append(line[:line.rindex(" /*")])
        line = indent + line[line.rindex(" /*") + 1:]
    signature.append(line)
    out = folded[:start] + signature + folded[end + 1:]
    if out[0].startswith("/*"):   # the comment above: dropped when it names elided parameters and no kept one
        close = next(i for i, text in enumerate(out) if text.rstrip().endswith("*/"))
        comment = " ".join(out[:close + 1])
        if any(re.search(r"\b%s\b" % n, comment) for n in unused) and \
           not any(re.search(r"\b%s\b" % n, comment) for n in names if n not in unused):
            out = out[close + 1:]
    return out


def view(md_path, kernel, step, show, called_only=False, numbers=False, spell=False):
    """The folded text of the functions in `show` at `step`; with called_only, only those the step runs; with
    spell, written for fp16 (SPELLING)."""
    lines = source_lines(md_path)
    env = step_environment(lines, kernel, step)
    runs = called_closure(lines, kernel, env) if called_only else set(show)
    out = []
    for name in show:
        first, last = find_function(lines, name)
        on_host = not any(word in line for line in lines[first:last + 1] if not line.startswith(("{", " "))
                          for word in ("__device__", "__global__"))
        if name not in runs and not on_host:   # a device function the step does not call
            continue
        if out:
            out.append("")
        folded = fold(lines[first:last + 1], env)
        if any("__global__" in line for line in folded[:6]):
            folded = elide_parameters(folded, lines, kernel, step, name)
        folded = with_numbers(folded, env) if numbers else folded
        out.extend(spelled(folded) if spell else folded)
    return out


def indentation(line, opening=False):
    """The indentation of the code beside `line`: its own, or (`opening`, a line before) one level more if it
    opens a block; one level more than a lone `}` after it, which closes the block; 4 for a blank line."""
    if not line.strip():
        return 4
    own = len(line) - len(line.lstrip())
    return own + 4 if (opening and line.rstrip().endswith("{")) or (not opening and line.strip() == "}") else own


def elide(lines, new, context, step, shown_in=None):
    """Only the lines near a new one; each run left out becomes one comment: "as in step S", S the step whose view
    last showed the function the run is in, unchanged since (`shown_in`, by name; None: step N - 1 for all), or
    "not new in step N" where the page never showed those lines. Returns (lines, new)."""
    keep = set()
    for n in new:
        keep.update(range(max(1, n - context), min(len(lines), n + context) + 1))
    head = False
    for i, line in enumerate(lines, 1):   # every function's head, from its comment to its opening brace
        if line and not line.startswith((" ", "#", "}")):
            head = True
        if head or line == "}":
            keep.add(i)
        if line == "{":
            head = False
    for i, line in enumerate(lines, 1):   # a blank line between two kept lines stays
        if not line.strip() and (i - 1 not in keep or i + 1 not in keep):
            keep.discard(i)
    for i, line in enumerate(lines, 1):   # a `#pragma` belongs to the statement after it: kept only with it
        if line.lstrip().startswith("#pragma") and i + 1 not in keep and i not in new:
            keep.discard(i)
    # Context cut from its statement (the inside of a loop whose head is left out, a wrapped line's tail): after a
    # gap, kept lines deeper than the code before it go; if a new line is among them, their heads are shown.
    bound, gap, i = None, False, 1
    while i <= len(lines):
        line = lines[i - 1]
        if i not in keep:
            gap = gap or bool(line.strip())
            i += 1
            continue
        if gap and bound is not None and line.strip() and indentation(line) > bound:
            run = [i]
            while run[-1] + 1 in keep and (not lines[run[-1]].strip() or indentation(lines[run[-1]]) > bound):
                run.append(run[-1] + 1)
            if not any(n in new for n in run):
                keep.difference_update(run)
                i = run[-1] + 1
                continue
            level, j = indentation(line), i - 1   # a new line among it: show the heads it sits in
            while j >= 1 and j not in keep and level > bound:
                if lines[j - 1].strip() and indentation(lines[j - 1]) < level:
                    keep.add(j)
                    level = indentation(lines[j - 1])
                j -= 1
        gap = False
        if line.strip():
            bound = indentation(line, opening=True)
        i += 1
    out, renumber, i = [], {}, 1
    while i <= len(lines):
        if i in keep:
            renumber[i] = len(out) + 1
            out.append(lines[i - 1])
            i += 1
            continue
        j = i
        while j <= len(lines) and (j not in keep or not lines[j - 1].strip()):
            j += 1
        if all(not line.strip() for line in lines[i - 1:j - 1]):   # only blank lines: one stays
            out.append("")
            i = j
            continue
        previous = next((line for line in reversed(out) if line.strip()), "")
        following = lines[j - 1] if j <= len(lines) else ""
        heads = (re.search(r"\b(\w+)\s*\(", line) for line in reversed(out) if re.match(r"[A-Za-z_]", line))
        function = next((head.group(1) for head in heads if head and head.group(1) != "__launch_bounds__"), None)
        shown = step - 1 if shown_in is None else shown_in.get(function)
        out.append(" " * max(4, min(indentation(previous, opening=True), indentation(following)))
                   + ("/* ... as in step %d ... */" % shown if shown else "/* ... not new in step %d ... */" % step))
        i = j
    return out, [renumber[n] for n in new]


def shown_in(md_path, kernel, step, show, numbers=False):
    """For each function of `show`, the last step before `step` whose {.step} block in the page shows it, if the
    function is the same there as at step - 1 (so the lines step `step` leaves out are on the page); else None."""
    with open(md_path, encoding="utf-8") as handle:
        blocks = [block_attributes(info) for info in re.findall(r"(?m)^```\{\.step ([^}]*)\}", handle.read())]
    found = {}
    for name in show:
        steps = [int(b["step"]) for b in blocks if b.get("kernel") == kernel and int(b.get("step", 0)) < step and
                 name in b.get("show", "").split()]
        last = max(steps) if steps else None
        if last is not None and last < step - 1:
            there = view(md_path, kernel, last, [name], called_only=True, numbers=numbers)
            if not there or there != view(md_path, kernel, step - 1, [name], called_only=True, numbers=numbers):
                last = None
        found[name] = last
    return found


def block_attributes(info):
    """The attributes of a {.step kernel=... step=... show="..."} block's info string, as a dict."""
    return {key: quoted or bare for key, quoted, bare in re.findall(r'(\w+)=(?:"([^"]*)"|([^\s}]+))', info)}


def changed_lines(before, after):
    """1-based numbers of the lines of `after` that are not in `before`."""
    numbers = []
    matcher = difflib.SequenceMatcher(a=[l.strip() for l in before], b=[l.strip() for l in after], autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            numbers.extend(n + 1 for n in range(j1, j2) if after[n].strip())
    return numbers


def numbers(text):
    """'1-3,7' -> [1, 2, 3, 7]: the inverse of ranges."""
    out = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def ranges(numbers):
    """[1, 2, 3, 4, 9] as 1-4,9."""
    ranges, start = [], None
    for k, n in enumerate(numbers):
        if start is None:
            start = n
        if k + 1 == len(numbers) or numbers[k + 1] != n + 1:
            ranges.append(str(start) if start == n else "%d-%d" % (start, n))
            start = None
    return ",".join(ranges)


def rate_line(md_path, kernel, step):
    """Markdown: step `step`'s rate on records.GPU at SIZE, fp16, A and B as stored, and its gain, from the CSV."""
    spec = KERNELS[kernel]
    path = os.path.join(os.path.dirname(os.path.abspath(md_path)), spec["csv"])
    try:
        with open(path, encoding="utf-8") as handle:
            rows = list(csv.DictReader(line for line in handle if not line.startswith("#")))
    except OSError as error:
        raise StepError("cannot read %s: %s" % (spec["csv"], error.strerror))
    rates = {}
    for row in rows:
        if (row["type"], row["transpose_a"], row["transpose_b"], row["m"], row["n"], row["k"]) == \
                ("F16_IN_F32_OUT", "0", "0", str(SIZE), str(SIZE), str(SIZE)) and row["rate"]:
            if row["kernel"] not in ("naive", "cublas") and row["result"] != "pass":
                raise StepError("%s: %s did not pass verification (%s)" % (spec["csv"], row["kernel"], row["result"]))
            rates[row["kernel"]] = float(row["rate"])
    if spec["before"] is None:
        if spec["name"] not in rates:
            raise StepError("%s has no fp16 rate at %d^3 for %s" % (spec["csv"], SIZE, spec["name"]))
        return ("On the %s at %d³, fp16, A and B as stored: **%.1f TFLOP/s** (`%s`)."
                % (records.GPU, SIZE, rates[spec["name"]], spec["csv"]))
    name = spec["name"] % step
    before, before_name = (spec["name"] % (step - 1), "step %d" % (step - 1)) if step > 1 else spec["before"]
    if name not in rates or before not in rates:
        raise StepError("%s has no fp16 rate at %d^3 for %s and %s" % (spec["csv"], SIZE, name, before))
    return ("On the %s at %d³, fp16, A and B as stored: **%.1f TFLOP/s**, %.2f× %s's %.1f (`%s`)."
            % (records.GPU, SIZE, rates[name], rates[name] / rates[before], before_name, rates[before], spec["csv"]))


def main(argv):
    parser = argparse.ArgumentParser(description="One step of a kernel, folded as the compiler sees it.")
    parser.add_argument("input", help="the literate source, gemm.md")
    parser.add_argument("--kernel", required=True, choices=sorted(KERNELS))
    parser.add_argument("--step", required=True, type=int)
    parser.add_argument("--show", required=True, help="the functions to show, separated by spaces")
    parser.add_argument("--numbers", action="store_true", help="write the tile's fields as fp16's numbers")
    parser.add_argument("--context", type=int, help="show only the lines within this many of a new one")
    parser.add_argument("--spell", action="store_true", help="write the configuration's names as fp16's values")
    args = parser.parse_args(argv[1:])
    try:
        show = args.show.split()
        after = view(args.input, args.kernel, args.step, show, numbers=args.numbers, spell=args.spell)
        if args.step > 1:
            before = view(args.input, args.kernel, args.step - 1, show, called_only=True, numbers=args.numbers)
            new = changed_lines(before, after)
        else:
            new = []   # the first step: nothing to compare with
        if args.context is not None and args.step > 1:
            after, new = elide(after, new, args.context, args.step,
                               shown_in(args.input, args.kernel, args.step, show, numbers=args.numbers))
        rate = rate_line(args.input, args.kernel, args.step)
    except (StepError, tangle.TangleError) as error:
        print("step_code.py: %s" % error, file=sys.stderr)
        return 1
    print("new: %s" % ranges(new))
    print("rate: %s" % rate)
    print("\n".join(after))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
