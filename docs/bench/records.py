"""The canonical run: the records that every rate on the page is read from (issue 41).

make bench, make steps and make suite, run together in one session on one GPU. The page's tables name
these files in their markers, docs/step_code.py reads the steps' rates from STEPS, and the tests check the
prose against all three. A new canonical run changes the names here (and the page's markers) and nothing
else; the records it replaces stay under docs/bench as history.
"""

GPU = "H200"                          # as the prose names it: "On the H200 ..."
BENCH = "docs/bench/h200.csv"         # make bench (with --tiers)
STEPS = "docs/bench/steps-h200.csv"   # make steps
SUITE = "docs/bench/suite-h200.csv"   # make suite
