#!/usr/bin/env bash
# Creates the Python virtual environment used by koma's differential tests (`.venv` at the repo
# root) and installs the pinned oracle, cshogi. Idempotent: exits at once when the venv already
# has the pinned version.
#
#   scripts/setup-python.sh            # then: cargo test -p koma-core --test differential
#
# cshogi 1.1.0 ships manylinux wheels for CPython 3.8-3.13 on x86_64/aarch64; pip is told to use
# a wheel only, so a machine without one fails here instead of compiling C++ for minutes.
set -euo pipefail

CSHOGI_VERSION="1.1.0"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

if [[ -x "$PY" ]] && "$PY" -c "import sys, importlib.metadata as m, cshogi; sys.exit(m.version('cshogi') != '$CSHOGI_VERSION')" 2>/dev/null; then
    exit 0
fi

python3 -m venv "$VENV"
"$PY" -m pip install --quiet --disable-pip-version-check --only-binary=:all: "cshogi==$CSHOGI_VERSION"
"$PY" -c "import importlib.metadata as m, cshogi; print('cshogi', m.version('cshogi'), 'ready in', '$VENV')"
