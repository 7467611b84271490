"""Steps per second of batched shogi environments, side by side (run by scripts/bench-batch).

Each step: a uniformly random legal action per game, the step, and the 2187-label legal action
mask of the new positions ("mask" row); the "mask+obs" row adds the 119-plane dlshogi features
(pgx computes its observation in every step either way). Prints a markdown table and, with
--json, one JSON object per cell.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

import koma


def timed(fn, b, seconds, max_steps=None):
    """Calls fn() (one batched step of b games) for `seconds`; returns env steps per second."""
    fn()  # warm up (allocations, jit)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds and (max_steps is None or n < max_steps):
        fn()
        n += 1
    return n * b / (time.perf_counter() - start)


def koma_python(b, seconds, obs):
    env = koma.VecEnv(b, seed=1, observations=False)
    env.reset()

    def step():
        env.step(env.random_actions())
        env.legal_action_mask
        if obs:
            env.observe()

    return timed(step, b, seconds)


def koma_rust(binary, b, seconds, obs):
    args = [binary, str(b), "--seconds", str(seconds)] + (["--features"] if obs else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["steps_per_s"]


def einsum_reference(b, seconds, obs, backend, device):
    """The reference's legal tensor, its 2187 mask and the transition (no observation row)."""
    from koma.tensor import Rules

    rules = Rules(backend, device=device)
    env = koma.VecEnv(b, seed=2, observations=False)  # only for the start states and obs
    state = rules.from_sfens(env.sfens())
    rng = np.random.default_rng(0)

    def step():
        nonlocal state
        mat = rules.b.numpy(rules.legal_moves_mat(state)).reshape(len(state), -1)
        mask = np.zeros((len(state), 2187), dtype=bool)
        rows, cols = np.nonzero(mat)
        mask[rows, rules.b.numpy(rules.label)[cols]] = True
        counts = mat.sum(1)
        pick = np.array([np.nonzero(mat[i])[0][rng.integers(max(c, 1))] if c else 0 for i, c in enumerate(counts)])
        state = rules.apply(state, pick)

    # Slow per step: a time budget of at least one step.
    return timed(step, b, seconds, max_steps=None if b <= 256 else 1)


def cshogi_loop(b, seconds, obs):
    """The loop a Python user writes over cshogi boards, made as fast as plain Python allows:
    each board's legal moves are generated once per step (after the move, kept for the next
    step's draw), labels by a list comprehension and set with one fancy-index assignment, and
    the random index from the standard library's generator (cheaper per call than numpy's)."""
    import random

    import cshogi
    from cshogi import dlshogi

    rnd = random.Random(3)
    label = dlshogi.make_move_label
    boards = [cshogi.Board() for _ in range(b)]
    legal = [list(board.legal_moves) for board in boards]
    f1 = np.zeros((b, dlshogi.FEATURES1_NUM, 9, 9), dtype=np.float32)
    f2 = np.zeros((b, dlshogi.FEATURES2_NUM, 9, 9), dtype=np.float32)

    def step():
        mask = np.zeros((b, 2187), dtype=bool)
        for i, board in enumerate(boards):
            moves = legal[i]
            if not moves or board.move_number > 512:
                board.reset()
                moves = list(board.legal_moves)
            board.push(moves[int(rnd.random() * len(moves))])
            turn = board.turn
            moves = list(board.legal_moves)
            legal[i] = moves
            mask[i, [label(m, turn) for m in moves]] = True
            if obs:
                f1[i] = 0
                f2[i] = 0
                dlshogi.make_input_features(board, f1[i], f2[i])

    return timed(step, b, seconds)


PGX_SCRIPT = r"""
import json, sys, time
import jax, jax.numpy as jnp
import pgx
b, seconds = int(sys.argv[1]), float(sys.argv[2])
env = pgx.make("shogi")
init = jax.jit(jax.vmap(env.init))
step = jax.jit(jax.vmap(env.step))
key = jax.random.PRNGKey(0)
key, sub = jax.random.split(key)
state = init(jax.random.split(sub, b))
@jax.jit
def act(key, mask):
    return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1)
def one(state, key):
    key, sub = jax.random.split(key)
    a = act(sub, state.legal_action_mask)
    state = step(state, a)
    state.legal_action_mask.block_until_ready()
    return state, key
state, key = one(state, key)
n, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    state, key = one(state, key)
    n += 1
print(json.dumps({"steps_per_s": n * b / (time.perf_counter() - start), "jax": jax.__version__, "pgx": pgx.__version__}))
"""


def pgx_cpu(b, seconds, obs):
    py = os.environ.get("KOMA_BENCH_PGX_PYTHON")
    if not py:
        return None
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    out = subprocess.run([py, "-c", PGX_SCRIPT, str(b), str(seconds)], check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])["steps_per_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="1,16,256,1024,4096")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=1, help="rounds (all systems in each round); the table shows each cell's median")
    ap.add_argument("--rust-bin", required=True)
    ap.add_argument("--no-pgx", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated subset: koma-python,koma-rust,einsum,pgx,cshogi")
    ap.add_argument("--tensor-backend", default="numpy")
    ap.add_argument("--tensor-device", default=None)
    ap.add_argument("--einsum-max", type=int, default=256, help="largest B for the einsum reference (a step at B=4096 takes minutes on numpy)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    impls = {
        "koma-python": lambda b, o: koma_python(b, args.seconds, o),
        "koma-rust": lambda b, o: koma_rust(args.rust_bin, b, args.seconds, o),
        f"einsum-{args.tensor_backend}": lambda b, o: None if o or b > args.einsum_max else einsum_reference(b, args.seconds, o, args.tensor_backend, args.tensor_device),
        "pgx-cpu": lambda b, o: None if args.no_pgx else pgx_cpu(b, args.seconds, o),
        "cshogi-loop": lambda b, o: cshogi_loop(b, args.seconds, o),
    }
    if args.only:
        wanted = args.only.split(",")
        impls = {k: v for k, v in impls.items() if any(k.startswith(w) for w in wanted)}
    rates = {}
    for _ in range(args.repeat):
        for obs in (False, True):
            for name, fn in impls.items():
                if name == "pgx-cpu" and obs:
                    continue  # pgx computes its observation in every step: one row
                for b in sizes:
                    rate = fn(b, obs)
                    if rate is None:
                        continue
                    key = (name, "mask+obs" if obs else "mask", b)
                    rates.setdefault(key, []).append(rate)
                    if args.json:
                        print(json.dumps({"impl": name, "row": key[1], "batch": b, "steps_per_s": round(rate)}), flush=True)
                    else:
                        print(f"  {name:14} {key[1]:9} B={b:<5} {rate:>12,.0f} steps/s", file=sys.stderr, flush=True)
    best = {k: float(np.median(v)) for k, v in rates.items()}
    load = os.getloadavg()
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or platform.platform()}, "
          f"Python {platform.python_version()}; git {rev}; median of {args.repeat} round(s); "
          f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    print("\n| implementation | row | " + " | ".join(f"B={b}" for b in sizes) + " |")
    print("|---|---|" + "---:|" * len(sizes))
    for name in impls:
        for row in ("mask", "mask+obs"):
            cells = [best.get((name, row, b)) for b in sizes]
            if all(c is None for c in cells):
                continue
            print(f"| {name} | {row} | " + " | ".join("—" if c is None else f"{c:,.0f}" for c in cells) + " |")


if __name__ == "__main__":
    main()
