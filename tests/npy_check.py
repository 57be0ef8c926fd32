#!/usr/bin/env python3
"""Independent check of one out/gemm run from its --dump files.

out/gemm --dump=PREFIX writes PREFIX_A.npy, PREFIX_B.npy, PREFIX_C_in.npy and
PREFIX_C_out.npy (A and B as stored, unpadded; C is M x N).  This module loads
them with NumPy, recomputes

    C = alpha * op(A) @ op(B) + beta * C_in

from the inputs exactly as the tensor cores saw them (tf32: float32 rounded to
nearest, ties away from zero, to 10 mantissa bits; half, bf16, int8 are exact
already) in float64 (int64 for the integer type pairs; long double for
F64_IN_OUT so that the reference's own rounding stays well below the bound),
and compares:

  integer type pairs: exactly, modulo 2^32 (int32 arithmetic wraps);
  floating type pairs: elementwise
      |C_out - ref| <= 2 u (ceil(K/kf) + 2) |alpha| (|op(A)| @ |op(B)|)
                       + 2 u |beta C_in| + u_out |ref| + (reference's own error) + tiny
  with u the accumulator's unit roundoff (2^-24 for float, 2^-11 for half,
  2^-53 for double), kf the WMMA shape's k, u_out the output's unit roundoff
  and tiny twice the output type's smallest subnormal.  NaN or Inf never pass.

Used by tests/gpu_test.py (function check()) and standalone:

    python3 tests/npy_check.py PREFIX --type T --alpha a --beta b \
        --transpose-a 0 --transpose-b 1 [--mnk 16x16x16] [--mnk-size M N K]

Exit status: 0 pass, 1 fail, 2 bad usage or unreadable files.
Needs NumPy only.
"""

import argparse
import math
import sys

import numpy as np

TYPE_PAIRS = ("F16_IN_F32_OUT", "F16_IN_OUT", "U8_IN_I32_OUT", "I8_IN_I32_OUT",
              "BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "F64_IN_OUT")

# dtype of A/B and of C in the .npy files (the contract), accumulator unit
# roundoff, default WMMA k.
INPUT_DTYPE = {
    "F16_IN_F32_OUT": "<f2", "F16_IN_OUT": "<f2", "U8_IN_I32_OUT": "|u1",
    "I8_IN_I32_OUT": "|i1", "BF16_IN_F32_OUT": "<f4", "TF32_IN_F32_OUT": "<f4",
    "F64_IN_OUT": "<f8",
}
OUTPUT_DTYPE = {
    "F16_IN_F32_OUT": "<f4", "F16_IN_OUT": "<f2", "U8_IN_I32_OUT": "<i4",
    "I8_IN_I32_OUT": "<i4", "BF16_IN_F32_OUT": "<f4", "TF32_IN_F32_OUT": "<f4",
    "F64_IN_OUT": "<f8",
}
UNIT_ROUNDOFF = {
    "F16_IN_F32_OUT": 2.0 ** -24, "F16_IN_OUT": 2.0 ** -11,
    "BF16_IN_F32_OUT": 2.0 ** -24, "TF32_IN_F32_OUT": 2.0 ** -24,
    "F64_IN_OUT": 2.0 ** -53,
}
DEFAULT_K_FRAGMENT = {
    "TF32_IN_F32_OUT": 8, "F64_IN_OUT": 4,
}
INTEGER_TYPES = ("U8_IN_I32_OUT", "I8_IN_I32_OUT")
SIGNED_TYPES = tuple(t for t in TYPE_PAIRS if t != "U8_IN_I32_OUT")


def round_to_tf32(values):
    """float32 -> float32 rounded to tf32 (10 explicit mantissa bits), round to
    nearest with ties away from zero, as cvt.rna.tf32.f32 / wmma::__float_to_tf32.
    Works on the bits: adding half of the dropped 13-bit ulp to the magnitude
    and truncating rounds half away from zero (sign-magnitude format); a carry
    into the exponent is the correct result, the largest values round to Inf.
    Inf and NaN pass through unchanged."""
    values = np.ascontiguousarray(values, dtype=np.float32)
    bits = values.view(np.uint32)
    finite = (bits & np.uint32(0x7F800000)) != np.uint32(0x7F800000)
    rounded = (bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
    return np.where(finite, rounded, bits).astype(np.uint32).view(np.float32)


def k_fragment_of(mnk, type_pair):
    """The WMMA shape's k from '16x16x16' or 'MNK_16x16x16'; default per type."""
    if mnk:
        text = str(mnk).upper().replace("MNK_", "").lower()
        parts = text.split("x")
        if len(parts) == 3 and parts[2].isdigit():
            return int(parts[2])
    return DEFAULT_K_FRAGMENT.get(type_pair, 16)


class CheckResult:
    """What check() found: ok, a one-line message, the worst err/bound ratio."""

    def __init__(self):
        self.ok = True
        self.problems = []
        self.notes = []
        self.worst_ratio = 0.0
        self.max_abs_err = 0.0
        self.worst_index = None
        self.shape = None

    def fail(self, text):
        self.ok = False
        self.problems.append(text)

    def message(self):
        parts = []
        if self.shape:
            parts.append("m=%d n=%d k=%d" % self.shape)
        parts.append("worst_ratio=%.3g max_abs_err=%.3g" % (self.worst_ratio, self.max_abs_err))
        if self.worst_index is not None:
            parts.append("at=(%d,%d)" % self.worst_index)
        parts.extend(self.problems)
        parts.extend("note: " + n for n in self.notes)
        return ("PASS " if self.ok else "FAIL ") + " ".join(parts)


def _load(path, result):
    try:
        return np.load(path, allow_pickle=False)
    except FileNotFoundError:
        result.fail("missing file %s" % path)
    except Exception as error:  # a malformed header is a finding, not a crash
        result.fail("cannot load %s: %s" % (path, str(error).splitlines()[0] if str(error) else type(error).__name__))
    return None


def check(prefix, type_pair, alpha, beta, transpose_a, transpose_b, mnk=None, expect_mnk_size=None):
    """Check PREFIX_{A,B,C_in,C_out}.npy; return a CheckResult."""
    result = CheckResult()
    if type_pair not in TYPE_PAIRS:
        result.fail("unknown type pair %r" % type_pair)
        return result
    arrays = {}
    for name in ("A", "B", "C_in", "C_out"):
        arrays[name] = _load("%s_%s.npy" % (prefix, name), result)
    if not result.ok:
        return result
    a, b, c_in, c_out = arrays["A"], arrays["B"], arrays["C_in"], arrays["C_out"]

    # dtypes and shapes from the contract
    for name, array, want in (("A", a, INPUT_DTYPE[type_pair]), ("B", b, INPUT_DTYPE[type_pair]),
                              ("C_in", c_in, OUTPUT_DTYPE[type_pair]), ("C_out", c_out, OUTPUT_DTYPE[type_pair])):
        if array.dtype != np.dtype(want):
            result.fail("%s dtype %s, want %s" % (name, array.dtype.str, np.dtype(want).str))
        if array.ndim != 2:
            result.fail("%s has %d dimensions, want 2" % (name, array.ndim))
    if not result.ok:
        return result
    op_a = a.T if transpose_a else a
    op_b = b.T if transpose_b else b
    m, k = op_a.shape
    k_b, n = op_b.shape
    result.shape = (m, n, k)
    if k_b != k:
        result.fail("op(A) is %dx%d but op(B) is %dx%d" % (m, k, k_b, n))
    if c_in.shape != (m, n) or c_out.shape != (m, n):
        result.fail("C_in %s / C_out %s, want (%d, %d)" % (c_in.shape, c_out.shape, m, n))
    if expect_mnk_size is not None and tuple(expect_mnk_size) != (m, n, k):
        result.fail("dumped m n k = %d %d %d, the run asked for %d %d %d" % ((m, n, k) + tuple(expect_mnk_size)))
    if not result.ok:
        return result

    # inputs: never all zero, signed where the type is signed
    if not np.any(a) or not np.any(b):
        result.fail("A or B is all zero")
    if beta != 0 and c_in.size and not np.any(c_in):
        result.fail("C_in is all zero with beta=%g: the beta path is untested" % beta)
    if type_pair in SIGNED_TYPES and a.size + b.size >= 64:
        if not (np.any(a < 0) or np.any(b < 0)):
            result.fail("no negative input in A or B for a signed type pair")
    if type_pair == "BF16_IN_F32_OUT":
        # bf16 written as float32 must be exact bf16 values: low 16 bits zero
        for name, array in (("A", a), ("B", b)):
            low = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32) & np.uint32(0xFFFF)
            if np.any(low):
                result.fail("%s holds float32 values that are not bf16" % name)

    if type_pair in INTEGER_TYPES:
        _check_integer(result, op_a, op_b, c_in, c_out, alpha, beta)
    else:
        _check_float(result, type_pair, op_a, op_b, c_in, c_out, alpha, beta, k_fragment_of(mnk, type_pair))
    return result


def _check_integer(result, op_a, op_b, c_in, c_out, alpha, beta):
    if alpha != int(alpha) or beta != int(beta):
        result.fail("alpha/beta must be integral for integer type pairs")
        return
    product = op_a.astype(np.int64) @ op_b.astype(np.int64)
    # int32 arithmetic: the exact result modulo 2^32 (int64 products may wrap too: modulo 2^64 keeps the low bits)
    with np.errstate(over="ignore"):
        exact = np.int64(int(alpha)) * product + np.int64(int(beta)) * c_in.astype(np.int64)
    reference = exact.astype(np.int32).astype(np.int64)
    if reference.size and np.any(reference != exact):
        result.notes.append("reference leaves int32 range: compared modulo 2^32")
    difference = np.abs(c_out.astype(np.int64) - reference)
    if difference.size:
        flat = int(np.argmax(difference))
        result.max_abs_err = float(difference.flat[flat])
        result.worst_ratio = 0.0 if result.max_abs_err == 0 else math.inf
        if result.max_abs_err:
            result.worst_index = np.unravel_index(flat, difference.shape)
            result.fail("%d of %d elements differ (integer results must match exactly); "
                        "worst got %d want %d" % (int(np.count_nonzero(difference)), difference.size,
                                                  int(c_out.flat[flat]), int(reference.flat[flat])))


def _check_float(result, type_pair, op_a, op_b, c_in, c_out, alpha, beta, k_fragment):
    if type_pair == "TF32_IN_F32_OUT":
        op_a = round_to_tf32(op_a)
        op_b = round_to_tf32(op_b)
    # F64 needs a wider reference; long double is 80-bit (x86) or 128-bit
    wide = np.longdouble if type_pair == "F64_IN_OUT" else np.float64
    unit_reference = float(np.finfo(wide).eps) / 2
    a_wide = op_a.astype(wide)
    b_wide = op_b.astype(wide)
    c_in_wide = c_in.astype(wide)
    product = a_wide @ b_wide
    reference = wide(alpha) * product + wide(beta) * c_in_wide
    magnitude = np.abs(a_wide) @ np.abs(b_wide)

    m, k = op_a.shape
    unit = UNIT_ROUNDOFF[type_pair]
    output_info = np.finfo(c_out.dtype)
    unit_out = float(output_info.eps) / 2
    tiny = 2.0 * float(output_info.smallest_subnormal)
    steps = math.ceil(k / k_fragment) + 2
    bound = (2 * unit * steps * abs(alpha) * magnitude
             + 2 * unit * np.abs(wide(beta) * c_in_wide)
             + unit_out * np.abs(reference)
             + (k + 2) * unit_reference * (abs(alpha) * magnitude + np.abs(wide(beta) * c_in_wide))
             + tiny)
    got = c_out.astype(wide)
    finite = np.isfinite(c_out)
    if not np.all(finite):
        bad = int(np.size(finite) - np.count_nonzero(finite))
        result.fail("%d NaN/Inf elements in C_out" % bad)
    difference = np.abs(got - reference)
    difference = np.where(finite, difference, np.inf)
    if difference.size == 0:
        return
    ratio = np.where(bound > 0, difference / np.where(bound > 0, bound, 1), np.where(difference > 0, np.inf, 0))
    flat = int(np.argmax(ratio))
    result.worst_ratio = float(ratio.flat[flat])
    result.max_abs_err = float(np.max(difference))
    result.worst_index = tuple(int(i) for i in np.unravel_index(flat, ratio.shape))
    if result.worst_ratio > 1.0:
        over = int(np.count_nonzero(ratio > 1.0))
        result.fail("%d of %d elements outside the bound; worst got %.9g want %.9g bound %.3g"
                    % (over, ratio.size, float(c_out.flat[flat]), float(reference.flat[flat]),
                       float(bound.flat[flat])))


def main(argv=None):
    parser = argparse.ArgumentParser(description="Check an out/gemm --dump against a NumPy reference.")
    parser.add_argument("prefix", help="the --dump PREFIX (files PREFIX_A.npy ...)")
    parser.add_argument("--type", required=True, choices=TYPE_PAIRS, help="type pair of the binary")
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--beta", type=float, default=0.0)
    parser.add_argument("--transpose-a", type=int, choices=(0, 1), default=0)
    parser.add_argument("--transpose-b", type=int, choices=(0, 1), default=0)
    parser.add_argument("--mnk", default=None, help="WMMA shape, e.g. 16x16x16 (sets kf for the bound)")
    parser.add_argument("--mnk-size", type=int, nargs=3, metavar=("M", "N", "K"), default=None,
                        help="sizes the run was given, checked against the dumped shapes")
    args = parser.parse_args(argv)
    result = check(args.prefix, args.type, args.alpha, args.beta, args.transpose_a, args.transpose_b,
                   mnk=args.mnk, expect_mnk_size=args.mnk_size)
    print("npy-check: %s %s" % (args.type, result.message()))
    if not result.ok and any(p.startswith(("missing file", "cannot load")) for p in result.problems):
        return 2
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
