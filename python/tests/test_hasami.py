"""koma.hasami.VecEnv: hasami shogi games of koma-hasami, self-play and against its agents."""

import pickle

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import koma
from koma.hasami import NUM_ACTIONS, VecEnv, action_of, move_of

UP, DOWN = action_of("9i9h"), action_of("9h9i")


def test_spaces_and_the_start():
    env = VecEnv(4)
    obs, info = env.reset(seed=3)
    assert obs in env.observation_space and obs.shape == (4, 4, 9, 9)
    assert env.single_action_space.n == NUM_ACTIONS == 81 * 81
    mask = env.legal_action_mask
    assert mask.shape == (4, NUM_ACTIONS) and mask.sum(1).tolist() == [63] * 4
    assert mask[0, action_of("9i9e")] and not mask[0, action_of("9i8h")]
    assert (obs[:, 0, 8] == 1).all() and (obs[:, 1, 0] == 1).all() and obs[:, 2:].sum() == 0
    assert (info["current_player"] == 0).all()
    assert env.positions()[0] == "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1"


def test_actions_round_trip_and_mirror():
    for side in (0, 1):
        for a in (0, 80, 72 * 81 + 36, NUM_ACTIONS - 1):
            assert action_of(move_of(a, side), side) == a
    assert move_of(action_of("9i9e"), 1) == "1a1e"
    env = VecEnv(1)
    env.step(np.array([action_of("9i9e")]))
    # White, to move, sees the board turned: its 1a1e is Black's 9i9e; 9a's pawn is blocked
    # by Black's on 9e (4 moves fewer), which White sees on its 1e-side.
    assert env.legal_action_mask.sum() == 59
    assert env.legal_action_mask[0, action_of("9i9e")]
    assert not env.legal_action_mask[0, action_of("1i1e")] and env.legal_action_mask[0, action_of("1i1f")]
    assert env.positions()[0] == "ppppppppp/9/9/9/P8/9/9/9/1PPPPPPPP w 2"
    assert env.observe()[0, 2].all(), "plane 2: the viewer is White"


def test_self_play_soak_invariants():
    env = VecEnv(64, seed=1, max_plies=150)
    env.reset()
    ended = wins = 0
    for _ in range(400):
        mask = env.legal_action_mask
        assert mask.any(axis=1).all()
        actions = env.random_actions()
        assert mask[np.arange(64), actions].all()
        obs, reward, term, trunc, info = env.step(actions)
        assert reward.shape == (64, 2) and (reward.sum(1) == 0).all()
        assert not (term & trunc).any()
        assert ((reward != 0).any(1) <= term).all(), "only a terminated game scores"
        assert not (obs[:, 0] & obs[:, 1]).any()
        ended += int((term | trunc).sum())
        wins += int((reward != 0).any(1).sum())
    assert ended > 64 and wins > 0, (ended, wins)


def test_repetition_draws_on_the_third_occurrence():
    env = VecEnv(1)
    for i, a in enumerate([UP, UP, DOWN, DOWN] * 2):
        obs, reward, term, trunc, _ = env.step(np.array([a]))
        if i == 3:
            assert obs[0, 3].all(), "plane 3: the position occurred before"
        assert term[0] == (i == 7) and not trunc[0] and (reward == 0).all()


def test_ply_limit_truncates():
    env = VecEnv(1, max_plies=4)
    for i, a in enumerate([UP, action_of("8i8h"), DOWN, action_of("8h8i")]):
        _, _, term, trunc, _ = env.step(np.array([a]))
    assert trunc[0] and not term[0]
    assert env.legal_action_mask.all(), "an ended game takes any action"
    env.step(np.array([0]))
    assert env.positions()[0].endswith("b 1")


@pytest.mark.parametrize("opponent", ["random", "study:1", "search:1", "learned:greedy", "learned:1"])
def test_every_agent_answers_inside_the_step(opponent):
    env = VecEnv(6, opponent=opponent, seed=2, max_plies=60)
    assert env.opponent == opponent
    obs, info = env.reset()
    assert sorted(set(info["learner"].tolist())) == [0, 1]
    for _ in range(70):
        live = ~env._batch.done()
        assert (info["current_player"][live] == info["learner"][live]).all()
        obs, reward, term, trunc, info = env.step(env.random_actions())
        assert reward.shape == (6,)
        assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}


def test_a_searching_opponent_beats_random_play():
    env = VecEnv(8, opponent="study:2", seed=4, max_plies=200)
    total = 0.0
    for _ in range(120):
        _, reward, _, _, _ = env.step(env.random_actions())
        total += reward.sum()
    assert total <= -4, total


def test_learner_colour_is_honoured():
    for learner, colour in (("black", 0), ("white", 1)):
        env = VecEnv(3, opponent="random", learner=learner)
        assert (env.learner_colors == colour).all()
        assert (env.current_player == colour).all()
        moves = env.records()[0].split()
        assert len(moves) == (2 if colour == 0 else 4), moves


def test_same_step_autoreset_keeps_the_final_observation():
    env = VecEnv(2, autoreset_mode=AutoresetMode.SAME_STEP)
    seq = [UP, UP, DOWN, DOWN] * 2
    for a in seq[:-1]:
        env.step(np.array([a, a]))
    obs, _, term, _, info = env.step(np.array([seq[-1], seq[-1]]))
    assert term.all() and info["_final_obs"].all()
    assert info["final_obs"][0][3].all()
    assert info["final_info"]["record"][0].endswith("9h9i 1b1a")
    assert env.positions() == ["ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1"] * 2


def test_pickled_env_continues_identically():
    env = VecEnv(5, opponent="random", opening_plies=3, seed=7)
    for _ in range(25):
        env.step(env.random_actions())
    copy = pickle.loads(pickle.dumps(env))
    assert copy.records() == env.records() and copy.opponent == "random"
    for _ in range(60):
        a, b = env.step(env.random_actions()), copy.step(copy.random_actions())
        for x, y in zip(a[:4], b[:4]):
            assert (x == y).all()
    assert copy.records() == env.records()


def test_reset_with_a_seed_is_reproducible():
    runs = []
    for _ in range(2):
        env = VecEnv(4, opponent="random", opening_plies=4)
        env.reset(seed=11)
        for _ in range(20):
            env.step(env.random_actions())
        runs.append(env.records())
    assert runs[0] == runs[1]


def test_bad_input():
    with pytest.raises(ValueError, match=r"unknown agent \"minimax\": use random\[:SEED\], study:D"):
        VecEnv(2, opponent="minimax")
    with pytest.raises(ValueError, match='learner "red" is not one of'):
        VecEnv(2, opponent="random", learner="red")
    with pytest.raises(ValueError, match=r"ply limit \(3\) must exceed the opening \(2 plies\)"):
        VecEnv(2, max_plies=3, opening_plies=2)
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        VecEnv(0)
    with pytest.raises(ValueError, match="read only by a 'learned' opponent"):
        VecEnv(2, opponent="random", model="x.ntw")
    with pytest.raises(OSError, match="model file /nonexistent.ntw"):
        VecEnv(2, opponent="learned", model="/nonexistent.ntw")
    env = VecEnv(3)
    with pytest.raises(koma.IllegalMoveError, match="environment 1: action 0 is not a legal move in ppppppppp"):
        env.step(np.array([UP, 0, UP]))
    with pytest.raises(ValueError, match="environment 2: action 6561 is out of range 0..6561"):
        env.step(np.array([UP, UP, NUM_ACTIONS]))
    with pytest.raises(ValueError, match="action -1 is out of range"):
        env.step(np.array([UP, -1, UP]))
    with pytest.raises(ValueError, match=r"shape \(2,\), expected \(3,\)"):
        env.step(np.array([UP, UP]))
    with pytest.raises(TypeError, match="dtype float64"):
        env.step(np.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="square 'x9' is not"):
        action_of("x99a")
    assert env.positions() == ["ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1"] * 3


def test_bad_model_file(tmp_path):
    bad = tmp_path / "bad.ntw"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="bad.ntw"):
        VecEnv(1, opponent="learned:greedy", model=bad)


def test_stubs_name_every_native_method():
    import ast
    import pathlib

    stub = ast.parse((pathlib.Path(koma.__file__).parent / "_koma.pyi").read_text())
    classes = {c.name: c for c in stub.body if isinstance(c, ast.ClassDef)}
    for cls in (koma._koma.NativeHasami, koma._koma.NativeBatch, koma._koma.Board):
        stubbed = {f.name for f in classes[cls.__name__].body if isinstance(f, ast.FunctionDef)}
        public = {n for n in dir(cls) if not n.startswith("_")}
        assert public <= stubbed, f"{cls.__name__}: {sorted(public - stubbed)} missing from _koma.pyi"
