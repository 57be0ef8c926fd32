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
#   make html            weave out/gemm.html (needs pandoc)
#   make clean
#
# Variables: TYPE, MNK, TRANSPOSE_A, TRANSPOSE_B choose the configuration
# without editing gemm.md (make TYPE=BF16_IN_F32_OUT MNK=16x16x16 TRANSPOSE_B=1);
# ARCH (e.g. "90" or "80 90"), NVCC, BIN (the binary, default out/gemm), SRC (the
# source it is built from, default out/gemm.cu; make gpu-test builds broken copies).

NVCC   ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
PYTHON ?= python3
BIN    ?= out/gemm
SRC    ?= out/gemm.cu
ARGS   ?=

# On a machine with a GPU, build for that GPU; otherwise for sm_80 and sm_90.
ifeq ($(origin ARCH),undefined)
ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
ifeq ($(strip $(ARCH)),)
ARCH := 80 90
endif
endif
GENCODE := $(foreach a,$(ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
           -gencode arch=compute_$(lastword $(ARCH)),code=compute_$(lastword $(ARCH))

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

# ptxas advises that the multicast copies d_gemm makes on sm_90 may be slow on
# some future GPUs (see "The copy engine and thread block clusters"); one line
# per kernel build, so it is silenced.
NVCCFLAGS := -O3 -std=c++17 -lineinfo -Xcompiler -Wall,-Wextra \
             -Xptxas -suppress-async-bulk-multicast-advisory-warning $(GENCODE) $(CONFIG)
LDLIBS := -lcublas

.PHONY: all run test gpu-test bench clean print-nvccflags
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

print-nvccflags:
	@echo $(NVCCFLAGS)

clean:
	rm -rf out/gemm out/*.flags out/cfg out/gpu-test out/bench out/screenshots out/*.tmp

include docs/html.mk
