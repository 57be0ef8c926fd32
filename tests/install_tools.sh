#!/usr/bin/env bash
# Installs the tools the test suite uses. Two lists, one place each:
#   * the Debian/Ubuntu packages below, installed with apt-get where it can
#     (as root or with password-less sudo); elsewhere it names what is missing
#     and the tests that need a missing tool report as skipped;
#   * the Python packages in tests/requirements.txt (pytest, pytest-xdist,
#     Selenium, pandoc 3), pinned, installed into a virtual environment,
#     out/venv (TEST_VENV), with $PYTHON (default python3) -m venv and pip.
#     Reinstalled only when tests/requirements.txt changes.
# Exits 0 whatever happens: .ci/run then checks that everything is there.
# Used by .ci/run and by `make test`.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
    python3 python3-venv make g++         # tangle.py, the test venv, the Makefile, nvcc's host compiler
    pandoc                                # make html (bookworm ships 2.17, the version the page targets)
    chromium chromium-driver              # the page tests: a real headless browser, driven by Selenium
    fonts-dejavu-core fonts-liberation    # chromium renders text with these
    valgrind libc6-dbg                    # tests/test_hostcheck.py (libc6-dbg: memcheck's redirections in ld.so)
)

install_debian_packages() {
    command -v dpkg-query >/dev/null 2>&1 || {
        echo "install_tools.sh: not a Debian system; the tests need: ${packages[*]} (missing ones are skipped)"
        return
    }
    local missing=() package sudo
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    ((${#missing[@]})) || return

    if [[ $(id -u) -eq 0 ]]; then
        sudo=()
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo=(sudo -n)
    else
        echo "install_tools.sh: missing ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" \
             "(until then their tests are skipped)"
        return
    fi
    echo "install_tools.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! { "${sudo[@]}" apt-get update -qq && \
           "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
        echo "install_tools.sh: apt-get could not install ${missing[*]} (their tests are skipped)"
    fi
}

install_python_packages() {
    local venv=${TEST_VENV:-out/venv} python=${PYTHON:-python3}
    local requirements=tests/requirements.txt
    # a venv whose interpreter has gone (another python3 now) is made again
    if [[ -e $venv ]] && ! "$venv/bin/python" -c '' >/dev/null 2>&1; then
        rm -rf "$venv"
    fi
    if [[ ! -e $venv ]]; then
        echo "install_tools.sh: creating $venv ($python -m venv) for $requirements"
        if ! "$python" -m venv "$venv"; then
            rm -rf "$venv"
            echo "install_tools.sh: '$python -m venv' failed (Debian: apt-get install python3-venv);" \
                 "make test needs the packages of $requirements"
            return
        fi
    fi
    cmp -s "$requirements" "$venv/requirements.txt" && return
    echo "install_tools.sh: installing $requirements into $venv"
    if "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$requirements"; then
        cp "$requirements" "$venv/requirements.txt"
    else
        echo "install_tools.sh: pip could not install $requirements into $venv"
    fi
}

install_debian_packages
install_python_packages
exit 0
