#!/usr/bin/env bash
# Installs the tools the test suite uses, on Debian or Ubuntu, where it can:
# as root (or with sudo) and with apt-get. Elsewhere it names what is missing
# and exits 0: the tests that need a missing tool report as skipped.
# Used by .ci/run and by `make test`.
set -uo pipefail

packages=(
    python3 make g++                      # tangle.py, the Makefile, nvcc's host compiler
    pandoc                                # make html (bookworm ships 2.17, the version the page targets)
    chromium                              # the page tests: a real headless browser
    fonts-dejavu-core fonts-liberation    # chromium renders text with these
    valgrind libc6-dbg                    # tests/test_hostcheck.py (libc6-dbg: memcheck's redirections in ld.so)
)

command -v dpkg-query >/dev/null 2>&1 || {
    echo "install_tools.sh: not a Debian system; the tests need: ${packages[*]} (missing ones are skipped)"
    exit 0
}
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
((${#missing[@]})) || exit 0

if [[ $(id -u) -eq 0 ]]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    echo "install_tools.sh: missing ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" \
         "(until then their tests are skipped)"
    exit 0
fi
echo "install_tools.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! { "${sudo[@]}" apt-get update -qq && \
       "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
    echo "install_tools.sh: apt-get could not install ${missing[*]} (their tests are skipped)"
fi
exit 0
