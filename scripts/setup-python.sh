#!/usr/bin/env bash
# Creates the Python virtual environment used by koma's differential tests and by the Python
# package's tests (`.venv` at the repo root) and installs the pinned oracle, cshogi, with what the
# package `koma` (python/) needs to be built and tested: numpy, gymnasium, pytest, maturin.
# Idempotent: exits at once when the venv already has every pinned version.
#
#   scripts/setup-python.sh            # then: cargo test -p koma-core --test differential
#                                      # or:   scripts/test (builds python/ with maturin, runs pytest)
#   scripts/setup-python.sh [--venv DIR] [--check] [EXTRA_PIN...]
#                                      # another venv with more pins (scripts/setup-torch.sh);
#                                      # --check: only say by the exit status whether it is ready
#
# cshogi 1.1.0 ships manylinux wheels for CPython 3.8-3.13 on x86_64/aarch64; pip is told to use
# a wheel only, so a machine without one fails here instead of compiling C++ for minutes.
set -euo pipefail

CSHOGI_VERSION="1.1.0"
PINS=("cshogi==$CSHOGI_VERSION" "numpy==2.4.6" "gymnasium==1.4.0" "pytest==9.2.0" "maturin==1.16.0")
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
CHECK_ONLY=false
while (( $# )); do
    case "$1" in
        --venv) VENV="$2"; shift 2 ;;
        --check) CHECK_ONLY=true; shift ;;
        *) PINS+=("$1"); shift ;;
    esac
done
PY="$VENV/bin/python"

pinned() {
    "$PY" - "${PINS[@]}" <<'PYEOF'
import sys, importlib.metadata as m
for pin in sys.argv[1:]:
    name, version = pin.split("==")
    try:
        if m.version(name) != version:
            sys.exit(1)
    except m.PackageNotFoundError:
        sys.exit(1)
PYEOF
}

if [[ -x "$PY" ]] && pinned 2>/dev/null; then
    exit 0
fi
$CHECK_ONLY && exit 1

[[ -x "$PY" ]] || python3 -m venv "$VENV"
"$PY" -m pip install --quiet --disable-pip-version-check --only-binary=:all: "${PINS[@]}"
pinned
echo "ready in $VENV: ${PINS[*]}"
