"""Mate problems (詰将棋) from Python: thin bindings over koma-tsume (see docs/tsume.md).

``solve(sfen, time=None, nodes=None, hash_mib=None, any_mate=False)`` gives the composer's
answer (or any mate with ``any_mate``) as a dict; ``check(sfen, expected=None, ...)`` checks a
problem by the rules of tsume (余詰, 変同, 変長, 駒余り) and compares a recorded answer. The side
to move attacks; the solve releases the GIL.
"""

from koma._koma import tsume_check as check
from koma._koma import tsume_solve as solve

__all__ = ["check", "solve"]
