"""Mate problems (詰将棋) from Python: thin bindings over koma-tsume (see docs/tsume.md).

``solve(sfen, time=None, nodes=None, hash_mib=None, any_mate=False)`` gives the composer's
answer (or any mate with ``any_mate``) as a dict; ``check(sfen, expected=None, ...)`` checks a
problem by the rules of tsume (余詰, 変同, 変長, 駒余り) and compares a recorded answer. The side
to move attacks; the solve releases the GIL.

Each of those calls has a transposition table of its own. ``Solver(hash_mib=None)`` keeps one
from call to call (its ``solve`` and ``check`` take the same arguments but ``hash_mib``): the
same answers, without fresh memory for every problem of a loop. One call at a time per solver.
"""

from koma._koma import TsumeSolver as Solver
from koma._koma import tsume_check as check
from koma._koma import tsume_solve as solve

__all__ = ["Solver", "check", "solve"]
