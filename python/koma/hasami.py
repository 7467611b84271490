"""``koma.hasami``: hasami shogi (挟み将棋, koma-hasami's rules) as a Gymnasium vector environment,
in self-play or against one of koma's hasami agents playing the other side inside ``step``.

Actions are ``from * 81 + to`` (6,561), observations 4 planes of 9×9 (the viewer's pieces, the
other side's pieces, all ones when the viewer is White, all ones when the position occurred before
in the game), both seen from the viewer's side with the board turned 180° for White: the learner
against an opponent, the side to move in self-play. Squares are numbered ``row * 9 + col`` with
9a = 0 and 1i = 80 from Black's side. Details: docs/batch.md.
"""

from __future__ import annotations

from os import PathLike
from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from koma._koma import HASAMI_NUM_ACTIONS, NativeHasami
from koma.env import _MODES, _actions, _autoreset_mode

NUM_ACTIONS = HASAMI_NUM_ACTIONS
"""Actions of one game: every (from, to) pair of squares, ``from * 81 + to``."""

NUM_PLANES = 4
"""Observation planes of one game (each 9×9)."""

AGENTS = ("random", "study:D", "search[:D|:MSms]", "learned[:D|:MSms|:greedy]")
"""The koma-hasami agents an opponent can be (D a depth, MS a time per move in milliseconds)."""

_FILES = "987654321"
_RANKS = "abcdefghi"


def square_index(square: str) -> int:
    """The index (0..81, from Black's side) of a square written like ``"9a"``."""
    if len(square) != 2 or square[0] not in _FILES or square[1] not in _RANKS:
        raise ValueError(f"square {square!r} is not a file 1-9 followed by a rank a-i")
    return _RANKS.index(square[1]) * 9 + _FILES.index(square[0])


def action_of(move: str, side: int = 0) -> int:
    """The action of a move written as in koma-hasami (``"9i9e"``), played by ``side`` (0 Black,
    1 White: the board is turned for White, so mirrored moves have the same action)."""
    if not isinstance(move, str) or len(move) != 4:
        raise ValueError(f"move {move!r} is not from-square then to-square, like '9i9e'")
    f, t = square_index(move[:2]), square_index(move[2:])
    if side == 1:
        f, t = 80 - f, 80 - t
    elif side != 0:
        raise ValueError(f"side {side!r} is not 0 (Black) or 1 (White)")
    return f * 81 + t


def move_of(action: int, side: int = 0) -> str:
    """The move (``"9i9e"``) that ``action`` names for ``side`` (0 Black, 1 White)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a} is out of range 0..{NUM_ACTIONS}")
    if side not in (0, 1):
        raise ValueError(f"side {side!r} is not 0 (Black) or 1 (White)")
    f, t = divmod(a, 81)
    if side == 1:
        f, t = 80 - f, 80 - t
    return "".join(_FILES[s % 9] + _RANKS[s // 9] for s in (f, t))


class VecEnv(VectorEnv):
    """B games of hasami shogi stepped together (Gymnasium vector-environment conventions).

    ``opponent=None`` is self-play: each step plays one move for the side to move of every game,
    and ``reward`` is float32 ``[B, 2]`` (Black, White; +1 win, -1 loss, 0 otherwise).
    ``opponent="random" | "study:D" | "search[:D|:MSms]" | "learned[:D|:MSms|:greedy]"`` is a
    single-agent environment: koma-hasami's agent answers inside ``step`` (and opens when the
    learner is White), so every observation is the learner's turn, and ``reward`` is float32
    ``[B]`` for the learner. ``learner`` is its colour: ``"black"``, ``"white"`` or
    ``"alternate"`` (by game and episode, so a batch always holds both). ``model`` is an n-tuple
    model file (``koma hasami train``) for a ``learned`` opponent; default the shipped one.

    Games end by koma-hasami's rules: a win (terminated), a draw by threefold repetition
    (terminated), the ply limit ``max_plies`` (truncated). ``opening_plies`` random moves open each
    episode, as ``koma hasami arena`` does. Ended games restart as the autoreset mode says; a game
    waiting for its reset has an all-true mask and ignores its action.
    ``info["current_player"]`` is the side to move, ``info["learner"]`` the learner's colour
    (0 Black, 1 White). Every array returned is new.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        opponent: Optional[str] = None,
        learner: str = "alternate",
        seed: Optional[int] = None,
        max_plies: int = 300,
        opening_plies: int = 0,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        model: Optional[Union[str, PathLike]] = None,
    ) -> None:
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if opponent is not None and not isinstance(opponent, str):
            raise TypeError(f"opponent must be an agent name like 'study:3' or None, got {opponent!r}")
        mode = _autoreset_mode(autoreset_mode)
        self._seed = 0 if seed is None else _seed(seed)
        self._batch = NativeHasami(
            int(num_envs),
            opponent=opponent,
            learner=learner,
            max_plies=_count("max_plies", max_plies),
            opening_plies=_count("opening_plies", opening_plies),
            autoreset_mode=_MODES[mode],
            seed=self._seed,
            model=None if model is None else str(model),
        )
        self._draws = 0
        self._setup()

    def _setup(self) -> None:
        self.num_envs = self._batch.num_envs
        self.metadata = {**type(self).metadata, "autoreset_mode": _autoreset_mode(self._batch.autoreset_mode)}
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, NUM_ACTIONS))
        self.single_observation_space = spaces.Box(0, 1, (NUM_PLANES, 9, 9), np.uint8)
        self.observation_space = spaces.Box(0, 1, (self.num_envs, NUM_PLANES, 9, 9), np.uint8)

    @property
    def opponent(self) -> Optional[str]:
        """The opponent agent's name, ``None`` in self-play."""
        return self._batch.opponent

    # -- Gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Starts the next episode of every game; with ``seed``, starts the whole batch afresh
        from that seed (openings, opponent, :meth:`random_actions`)."""
        if options:
            raise ValueError(f"koma.hasami.VecEnv.reset takes no options, got {sorted(options)}")
        if seed is not None:
            self._seed, self._draws = _seed(seed), 0
            self._batch.reset(self._seed)
        else:
            self._batch.reset()
        return self._batch.observations(), self._info()

    def step(self, actions: Any):
        """Plays one action per game (and the opponent's reply); returns ``(obs, reward,
        terminated, truncated, info)``."""
        reward, terminated, truncated = self._batch.step(_actions(actions, self.num_envs))
        info = self._info()
        if self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP:
            finals = self._batch.final_records()
            if finals:
                mask = np.zeros(self.num_envs, dtype=bool)
                final_obs = np.empty(self.num_envs, dtype=object)
                records = np.empty(self.num_envs, dtype=object)
                for (i, record), obs in zip(finals, self._batch.final_observations()):
                    mask[i] = True
                    final_obs[i] = obs
                    records[i] = record
                info["final_obs"], info["_final_obs"] = final_obs, mask
                info["final_info"] = {"record": records, "_record": mask}
                info["_final_info"] = mask
        return self._batch.observations(), reward, terminated, truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # -- koma additions -------------------------------------------------------------------------

    @property
    def legal_action_mask(self) -> np.ndarray:
        """bool ``[B, 6561]``: the actions of the legal moves of each current position."""
        return self._batch.legal_action_mask()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, int64 ``[B]``, reproducible from the seed."""
        self._draws += 1
        return self._batch.random_actions((self._seed * 0x9E3779B97F4A7C15 + self._draws) % (1 << 64))

    def observe(self) -> np.ndarray:
        """The observations of the current positions, uint8 ``[B, 4, 9, 9]``."""
        return self._batch.observations()

    @property
    def current_player(self) -> np.ndarray:
        """The side to move of each game, int8 ``[B]``: 0 Black, 1 White."""
        return self._batch.current_players()

    @property
    def learner_colors(self) -> np.ndarray:
        """The learner's colour in each game's episode, int8 ``[B]`` (all 0 in self-play)."""
        return self._batch.learner_colors()

    def positions(self) -> list:
        """The current positions in koma-hasami's notation (``ppppppppp/9/.../PPPPPPPPP b 1``)."""
        return self._batch.positions()

    def records(self) -> list:
        """Each game's episode so far as ``position startpos moves ...`` (koma-hasami's engine
        protocol; ``koma hasami`` reads it)."""
        return self._batch.records()

    def _info(self) -> dict:
        return {"current_player": self._batch.current_players(), "learner": self._batch.learner_colors()}

    def __getstate__(self) -> dict:
        return {"batch": self._batch, "seed": self._seed, "draws": self._draws}

    def __setstate__(self, state: dict) -> None:
        self._batch, self._seed, self._draws = state["batch"], state["seed"], state["draws"]
        self._setup()

    def __repr__(self) -> str:
        return (
            f"koma.hasami.VecEnv(num_envs={self.num_envs}, opponent={self.opponent!r}, "
            f"learner={self._batch.learner!r}, max_plies={self._batch.max_plies})"
        )


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed) % (1 << 64)
