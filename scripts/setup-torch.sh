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
NEED_GB=12
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv-torch"
SETUP=("$ROOT/scripts/setup-python.sh" --venv "$VENV" "torch==$TORCH_VERSION")

if "${SETUP[@]}" --check; then
    exit 0
fi

free_gb=$(df -Pk "$ROOT" | awk 'NR == 2 { print int($4 / 1048576) }')
if (( free_gb < NEED_GB )); then
    echo "setup-torch: $free_gb GB free on $ROOT, torch with its CUDA libraries needs about $NEED_GB GB" >&2
    exit 1
fi

"${SETUP[@]}"
"$VENV/bin/python" -c "import torch; print('torch', torch.__version__, 'cuda' if torch.cuda.is_available() else 'cpu only')"
