# docs/html.mk -- `make html`: weave gemm.md into out/gemm.html with pandoc.
#
# Included by the top-level Makefile (include docs/html.mk); also usable
# alone: make -f docs/html.mk html
#
# The page is standalone and self-contained (stylesheet, figures and its one
# script inlined, no fonts or anything else fetched), so it opens offline from
# any folder; docs/toc.html, the script, lets the contents follow the reader
# and the page works without it. Table of contents, numbered sections, MathML equations, CUDA
# highlighting from docs/syntax/cuda.xml, figures from docs/figures/, and the
# Lua filters in docs/filters/ (each file says what it does):
#   cu-lines.lua    asks `tangle.py --map` where each cuda block lands in out/gemm.cu
#   steps.lua       shows a step of a kernel as it compiles (docs/step_code.py folds it)
#   listings.lua    folds {.details summary="..."} blocks, labels tangled blocks
#   permalinks.lua  a "#" link on every heading
#   page.lua        scrollable tables and figures, a fallback <title>
# and, after pandoc, docs/code_lines.py records each code line's indentation
# (long lines wrap under themselves on a desktop) and drops pandoc's hidden
# per-line links.
#
# Variables: PANDOC, PYTHON, HTML_SRC, HTML_OUT, TANGLE_PY, HTML_SYNTAX,
# HTML_TOC_DEPTH.
# Needs pandoc 2.17 or later (Debian/Ubuntu: apt-get install pandoc).

PANDOC         ?= pandoc
PYTHON         ?= python3
HTML_SRC       ?= gemm.md
HTML_OUT       ?= out/gemm.html
TANGLE_PY      ?= tangle.py
HTML_SYNTAX    ?= docs/syntax/cuda.xml
HTML_TOC_DEPTH ?= 2

# Order matters: cu-lines.lua annotates the blocks that listings.lua presents; steps.lua adds
# cuda blocks that are not tangled, so it comes after cu-lines.lua has counted the tangled ones.
HTML_FILTERS := docs/filters/cu-lines.lua docs/filters/steps.lua docs/filters/listings.lua \
                docs/filters/permalinks.lua docs/filters/page.lua

HTML_DEPS := $(HTML_SRC) $(TANGLE_PY) docs/html.mk docs/template.html \
             docs/style.css docs/toc.html docs/code_lines.py docs/step_code.py $(HTML_SYNTAX) $(HTML_FILTERS) \
             $(wildcard docs/figures/*.svg docs/bench/*.svg docs/bench/*.png docs/bench/*.csv)

# pandoc 3 renamed --self-contained to --embed-resources (evaluated lazily,
# only when the recipe runs).
HTML_EMBED = $(shell $(PANDOC) --version 2>/dev/null | \
  awk 'NR==1 { split($$2, v, "."); print (v[1] >= 3 ? "--embed-resources" : "--self-contained") }')

PANDOC_HTML_FLAGS = --from=markdown --to=html5 --standalone $(HTML_EMBED) \
  --template=docs/template.html --css=docs/style.css --include-after-body=docs/toc.html \
  --toc --toc-depth=$(HTML_TOC_DEPTH) --number-sections --mathml \
  --syntax-definition=$(HTML_SYNTAX) --preserve-tabs \
  --resource-path=. \
  $(addprefix --lua-filter=,$(HTML_FILTERS))

.PHONY: html figures

html: $(HTML_OUT)

# Write to a temporary file and rename: a failed run never leaves half a page.
$(HTML_OUT): $(HTML_DEPS)
	@command -v $(PANDOC) >/dev/null 2>&1 || { \
	  echo "make html: pandoc not found ('$(PANDOC)'). Install pandoc 2.17 or later:" \
	       "on Debian/Ubuntu, apt-get install pandoc (package 'pandoc')." >&2; exit 1; }
	@mkdir -p $(dir $@)
	@echo "pandoc $(HTML_SRC) -> $@"
	@GEMM_PYTHON='$(PYTHON)' GEMM_TANGLE='$(TANGLE_PY)' \
	  $(PANDOC) $(PANDOC_HTML_FLAGS) --output=$@.tmp $(HTML_SRC) || { \
	  rm -f $@.tmp; \
	  echo "make html: pandoc failed (see above). docs/syntax/cuda.xml, the filters in" \
	       "docs/filters/ and '$(TANGLE_PY) --map' are the usual suspects." >&2; exit 1; }
	@$(PYTHON) docs/code_lines.py $@.tmp || { rm -f $@.tmp; exit 1; }
	@mv -f $@.tmp $@

# Regenerate the SVG figures from their source (standard-library Python).
figures:
	$(PYTHON) docs/figures/make_figures.py
