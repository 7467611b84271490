"""``koma.VecEnv``: B shogi games as a Gymnasium vector environment."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from koma._koma import NUM_FEATURES, NUM_LABELS, NativeBatch

_MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


def _autoreset_mode(mode: Any) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        return mode
    for m, name in _MODES.items():
        if mode == name:
            return m
    raise ValueError(
        f"autoreset_mode {mode!r} is not an AutoresetMode nor one of 'next_step', 'same_step', 'disabled'"
    )


def _actions(actions: Any, num_envs: int) -> np.ndarray:
    a = np.asarray(actions)
    if a.shape != (num_envs,):
        raise ValueError(f"actions has shape {a.shape}, expected ({num_envs},): one action per environment")
    if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"actions have dtype {a.dtype}, expected an integer dtype")
    return np.ascontiguousarray(a, dtype=np.int64)


class VecEnv(VectorEnv):
    """B games of shogi stepped together, following Gymnasium's vector-environment conventions.

    Each step plays one action per game: a dlshogi action label ``0..2187`` (``action_kind=
    "label"``) or a flat index of the ``[21, 81, 81, 2]`` legal-move tensor (``"tensor"``).
    ``step`` returns ``(obs, reward, terminated, truncated, info)`` where ``reward`` is float32
    ``[B, 2]`` (Black, White; +1 win, -1 loss, 0 otherwise, zero-sum, as pgx) and ``obs`` the
    dlshogi input features uint8 ``[B, 119, 9, 9]`` seen from the side to move (or an empty
    ``[B, 0]`` array with ``observations=False``, when the features are not wanted every step).
    ``info["current_player"]`` is the side to move (0 Black, 1 White).

    Games end by checkmate or no legal move (the side to move loses), 千日手 (a draw; perpetual
    check loses for the checker), optionally the 27-point declaration (``declaration=True``: a
    side to move that qualifies wins), and are truncated after ``max_plies`` moves. Ended games
    restart at the start position, or at the positions given to :meth:`from_sfens`, as the
    autoreset mode says; a game waiting for its reset has an all-true mask and ignores its action.

    Every array returned is new: no later call writes into it.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        seed: Optional[int] = None,
        max_plies: int = 512,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        declaration: bool = False,
        observations: bool = True,
        action_kind: str = "label",
        _sfens: Optional[Sequence[str]] = None,
        _reset_to_given: bool = False,
    ) -> None:
        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if action_kind not in ("label", "tensor"):
            raise ValueError(f"action_kind {action_kind!r} is not 'label' or 'tensor'")
        mode = _autoreset_mode(autoreset_mode)
        self._batch = NativeBatch(
            int(num_envs),
            max_plies=int(max_plies),
            declaration=bool(declaration),
            autoreset_mode=_MODES[mode],
            sfens=None if _sfens is None else list(_sfens),
            reset_to_given=_reset_to_given,
        )
        self.num_envs = self._batch.num_envs
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.observations = bool(observations)
        self.action_kind = action_kind
        n_actions = NUM_LABELS if action_kind == "label" else 21 * 81 * 81 * 2
        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, n_actions))
        shape = (NUM_FEATURES, 9, 9) if self.observations else (0,)
        self.single_observation_space = spaces.Box(0, 1, shape, np.uint8)
        self.observation_space = spaces.Box(0, 1, (self.num_envs, *shape), np.uint8)
        self._seed = 0 if seed is None else int(seed)
        self._draws = 0

    @classmethod
    def from_sfens(cls, sfens: Sequence[str], *, reset_to: str = "given", **kwargs: Any) -> "VecEnv":
        """One game per SFEN. ``reset_to="given"``: ended games restart at their own SFEN;
        ``"startpos"``: at the start position."""
        if isinstance(sfens, str):
            raise TypeError("from_sfens takes a list of SFEN strings, not one string")
        if reset_to not in ("given", "startpos"):
            raise ValueError(f"reset_to {reset_to!r} is not 'given' or 'startpos'")
        sfens = list(sfens)
        return cls(len(sfens), _sfens=sfens, _reset_to_given=reset_to == "given", **kwargs)

    # -- Gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Sends every game to its start position. ``seed`` reseeds :meth:`random_actions`;
        ``options={"sfens": [...]}`` replaces the positions resets go to."""
        if seed is not None:
            self._seed, self._draws = int(seed), 0
        if options and "sfens" in options:
            self._batch.set_start_sfens(list(options["sfens"]))
        self._batch.reset()
        return self._obs(), self._info()

    def step(self, actions: Any):
        """Plays one action per game; returns ``(obs, reward [B, 2], terminated, truncated, info)``."""
        reward, terminated, truncated = self._batch.step(_actions(actions, self.num_envs), self.action_kind)
        info = self._info()
        if self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP:
            finals = self._batch.final_sfens()
            if finals:
                idx = np.array([i for i, _ in finals])
                final_obs = np.empty(self.num_envs, dtype=object)
                if self.observations:
                    for j, f in zip(idx, self._batch.final_features()):
                        final_obs[j] = f
                mask = np.zeros(self.num_envs, dtype=bool)
                mask[idx] = True
                info["final_obs"], info["_final_obs"] = final_obs, mask
                sfens = np.empty(self.num_envs, dtype=object)
                for i, s in finals:
                    sfens[i] = s
                info["final_info"] = {"sfen": sfens, "_sfen": mask}
                info["_final_info"] = mask
        return self._obs(), reward, terminated, truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # -- koma additions -------------------------------------------------------------------------

    @property
    def legal_action_mask(self) -> np.ndarray:
        """bool ``[B, 2187]``: the labels of the legal moves of each current position."""
        return self._batch.legal_action_mask()

    def legal_moves_mat(self) -> np.ndarray:
        """bool ``[B, 21, 81, 81, 2]``: the legal-move tensor (index convention in docs/batch.md)."""
        return self._batch.legal_moves_mat()

    def legal_moves_sparse(self):
        """``(offsets int64 [B + 1], indices int32 [N])``: flat tensor indices of each game's legal
        moves, ``indices[offsets[i]:offsets[i + 1]]``."""
        return self._batch.legal_moves_sparse()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal label per game, int64 ``[B]``, reproducible from the seed."""
        self._draws += 1
        seed = (self._seed * 0x9E3779B97F4A7C15 + self._draws) % (1 << 64)
        return self._batch.random_actions(seed)

    def observe(self) -> np.ndarray:
        """The dlshogi features of the current positions, uint8 ``[B, 119, 9, 9]``."""
        return self._batch.features()

    @property
    def current_player(self) -> np.ndarray:
        """The side to move of each game, int8 ``[B]``: 0 Black, 1 White."""
        return self._batch.current_players()

    def sfens(self) -> list:
        """The current positions as SFEN."""
        return self._batch.sfens()

    def _obs(self) -> np.ndarray:
        if self.observations:
            return self._batch.features()
        return np.zeros((self.num_envs, 0), dtype=np.uint8)

    def _info(self) -> dict:
        return {"current_player": self._batch.current_players()}

    def __repr__(self) -> str:
        return (
            f"koma.VecEnv(num_envs={self.num_envs}, max_plies={self._batch.max_plies}, "
            f"autoreset_mode={self.metadata['autoreset_mode'].name})"
        )
