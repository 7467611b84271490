#!/usr/bin/env bash
# The opt-in torch path: a virtual environment of its own (`.venv-torch` at the repo root) with
# PyTorch from PyPI and what building and testing the package `koma` needs (the pins of
# scripts/setup-python.sh). Not part of CI: torch from PyPI brings several GB of CUDA libraries.
# Idempotent: exits at once when the venv already has every pinned version.
#
#   scripts/setup-torch.sh                      # then:
#   scripts/test --torch                        # einsum reference on torch vs the native engine
#   scripts/bench-batch --torch                 # the reference on torch in the benchmark table
#   .venv-torch/bin/python python/examples/hasami_dqn.py   # the hasami DQN example
#
# On a GPU machine the same wheel runs on CUDA (PyPI's Linux torch is the CUDA build): add
# `--tensor-device cuda` to the test and benchmark commands, `--device cuda` to the example.
set -euo pipefail

TORCH_VERSION="2.15.0"
PINS=("torch==$TORCH_VERSION" "cshogi==1.1.0" "numpy==2.4.6" "gymnasium==1.4.0" "pytest==9.2.0" "maturin==1.16.0")
NEED_GB=12
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv-torch"
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

free_gb=$(df -Pk "$ROOT" | awk 'NR == 2 { print int($4 / 1048576) }')
if (( free_gb < NEED_GB )); then
    echo "setup-torch: $free_gb GB free on $ROOT, torch with its CUDA libraries needs about $NEED_GB GB" >&2
    exit 1
fi

[[ -x "$PY" ]] || python3 -m venv "$VENV"
"$PY" -m pip install --quiet --disable-pip-version-check --only-binary=:all: "${PINS[@]}"
pinned
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda' if torch.cuda.is_available() else 'cpu only')"
echo "ready in $VENV: ${PINS[*]}"
