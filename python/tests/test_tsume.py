"""koma.tsume: the solver and the problem check from Python, on problems with known answers."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import koma
import koma.tsume

ZUKOU = Path(__file__).resolve().parents[2] / "data" / "tsume" / "zukou.jsonl"


def test_mate_in_one_and_no_mate():
    r = koma.tsume.solve("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", hash_mib=4)
    assert r["outcome"] == "mate" and r["moves"] == ["G*5b"] and r["optimal"]
    assert r["leftover"] == ""
    r = koma.tsume.solve("4k4/9/9/9/9/9/9/9/9 b - 1", hash_mib=4, time=5)
    assert r["outcome"] == "nomate"


def test_check_and_limits():
    """The problem check on a mate in one against a right and a wrong recorded answer; a node
    limit on a real problem (将棋図巧 50) gives 'unknown' with its reason. The solver itself is
    tested in crates/koma-tsume; this tests the binding."""
    c = koma.tsume.check("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", ["G*5b"], hash_mib=4, time=60)
    assert c["verdict"] == "sound" and c["agrees"] and c["answer"] == ["G*5b"], c
    c = koma.tsume.check("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", ["G*4b"], hash_mib=4, time=60)
    assert not c["agrees"] and c["first_difference"] == (1, "G*4b", "G*5b"), c
    problems = {p["id"]: p for p in map(json.loads, ZUKOU.read_text(encoding="utf-8").splitlines())}
    r = koma.tsume.solve(problems["zukou-050"]["sfen"], hash_mib=4, nodes=1000)
    assert r["outcome"] == "unknown" and r["reason"] == "nodes", r


# 将棋図巧25 after 28 plies (CC0): △３二玉 at ply 2 lasts the answer's 7 plies only through a
# continuation that ends with a pawn left; its line by the leftover rules is 4 plies.
SHORT_LINE_EQUAL = "7p1/1P1l5/3n1k3/+b3R4/2PP5/3G5/9/9/5+b3 b 2Grg4s3n3l14p 1"


def test_equal_defence_with_a_shorter_line():
    """将棋図巧25 after 28 plies: △３二玉 at ply 2 lasts the answer's 7 plies only through a
    continuation ending with a pawn left, so its line is 4 plies and `minimax_length` says 6."""
    c = koma.tsume.check(SHORT_LINE_EQUAL, None, hash_mib=16, time=120)
    assert len(c["answer"]) == 7, c
    equal = [f for f in c["findings"] if f["kind"] == "equal_defence"]
    short = [f for f in equal if "minimax_length" in f]
    assert [(f["ply"], f["line"][0], f["minimax_length"], len(f["line"])) for f in short] == [
        (2, "4c3b", 6, 4)
    ], equal


def koma_bin() -> str:
    """The koma binary: $KOMA_BIN (scripts/test sets it), else the workspace's release build.
    Missing, it is an error: build it with `cargo build --release -p koma`."""
    path = os.environ.get("KOMA_BIN") or str(Path(__file__).resolve().parents[2] / "target" / "release" / "koma")
    assert Path(path).is_file(), f"no koma binary at {path}: cargo build --release -p koma, or set KOMA_BIN"
    return path


def test_check_dicts_are_the_cli_json_findings():
    """One mapping: the Python dict's findings, answer and verdict are those of `koma tsume
    --check --json` (koma-tsume's report) on the same problem (将棋図巧25 after 28 plies)."""
    c = koma.tsume.check(SHORT_LINE_EQUAL, None, hash_mib=16, time=120)
    out = subprocess.run(
        [koma_bin(), "tsume", "--check", "--json", "--hash", "16", SHORT_LINE_EQUAL],
        capture_output=True,
        text=True,
        timeout=300,
    )
    cli = json.loads(out.stdout)
    assert (c["verdict"], c["answer"]) == (cli["verdict"], cli["moves"]), out.stderr
    assert c["findings"] == cli["findings"]
    assert {f["kind"] for f in c["findings"]} >= {"equal_defence"}, c


def test_a_solver_kept_from_problem_to_problem_answers_as_the_calls_do():
    """A `Solver` keeps its table from one problem to the next: on 将棋図巧 1–6 (composer's
    answers, node counts), a bad position in between, a no-mate and a check, it answers as fresh
    `solve` and `check` calls do, node for node."""
    problems = [p["sfen"] for p in map(json.loads, ZUKOU.read_text(encoding="utf-8").splitlines()[:6])]
    solver = koma.tsume.Solver(hash_mib=8)
    outcomes = []
    for sfen in problems + ["4k4/9/9/9/9/9/9/9/9 b - 1", problems[1]]:
        kept = solver.solve(sfen, nodes=300_000)
        fresh = koma.tsume.solve(sfen, nodes=300_000, hash_mib=8)
        kept.pop("seconds"), fresh.pop("seconds")
        assert kept == fresh, sfen
        outcomes.append((kept["outcome"], kept.get("optimal")))
        with pytest.raises(koma.SfenError):
            solver.solve("9/9 b - 1")
    # Settled answers and limits both: the table carried over is exercised on both paths.
    assert ("mate", True) in outcomes and "nomate" in {o for o, _ in outcomes}, outcomes
    assert any(o == "unknown" or opt is False for o, opt in outcomes), outcomes
    kept = solver.check(SHORT_LINE_EQUAL, None, time=120)
    fresh = koma.tsume.check(SHORT_LINE_EQUAL, None, hash_mib=8, time=120)
    kept.pop("seconds"), fresh.pop("seconds")
    assert kept == fresh
    with pytest.raises(ValueError, match="hash_mib must be at least 1"):
        koma.tsume.Solver(hash_mib=0)
    assert repr(solver) == "TsumeSolver(hash_mib=8)"


def test_bad_input():
    with pytest.raises(koma.SfenError):
        koma.tsume.solve("9/9 b - 1")
    with pytest.raises(ValueError, match="time must be a positive"):
        koma.tsume.solve("4k4/9/4P4/9/9/9/9/9/9 b G 1", time=-1)
    with pytest.raises(ValueError):
        koma.tsume.check("4k4/9/4P4/9/9/9/9/9/9 b G 1", ["zz"])
    # Legal, but White, who defends (not to move), has no king: refused, not "no mate".
    for call in (koma.tsume.solve, koma.tsume.check):
        with pytest.raises(ValueError, match="white, who defends, has no king"):
            call("9/9/9/9/9/9/9/9/4K4 b G 1")
