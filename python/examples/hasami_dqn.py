"""A DQN (PyTorch) that learns hasami shogi against one of koma's agents through
``koma.hasami.VecEnv``, as the original hasami study trained its network, with the environment
batched in Rust.

Not run in CI (it needs torch). Set up and run:

    scripts/test --torch          # .venv-torch (scripts/setup-torch.sh) with koma built into it
    .venv-torch/bin/python python/examples/hasami_dqn.py --minutes 10 --out target/hasami-dqn
    .venv-torch/bin/python python/examples/hasami_dqn.py --device cuda --minutes 60   # on a GPU

The network sees the learner's 4 observation planes and gives a Q value per action
(``from * 81 + to``): a few 3×3 convolutions, then a 1×1 convolution to 81 channels, channel
``to`` at spatial square ``from``. Double DQN with a target network, ε-greedy over the legal
mask, one-step targets with the max over the next position's legal actions (a move answered by
the opponent inside ``step``, so "next" is the learner's next turn). Progress (mean loss, ε,
episodes, win rate of the greedy policy against the opponent and against ``random``) is printed
and written as JSON lines to ``--out/curve.jsonl``; the final model to ``--out/model.pt``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time

import numpy as np
import torch
from torch import nn

from koma.hasami import NUM_ACTIONS, NUM_PLANES, VecEnv


class QNet(nn.Module):
    def __init__(self, width: int = 32, depth: int = 3):
        super().__init__()
        layers = [nn.Conv2d(NUM_PLANES, width, 3, padding=1), nn.ReLU()]
        for _ in range(depth - 1):
            layers += [nn.Conv2d(width, width, 3, padding=1), nn.ReLU()]
        self.body = nn.Sequential(*layers)
        self.head = nn.Conv2d(width, 81, 1)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        q = self.head(self.body(obs.float()))  # [B, 81 (to), 9, 9 (from)]
        return q.flatten(2).transpose(1, 2).reshape(len(obs), NUM_ACTIONS)  # from * 81 + to


def masked_argmax(q: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return q.masked_fill(~mask, float("-inf")).argmax(1)


class Replay:
    """Transitions with the next position's legal mask bit-packed (821 bytes instead of 6,561)."""

    def __init__(self, capacity: int):
        self.obs = np.zeros((capacity, NUM_PLANES, 9, 9), np.uint8)
        self.next_obs = np.zeros_like(self.obs)
        self.next_mask = np.zeros((capacity, (NUM_ACTIONS + 7) // 8), np.uint8)
        self.action = np.zeros(capacity, np.int64)
        self.reward = np.zeros(capacity, np.float32)
        self.done = np.zeros(capacity, np.float32)
        self.capacity, self.size, self.at = capacity, 0, 0

    def add(self, obs, action, reward, done, next_obs, next_mask):
        n = len(obs)
        idx = (self.at + np.arange(n)) % self.capacity
        self.obs[idx], self.action[idx], self.reward[idx] = obs, action, reward
        self.done[idx], self.next_obs[idx] = done, next_obs
        self.next_mask[idx] = np.packbits(next_mask, axis=1)
        self.at = (self.at + n) % self.capacity
        self.size = min(self.size + n, self.capacity)

    def sample(self, n: int, rng: np.random.Generator, device):
        i = rng.integers(self.size, size=n)
        mask = np.unpackbits(self.next_mask[i], axis=1, count=NUM_ACTIONS).astype(bool)
        t = lambda a: torch.as_tensor(a, device=device)  # noqa: E731
        return t(self.obs[i]), t(self.action[i]), t(self.reward[i]), t(self.done[i]), t(self.next_obs[i]), t(mask)


@torch.no_grad()
def evaluate(net: QNet, opponent: str, games: int, device, seed: int) -> dict:
    """The greedy policy's results over `games` episodes against `opponent`, colours alternating."""
    env = VecEnv(min(games, 256), opponent=opponent, seed=seed, max_plies=200)
    obs, _ = env.reset()
    results = []
    waiting = np.zeros(env.num_envs, bool)
    while len(results) < games:
        mask = torch.as_tensor(env.legal_action_mask, device=device)
        actions = masked_argmax(net(torch.as_tensor(obs, device=device)), mask).cpu().numpy()
        obs, reward, term, trunc, _ = env.step(actions)
        ended = (term | trunc) & ~waiting
        results += reward[ended].tolist()
        waiting = term | trunc
    r = np.array(results[:games])
    return {"games": games, "win": float((r > 0).mean()), "loss": float((r < 0).mean()), "draw": float((r == 0).mean())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponent", default="random", help="koma-hasami agent to train against (random, study:D, search:D, learned:greedy, ...)")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--width", type=int, default=32, help="channels of the convolutions")
    ap.add_argument("--depth", type=int, default=3, help="3x3 convolutions")
    ap.add_argument("--minutes", type=float, default=5.0, help="training time budget")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--replay", type=int, default=100_000)
    ap.add_argument("--eps-steps", type=int, default=3000, help="env steps over which ε goes from 1 to 0.05")
    ap.add_argument("--target-every", type=int, default=250, help="gradient steps between target-network copies")
    ap.add_argument("--eval-every", type=float, default=60.0, help="seconds between evaluations")
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="target/hasami-dqn")
    args = ap.parse_args()

    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    device = torch.device(args.device)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    curve = open(out / "curve.jsonl", "w")

    net, target = QNet(args.width, args.depth).to(device), QNet(args.width, args.depth).to(device)
    target.load_state_dict(net.state_dict())
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    replay = Replay(args.replay)
    env = VecEnv(args.envs, opponent=args.opponent, seed=args.seed, max_plies=200)
    obs, _ = env.reset()
    waiting = np.zeros(args.envs, bool)  # the previous step ended these games: this step resets them

    def results(salt: int, games: int) -> dict:
        row = {"vs_opponent": evaluate(net, args.opponent, games, device, 10_000 + salt)}
        if args.opponent != "random":
            row["vs_random"] = evaluate(net, "random", games, device, 20_000 + salt)
        return row

    def log(row: dict) -> None:
        print(json.dumps(row), flush=True)
        curve.write(json.dumps(row) + "\n")
        curve.flush()

    log({"t": 0.0, "env_steps": 0, **results(0, args.eval_games)})
    steps = grad_steps = episodes = 0
    losses: list = []
    start = last_eval = time.perf_counter()
    while time.perf_counter() - start < args.minutes * 60:
        eps = max(0.05, 1.0 - steps / args.eps_steps)
        mask = env.legal_action_mask
        with torch.no_grad():
            greedy = masked_argmax(net(torch.as_tensor(obs, device=device)), torch.as_tensor(mask, device=device)).cpu().numpy()
        actions = np.where(rng.random(args.envs) < eps, env.random_actions(), greedy)
        next_obs, reward, term, trunc, _ = env.step(actions)
        live = ~waiting
        replay.add(obs[live], actions[live], reward[live], term[live], next_obs[live], env.legal_action_mask[live])
        episodes += int(((term | trunc) & live).sum())
        waiting = term | trunc
        obs = next_obs
        steps += 1

        if replay.size >= 4 * args.batch:
            o, a, r, d, o2, m2 = replay.sample(args.batch, rng, device)
            with torch.no_grad():
                best = masked_argmax(net(o2), m2)
                q2 = target(o2).gather(1, best[:, None])[:, 0]
                y = r + args.gamma * (1 - d) * q2
            q = net(o).gather(1, a[:, None])[:, 0]
            loss = nn.functional.smooth_l1_loss(q, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            grad_steps += 1
            if grad_steps % args.target_every == 0:
                target.load_state_dict(net.state_dict())

        if time.perf_counter() - last_eval >= args.eval_every:
            last_eval = time.perf_counter()
            log({"t": round(last_eval - start, 1), "env_steps": steps * args.envs, "grad_steps": grad_steps,
                 "episodes": episodes, "eps": round(eps, 3), "loss": float(np.mean(losses)) if losses else None,
                 **results(steps, args.eval_games)})
            losses = []

    log({"t": round(time.perf_counter() - start, 1), "env_steps": steps * args.envs, "grad_steps": grad_steps,
         "episodes": episodes, "final": True,
         **results(99_999, 2 * args.eval_games)})
    torch.save(net.state_dict(), out / "model.pt")


if __name__ == "__main__":
    main()
