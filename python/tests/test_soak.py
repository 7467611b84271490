"""Random-play soaks. The fast one checks invariants over thousands of games; the paired one
replays every game in cshogi and judges every ending independently (mate, no legal move,
four-fold repetition with the perpetual-check rule, the ply limit).

KOMA_SOAK=full runs the heavy sizes (about 10x); CI runs the default sizes."""

import os

import cshogi
import numpy as np
from cshogi import dlshogi

import koma

FULL = os.environ.get("KOMA_SOAK") == "full"


def test_invariants_over_thousands_of_games():
    n, steps, max_plies = (1024, 12_000, 256) if FULL else (512, 3000, 160)
    env = koma.VecEnv(n, seed=5, max_plies=max_plies, observations=False)
    env.reset()
    games = ended_by_rule = 0
    for _ in range(steps):
        mask = env.legal_action_mask
        actions = env.random_actions()
        assert mask[np.arange(n), actions].all(), "random actions are legal"
        assert mask.any(axis=1).all(), "every game has a legal action or is waiting for its reset"
        _, reward, term, trunc, info = env.step(actions)
        assert reward.shape == (n, 2) and reward.dtype == np.float32
        assert (reward.sum(axis=1) == 0).all(), "zero-sum"
        assert not (term & trunc).any()
        assert (reward[~term] == 0).all(), "rewards only when a game ends"
        assert set(np.unique(info["current_player"])) <= {0, 1}
        games += int(term.sum() + trunc.sum())
        ended_by_rule += int(term.sum())
    assert games >= (20_000 if FULL else 5_000), games
    assert ended_by_rule > 100, ended_by_rule
    # States round-trip through SFEN.
    sfens = env.sfens()
    again = koma.VecEnv.from_sfens(sfens, observations=False)
    assert again.sfens() == sfens
    live = ~env._batch.done()
    assert (again.legal_action_mask[live] == env.legal_action_mask[live]).all()


def judge(history, board):
    """An independent judgement of the position `board` reached: (over, rewards [Black, White]).

    history: (zobrist key, side to move, in check) of every earlier position of the game."""
    key, side, check = board.zobrist_hash(), board.turn, board.is_check()
    same = [i for i, (k, s, _) in enumerate(history) if k == key and s == side]
    if len(same) >= 3:
        stretch = history[same[-3]:] + [(key, side, check)]
        for checker in (0, 1):
            victim_positions = [c for (_, s, c) in stretch[1:] if s != checker]
            if victim_positions and all(victim_positions):
                r = [1.0, 1.0]
                r[checker] = -1.0
                return True, r
        return True, [0.0, 0.0]
    if not any(True for _ in board.legal_moves):
        r = [1.0, 1.0]
        r[side] = -1.0
        return True, r
    return False, [0.0, 0.0]


def test_games_replayed_in_cshogi():
    """Every step is replayed in cshogi: the same move (by label), the same next position, and
    the same ending. Random play rarely repeats, so half the games start from a position where a
    rook and a king can shuttle, and their actions are drawn from a few shuttling moves."""
    n, steps = (64, 6000) if FULL else (32, 1500)
    shuttle = "8k/9/R8/9/9/9/9/9/K8 b - 1"
    starts = [shuttle if i % 2 else koma.STARTPOS_SFEN for i in range(n)]
    env = koma.VecEnv.from_sfens(starts, max_plies=300, observations=False, seed=11)
    rng = np.random.default_rng(3)
    boards = [cshogi.Board(s) for s in starts]
    hist = [[] for _ in range(n)]
    ends = {"mate": 0, "repetition": 0, "perpetual": 0, "limit": 0}
    done = np.zeros(n, dtype=bool)
    for _ in range(steps):
        mask = env.legal_action_mask
        actions = env.random_actions()
        for i in range(n):
            if done[i] or i % 2 == 0:
                continue
            b = boards[i]
            if b.turn == cshogi.BLACK and rng.random() < 0.95:
                # Black checks with its rook from the 9th file: perpetual checks follow.
                checks = []
                for m in b.legal_moves:
                    b.push(m)
                    if b.is_check() and cshogi.move_to(m) // 9 == 8:
                        checks.append(m)
                    b.pop()
                if checks:
                    actions[i] = dlshogi.make_move_label(checks[rng.integers(len(checks))], b.turn)
            elif rng.random() < 0.5:
                # White keeps its king on the edge.
                legal = [a for a in np.nonzero(mask[i])[0] if a % 81 in (71, 72, 73, 80, 79)]
                if legal:
                    actions[i] = rng.choice(legal)
        _, reward, term, trunc, _ = env.step(actions)
        sfens = env.sfens()
        for i in range(n):
            if done[i]:
                boards[i], hist[i] = cshogi.Board(starts[i]), []
                assert sfens[i] == starts[i]
                continue
            b = boards[i]
            move = next(m for m in b.legal_moves if dlshogi.make_move_label(m, b.turn) == actions[i])
            hist[i].append((b.zobrist_hash(), b.turn, b.is_check()))
            b.push(move)
            assert sfens[i].rsplit(" ", 1)[0] == b.sfen().rsplit(" ", 1)[0]
            over, want = judge(hist[i], b)
            assert bool(term[i]) == over, (starts[i], [h for h in hist[i]][-4:], sfens[i])
            if over:
                assert list(reward[i]) == want, sfens[i]
                kind = "mate" if want[0] and not any(True for _ in b.legal_moves) else ("perpetual" if want[0] else "repetition")
                ends[kind] += 1
            assert bool(trunc[i]) == (not over and len(hist[i]) >= 300)
            ends["limit"] += int(trunc[i])
        done = term | trunc
    assert ends["repetition"] + ends["perpetual"] > 20, ends
    assert ends["perpetual"] > 0 and ends["mate"] > 0, ends
