// Tsume (詰将棋): paste a problem or set one up on the board editor (drag pieces, hands, the
// remaining pieces to the defender), solve or check it as a job with progress and cancel, step
// through the answer with its Japanese notation, see the verdict, share the problem as a URL.

import { Job, ended, followJob, request } from "./api";
import { Board, DragSource, DragTarget } from "./board";
import { lang, t } from "./i18n";
import { HAND_KINDS, Position, handKanji, kanji, parseSfen, squareIndex, toSfen } from "./sfen";
import { Message, copy, field, h, select } from "./ui";

interface MoveView {
  usi: string;
  name: string;
  sfen: string;
}
interface Finding {
  kind: string;
  ply: number;
  text_en: string;
  text_ja: string;
}
interface TsumeResult {
  // "no_mate" (and leftover "-") in results stored by koma before 2026-11-23.
  outcome: "mate" | "nomate" | "no_mate" | "unknown";
  reason?: string;
  length?: number;
  moves?: MoveView[];
  leftover?: string;
  optimal?: boolean;
  verdict?: string;
  findings?: Finding[];
  expected_agrees?: boolean | null;
  expected_differs_at?: number | null;
  nodes: number;
  elapsed_secs: number;
}

/** Pieces of one full set, kings aside (they never go to a hand). */
const FULL_SET: Record<string, number> = { R: 2, B: 2, G: 4, S: 4, N: 4, L: 4, P: 18 };
const EMPTY_SFEN = "9/9/9/9/9/9/9/9/9 b - 1";
const PROMOTABLE = "PLNSBR";

export async function mountTsume(root: HTMLElement): Promise<void> {
  const input = h("textarea", { id: "tsume-input", rows: 4, spellcheck: "false", "aria-label": t("t_input"), placeholder: t("t_input") });
  const setUp = h("button", { type: "button", id: "tsume-set" }, t("t_set"));
  const solveButton = h("button", { type: "button", id: "tsume-solve", class: "primary" }, t("t_solve"));
  const checkButton = h("button", { type: "button", id: "tsume-check" }, t("t_check"));
  const cancelButton = h("button", { type: "button", id: "tsume-cancel", disabled: true }, t("t_cancel"));
  const restButton = h("button", { type: "button", id: "tsume-rest" }, t("t_rest"));
  const clearButton = h("button", { type: "button", id: "tsume-clear" }, t("t_clear"));
  const shareButton = h("button", { type: "button", id: "tsume-share" }, t("t_share"));
  const sideSel = select([["b", `☗${t("black")}`], ["w", `☖${t("white")}`]], "b");
  const msg = new Message();
  const progress = h("div", { class: "status", id: "tsume-progress" });
  const verdict = h("div", { class: "verdict", id: "tsume-verdict" });
  const answerList = h("ol", { class: "moves", id: "tsume-answer" });
  const findings = h("ul", { class: "findings", id: "tsume-findings" });
  const sfenLine = h("code", { class: "sfen", id: "tsume-sfen" });
  const palette = h("div", { class: "palette", id: "tsume-palette", role: "toolbar", "aria-label": t("t_palette") });

  let pos: Position = parseSfen(EMPTY_SFEN);
  let expected: string[] | null = null;
  let answer: MoveView[] | null = null;
  let step = 0;
  let picked: { kind: string; black: boolean } | { square: number } | { hand: "black" | "white"; kind: string } | null = null;
  let stopFollowing: (() => void) | null = null;
  let running: number | null = null;

  const board = new Board({
    label: t("nav_tsume"),
    hands: true,
    onDrag: (from, to) => drag(from, to),
    onSquare: (i) => clickSquare(i),
    onHand: (side, kind) => {
      if (answer) return;
      picked = { hand: side, kind };
      render();
    },
    onAlt: (i) => turnOver(i),
  });

  for (const kind of ["K", ...HAND_KINDS]) {
    const b = h("button", { type: "button", class: "hand-piece", "data-kind": kind, "aria-label": kanji({ kind, promoted: false, black: true }) }, handKanji(kind === "K" ? "K" : kind));
    if (kind === "K") b.textContent = "玉";
    b.addEventListener("click", () => {
      picked = { kind, black: sideSel.value === "b" };
      render();
    });
    palette.append(b);
  }

  root.append(
    h("h1", {}, t("nav_tsume")),
    h("div", { class: "loader" }, input, h("div", { class: "controls" }, setUp, shareButton)),
    msg.el,
    h(
      "div",
      { class: "layout" },
      h(
        "div",
        {},
        board.el,
        h("div", { class: "controls editor" }, palette, field(t("black") + "/" + t("white"), sideSel), restButton, clearButton),
        h("p", { class: "hint" }, t("t_editor_help")),
        sfenLine,
      ),
      h(
        "aside",
        { class: "panel" },
        h("div", { class: "controls" }, solveButton, checkButton, cancelButton),
        progress,
        verdict,
        h("h2", {}, t("t_answer")),
        answerList,
        findings,
      ),
    ),
  );

  function shown(): Position {
    return answer && step > 0 ? parseSfen(answer[step - 1].sfen) : pos;
  }

  function render(): void {
    const p = shown();
    const marks = new Map<number, string[]>();
    if (answer && step > 0) {
      const u = answer[step - 1].usi;
      if (u[1] !== "*") marks.set(squareIndex(u.slice(0, 2)), ["last"]);
      marks.set(squareIndex(u.slice(2, 4)), ["last"]);
    }
    if (picked && "square" in picked) marks.set(picked.square, ["selected"]);
    board.set({
      cells: p.cells,
      black: p.black,
      white: p.white,
      marks,
      handSelected: picked && "hand" in picked ? { side: picked.hand, kind: picked.kind } : null,
    });
    board.el.dataset.sfen = toSfen(p);
    const sfen = toSfen(pos);
    sfenLine.textContent = sfen;
    sfenLine.dataset.sfen = sfen;
    for (const b of palette.querySelectorAll<HTMLButtonElement>("button")) {
      b.classList.toggle("selected", !!picked && "kind" in picked && !("hand" in picked) && picked.kind === b.dataset.kind);
    }
    answerList.replaceChildren(
      ...(answer ?? []).map((m, i) =>
        h("li", { class: step === i + 1 ? "current" : "" }, h("button", { type: "button", onclick: () => go(i + 1) }, m.name)),
      ),
    );
  }

  function edited(): void {
    answer = null;
    expected = null;
    step = 0;
    verdict.textContent = "";
    findings.replaceChildren();
    history.replaceState(null, "", `/tsume?sfen=${encodeURIComponent(toSfen(pos))}`);
    render();
  }

  function go(k: number): void {
    if (!answer) return;
    step = Math.max(0, Math.min(answer.length, k));
    render();
  }

  function addHand(side: "black" | "white", kind: string): void {
    if (kind === "K") return;
    const hand = side === "black" ? pos.black : pos.white;
    hand.set(kind, (hand.get(kind) ?? 0) + 1);
  }

  function takeHand(side: "black" | "white", kind: string): boolean {
    const hand = side === "black" ? pos.black : pos.white;
    const n = hand.get(kind) ?? 0;
    if (n <= 0) return false;
    hand.set(kind, n - 1);
    return true;
  }

  function drag(from: DragSource, to: DragTarget): void {
    if (answer) return;
    let piece = null;
    if ("square" in from) {
      piece = pos.cells[from.square];
      pos.cells[from.square] = null;
    } else if (takeHand(from.hand, from.kind)) {
      piece = { kind: from.kind, promoted: false, black: from.hand === "black" };
    }
    if (!piece) return;
    if ("square" in to) {
      const there = pos.cells[to.square];
      if (there && there.kind !== "K") addHand(piece.black ? "black" : "white", there.kind);
      pos.cells[to.square] = piece;
    } else if ("hand" in to) {
      addHand(to.hand, piece.kind);
    }
    picked = null;
    edited();
  }

  function clickSquare(i: number): void {
    if (answer) {
      return;
    }
    if (!picked) {
      if (pos.cells[i]) picked = { square: i };
      render();
      return;
    }
    if ("square" in picked) {
      if (picked.square !== i) drag({ square: picked.square }, { square: i });
      picked = null;
    } else if ("hand" in picked) {
      drag({ hand: picked.hand, kind: picked.kind }, { square: i });
    } else {
      pos.cells[i] = { kind: picked.kind, promoted: false, black: picked.black };
      picked = null;
      edited();
      return;
    }
    render();
  }

  function turnOver(i: number): void {
    const p = pos.cells[i];
    if (answer || !p) return;
    // 先手 → 先手成 → 後手 → 後手成 → 先手 (kings and golds only change sides).
    if (!p.promoted && PROMOTABLE.includes(p.kind)) p.promoted = true;
    else {
      p.promoted = false;
      p.black = !p.black;
    }
    edited();
  }

  function restToDefender(): void {
    const left: Record<string, number> = { ...FULL_SET };
    for (const c of pos.cells) if (c && c.kind in left) left[c.kind]--;
    for (const [k, n] of pos.black) left[k] -= n;
    pos.white = new Map();
    for (const k of HAND_KINDS) if (left[k] > 0) pos.white.set(k, left[k]);
    edited();
  }

  async function load(text: string): Promise<void> {
    msg.clear();
    try {
      const rec = await request<{ initial_sfen: string; main: { moves: { usi: string }[] } }>("POST", "/api/record", { text });
      pos = parseSfen(rec.initial_sfen);
      edited();
      // A problem file with its answer: the answer is checked against the solver's.
      expected = rec.main.moves.length ? rec.main.moves.map((m) => m.usi) : null;
    } catch (e) {
      msg.error(e);
    }
  }

  function showResult(r: TsumeResult): void {
    const ja = lang() === "ja";
    const secs = r.elapsed_secs.toFixed(2);
    let v: string;
    if (r.outcome === "mate") v = ja ? `${r.length}手詰` : `Mate in ${r.length}`;
    else if (r.outcome === "nomate" || r.outcome === "no_mate") v = ja ? "不詰" : "No mate";
    else v = ja ? `不明（${r.reason}）` : `Unknown (${r.reason})`;
    const verdicts: Record<string, [string, string]> = { sound: ["sound", "完全作"], flawed: ["flawed", "不完全作"] };
    if (r.verdict && verdicts[r.verdict]) v += ` — ${verdicts[r.verdict][ja ? 1 : 0]}`;
    if (r.leftover && r.leftover !== "-") v += ja ? `、駒余り ${r.leftover}` : `, leftover pieces ${r.leftover}`;
    if (r.expected_agrees === false) v += ja ? `（棋譜の解答と${r.expected_differs_at}手目で異なる）` : ` (the recorded answer differs at ply ${r.expected_differs_at})`;
    verdict.textContent = v;
    verdict.dataset.outcome = r.outcome;
    progress.textContent = t("t_progress", r.nodes.toLocaleString(), secs);
    answer = r.moves ?? null;
    step = 0;
    findings.replaceChildren(...(r.findings ?? []).map((f) => h("li", { "data-kind": f.kind }, ja ? f.text_ja : f.text_en)));
    render();
  }

  async function start(mode: "solve" | "check"): Promise<void> {
    msg.clear();
    stopFollowing?.();
    answer = null;
    verdict.textContent = "";
    findings.replaceChildren();
    try {
      const body: Record<string, unknown> = { sfen: toSfen(pos), mode };
      if (mode === "check" && expected) body.expected = expected;
      const job = await request<Job>("POST", "/api/tsume", body);
      running = job.id;
      cancelButton.disabled = false;
      progress.textContent = t(`state_${job.state}`);
      stopFollowing = followJob(job.id, (j) => {
        const p = j.progress as { nodes?: number; elapsed_secs?: number } | null;
        if (j.state === "running" && p?.nodes !== undefined) progress.textContent = t("t_progress", p.nodes.toLocaleString(), (p.elapsed_secs ?? 0).toFixed(1));
        else if (j.state === "queued") progress.textContent = t("state_queued");
        if (j.state === "done" && j.result) showResult(j.result as unknown as TsumeResult);
        if (j.state === "failed" || j.state === "cancelled") progress.textContent = `${t(`state_${j.state}`)}: ${j.error?.message ?? ""}`;
        if (ended(j)) {
          cancelButton.disabled = true;
          running = null;
        }
      });
    } catch (e) {
      msg.error(e);
    }
  }

  setUp.addEventListener("click", () => void load(input.value));
  solveButton.addEventListener("click", () => void start("solve"));
  checkButton.addEventListener("click", () => void start("check"));
  cancelButton.addEventListener("click", async () => {
    if (running === null) return;
    try {
      await request("POST", `/api/jobs/${running}/cancel`);
    } catch (e) {
      msg.error(e);
    }
  });
  restButton.addEventListener("click", restToDefender);
  clearButton.addEventListener("click", () => {
    pos = parseSfen(EMPTY_SFEN);
    edited();
  });
  shareButton.addEventListener("click", () => void copy(`${location.origin}/tsume?sfen=${encodeURIComponent(toSfen(pos))}`, shareButton));
  document.addEventListener("keydown", (e) => {
    const tag = (e.target as HTMLElement).tagName;
    if (!answer || tag === "TEXTAREA" || tag === "INPUT") return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(answer.length);
    else return;
    e.preventDefault();
  });

  const given = new URLSearchParams(location.search).get("sfen");
  if (given) {
    input.value = given;
    await load(given);
  } else render();
}
