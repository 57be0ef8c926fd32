# gemm.md: the literate GEMM. `make` tangles gemm.md and builds out/gemm.
#
#   make                 build out/gemm (needs nvcc, make, python3)
#   make run ARGS="..."  build and run it (ARGS: sizes and options, see out/gemm --help)
#   make test            the CPU-only test suite (what CI runs), with pytest
#   make test TESTS=page the tests whose names match a pytest -k expression
#                        (TESTS="tangle and not Fuzz"), or node ids, any word
#                        with .py or :: (TESTS=tests/test_tangle.py::MapTest)
#   make gpu-test        every configuration, verified, on a GPU
#   make bench           benchmark tables, CSV and plot under docs/bench/ (on a GPU)
#   make steps           the steps of d_gemm (and of d_gemm_hopper on a 9.0 GPU) measured (STEPS=1 builds): docs/bench/steps-<gpu>.csv
#                        and .svg, and the page's step table (on a GPU; options in STEPS_ARGS)
#   make html            weave out/gemm.html (needs pandoc)
#   make clean
#
# Variables: TYPE, MNK, TRANSPOSE_A, TRANSPOSE_B choose the configuration
# without editing gemm.md (make TYPE=BF16_IN_F32_OUT MNK=16x16x16 TRANSPOSE_B=1); STEPS=1 adds the
# steps of d_gemm (--kernel=step1 .. step6) and of d_gemm_hopper (hopper1 .. hopper8);
# ARCH (e.g. "90", "80 90" or "sm_86"; see below), NVCC, BIN (the binary, default out/gemm), SRC (the
# source it is built from, default out/gemm.cu; make gpu-test builds broken copies).

NVCC   ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
PYTHON ?= python3
BIN    ?= out/gemm
SRC    ?= out/gemm.cu
ARGS   ?=

# ARCH: the GPU architectures to build machine code for, each as 90, sm_90, 9.0 or 90a (90a: Hopper's
# own instructions); a word compute_80 adds PTX alone for that architecture, which the driver compiles for
# the GPU at hand (how make gpu-test runs the sm_80 and sm_75 code paths on an H100). The PTX of the
# last machine-code architecture is always included, so newer GPUs can run the binary too.
# On a machine with a GPU, make builds for that GPU. Without one it builds for every family from
# Turing (7.5) to Blackwell (12.0): each architecture costs about 5 s of nvcc time per tile
# configuration (three or four per type pair), so about two minutes on one core, against 20 s for one.
# bf16, tf32 and f64 need sm_80: their list starts there (TYPE, or the type pair gemm.md defines).
CONFIG_TYPE := $(or $(TYPE),$(shell sed -n 's/^\#define \([A-Z0-9]*_IN_[A-Z0-9_]*\)$$/\1/p' gemm.md 2>/dev/null | head -n 1))
ARCH_ALL := $(if $(filter BF16_IN_F32_OUT TF32_IN_F32_OUT F64_IN_OUT,$(CONFIG_TYPE)),,75) 80 86 89 90 100 120
comma := ,
ifeq ($(origin ARCH),undefined)
ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | grep -E '^[0-9]+\.[0-9]+$$' | head -n 1 | tr -d '.')
ifeq ($(strip $(ARCH)),)
ARCH := $(ARCH_ALL)
endif
endif
KNOWN_ARCHS := 75 80 86 87 88 89 90 90a 100 100a 103 103a 110 120 120a 121
arch_number = $(subst .,,$(patsubst sm_%,%,$(patsubst compute_%,%,$(1))))
CUBIN_ARCHS := $(foreach a,$(filter-out compute_%,$(ARCH)),$(call arch_number,$(a)))
PTX_ARCHS := $(foreach a,$(filter compute_%,$(ARCH)),$(call arch_number,$(a)))
UNKNOWN_ARCHS := $(filter-out $(KNOWN_ARCHS),$(CUBIN_ARCHS) $(PTX_ARCHS))
ifneq ($(UNKNOWN_ARCHS),)
$(error ARCH=$(ARCH): $(UNKNOWN_ARCHS) is not an architecture this program builds for; use 7.5 or newer, e.g. ARCH="$(ARCH_ALL)")
endif
ifeq ($(strip $(CUBIN_ARCHS) $(PTX_ARCHS)),)
$(error ARCH is empty; name at least one architecture, e.g. ARCH=90)
endif
# Machine code for a 9.0 GPU is built for sm_90a, Hopper's own instructions (wgmma, setmaxnreg), which
# d_gemm_hopper needs; it runs on 9.0 GPUs alone, as sm_90 code does. The PTX that newer GPUs compile
# is never an "a" architecture's: that PTX runs on no other GPU.
CUBIN_GENCODE := $(patsubst 90,90a,$(CUBIN_ARCHS))
LAST_PTX := $(patsubst %a,%,$(lastword $(CUBIN_ARCHS)))
GENCODE := $(foreach a,$(CUBIN_GENCODE),-gencode arch=compute_$(a),code=sm_$(a)) \
           $(foreach a,$(PTX_ARCHS),-gencode arch=compute_$(a),code=compute_$(a)) \
           $(if $(CUBIN_ARCHS),-gencode arch=compute_$(LAST_PTX)$(comma)code=compute_$(LAST_PTX))

# The configuration. Without TYPE and MNK the #defines in gemm.md apply.
TYPES := F16_IN_F32_OUT F16_IN_OUT U8_IN_I32_OUT I8_IN_I32_OUT BF16_IN_F32_OUT TF32_IN_F32_OUT F64_IN_OUT
DEFAULT_MNK_TF32_IN_F32_OUT := 16x16x8
DEFAULT_MNK_F64_IN_OUT := 8x8x4
CONFIG :=
ifneq ($(TYPE)$(MNK),)
ifeq ($(TYPE),)
$(error MNK=$(MNK) needs TYPE too, one of: $(TYPES))
endif
ifeq ($(filter $(TYPE),$(TYPES)),)
$(error TYPE=$(TYPE) is not a type pair; choose one of: $(TYPES))
endif
CONFIG += -DCONFIG_ON_COMMAND_LINE -D$(TYPE) -DMNK_$(or $(MNK),$(DEFAULT_MNK_$(TYPE)),16x16x16)
endif
ifneq ($(TRANSPOSE_A),)
CONFIG += -DTRANSPOSE_A=$(TRANSPOSE_A)
endif
ifneq ($(TRANSPOSE_B),)
CONFIG += -DTRANSPOSE_B=$(TRANSPOSE_B)
endif
# STEPS=1 also builds steps 1 to 6 of d_gemm (--kernel=step1 .. step6): seven kernels per tile
# configuration instead of one, so seven times the build time (about 55 s instead of 5 for ARCH=90).
ifeq ($(STEPS),1)
CONFIG += -DWITH_STEPS=1
else ifneq ($(filter-out 0,$(STEPS)),)
$(error STEPS=$(STEPS): use STEPS=1 to build the steps of d_gemm, or leave it out)
endif

# ptxas advises that the multicast copies d_gemm makes on sm_90 may be slow on
# some future GPUs (see "The copy engine and thread block clusters"); one line
# per kernel build, so it is silenced.
NVCCFLAGS := -O3 -std=c++17 -lineinfo --threads 0 -Xcompiler -Wall,-Wextra \
             -Xptxas -suppress-async-bulk-multicast-advisory-warning $(GENCODE) $(CONFIG)
LDLIBS := -lcublas -lpthread   # pthread: the input fill ("Inputs"); in libc since glibc 2.34, not before

.PHONY: all run test gpu-test bench steps suite clean print-nvccflags print-gencode
all: $(BIN)

out/gemm.cu: gemm.md tangle.py
	$(PYTHON) tangle.py gemm.md -o $@

# Rebuild when the flags change, not only when the source does.
FLAGS_FILE := $(BIN).flags
$(shell mkdir -p $(dir $(BIN)) && (echo '$(NVCCFLAGS)' | cmp -s - $(FLAGS_FILE) || echo '$(NVCCFLAGS)' > $(FLAGS_FILE)))

$(BIN): $(SRC) $(FLAGS_FILE)
	@command -v $(NVCC) >/dev/null 2>&1 || { echo "make: nvcc not found: install the CUDA Toolkit" \
	  "(https://developer.nvidia.com/cuda-downloads; Debian/Ubuntu: nvidia-cuda-toolkit) or set NVCC=" >&2; exit 1; }
	$(NVCC) $(NVCCFLAGS) -o $@ $(SRC) $(LDLIBS)

run: $(BIN)
	$(BIN) $(ARGS)

# make test: tests/install_tools.sh installs the missing Debian packages where it
# can (root or sudo, apt-get; otherwise it names them) and the pinned Python
# packages of tests/requirements.txt into TEST_VENV; then pytest runs the suite
# on TEST_JOBS cores (pytest-xdist; "auto": all of them). TESTS selects (see the
# top); PYTEST_ARGS adds options (PYTEST_ARGS="-x -v").
TEST_VENV   ?= out/venv
TEST_JOBS   ?= auto
PYTEST_ARGS ?=
TEST_SELECTION = $(if $(TESTS),$(if $(findstring .py,$(TESTS))$(findstring ::,$(TESTS)),$(TESTS),-k '$(TESTS)'))

test:
	@PYTHON='$(PYTHON)' TEST_VENV='$(TEST_VENV)' bash tests/install_tools.sh
	@python='$(TEST_VENV)/bin/python'; [ -x "$$python" ] || python='$(PYTHON)'; \
	"$$python" -c 'import pytest, xdist' 2>/dev/null || { echo "make test: no pytest and pytest-xdist" \
	  "in $(TEST_VENV) or for $(PYTHON): install tests/requirements.txt (pip install -r)" >&2; exit 1; }; \
	echo "$$python -m pytest -n $(TEST_JOBS) $(TEST_SELECTION) $(PYTEST_ARGS)"; \
	"$$python" -m pytest -n $(TEST_JOBS) $(TEST_SELECTION) $(PYTEST_ARGS)

gpu-test: out/gemm.cu
	$(PYTHON) tests/gpu_test.py $(GPU_TEST_ARGS)

bench: out/gemm.cu   # bench.py also draws the plot (docs/bench/plot.py)
	$(PYTHON) docs/bench/bench.py $(BENCH_ARGS)

steps: out/gemm.cu   # STEPS_ARGS: see python3 docs/bench/steps.py --help (--types, --sizes, --budget, --make-arg)
	$(PYTHON) docs/bench/steps.py $(STEPS_ARGS)

suite: out/gemm.cu   # SUITE_ARGS: see python3 docs/bench/suite.py --help (--types, --list, --table, --plot)
	$(PYTHON) docs/bench/suite.py $(SUITE_ARGS)

print-nvccflags:
	@echo $(NVCCFLAGS)

print-gencode:
	@echo $(GENCODE)

clean:
	rm -rf out/gemm out/*.flags out/cfg out/gpu-test out/bench out/suite out/screenshots out/*.tmp

include docs/html.mk
