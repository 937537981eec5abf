#!/usr/bin/env bash
# Install everything hermes-memory needs on a fresh machine (CPU only, offline model).
set -euo pipefail
cd "$(dirname "$0")/.."
# torch first and pinned: an unpinned torch (even one pulled in by a dependency)
# downloads a multi-GB CUDA build. 2.13.0 is the CPU wheel this machine kind ships.
python -m pip install --disable-pip-version-check -q "torch==2.13.0"
python -m pip install --disable-pip-version-check -q -e ".[dev,hermes,mcp]"
