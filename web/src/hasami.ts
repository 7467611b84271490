// Hasami shogi (挟み将棋) against any of koma's agents: legal-move highlighting, the pieces each
// side captured, the lead of three made visible, game over and the record.

import { request } from "./api";
import { Board } from "./board";
import { lang, t } from "./i18n";
import { parseSfen, squareIndex, squareName } from "./sfen";
import { Message, copy, field, h, select } from "./ui";

interface GameView {
  id: string;
  agent: string;
  human: "b" | "w" | "both";
  position: string;
  side_to_move: "b" | "w";
  moves: string[];
  pieces: { black: number; white: number };
  captured: { black: number; white: number };
  lead: number;
  must_cut_lead: boolean;
  legal_moves: string[];
  last_move: string | null;
  last_captured: string[];
  outcome: "ongoing" | "black" | "white" | "draw";
  reason: string;
  record: string;
}

const REASONS_JA: Record<string, string> = {
  "the loser is down to four pieces": "相手の駒が4枚以下になった",
  "a lead of three survived the reply": "3枚差のリードが相手の手番を越えて続いた",
  "the loser has no legal move": "相手に指す手がない",
  "the ply limit": "手数の上限",
  "the same position a third time": "同一局面3回",
};

export async function mountHasami(root: HTMLElement): Promise<void> {
  const info = await request<{ hasami_agents: string[] }>("GET", "/api/info").catch(() => ({ hasami_agents: ["random"] }));
  const agentSel = select(info.hasami_agents.map((a) => [a, a]), localStorage.getItem("koma-hasami-agent") ?? "random");
  agentSel.id = "hasami-agent";
  const colourSel = select([["b", `☗ ${t("black")}`], ["w", `☖ ${t("white")}`]], "b");
  colourSel.id = "hasami-colour";
  const newButton = h("button", { type: "button", id: "hasami-new", class: "primary" }, t("h_new"));
  const msg = new Message();
  const status = h("div", { class: "status", id: "hasami-status" });
  const counts = h("div", { class: "counts" });
  const leadBox = h("div", { class: "lead" });
  const over = h("div", { class: "game-over", id: "hasami-over", hidden: true });
  const recordText = h("textarea", { id: "hasami-record", readonly: true, rows: 3, "aria-label": t("h_record") });
  const copyButton = h("button", { type: "button" }, t("h_copy"));
  copyButton.addEventListener("click", () => copy(recordText.value, copyButton));

  let game: GameView | null = null;
  let selected: number | null = null;
  let busy = false;

  const board = new Board({ label: t("nav_hasami"), onSquare: (i) => void clickSquare(i) });

  root.append(
    h("h1", {}, t("nav_hasami")),
    h("div", { class: "controls" }, field(t("h_agent"), agentSel), field(t("h_colour"), colourSel), newButton),
    msg.el,
    h(
      "div",
      { class: "layout" },
      board.el,
      h(
        "aside",
        { class: "panel" },
        status,
        over,
        counts,
        leadBox,
        h("p", { class: "hint" }, t("h_select_hint")),
        h("p", { class: "hint" }, t("h_lead_rule")),
        h("h2", {}, t("h_record")),
        recordText,
        copyButton,
      ),
    ),
  );

  const humanToMove = () => !!game && game.outcome === "ongoing" && (game.human === "both" || game.human === game.side_to_move);

  function render(): void {
    if (!game) return;
    const [boardPart, side] = game.position.split(" ");
    const pos = parseSfen(`${boardPart} ${side}`);
    // White's stones are written と, Black's 歩.
    for (const c of pos.cells) if (c && !c.black) c.promoted = true;
    const marks = new Map<number, string[]>();
    const add = (i: number, c: string) => marks.set(i, [...(marks.get(i) ?? []), c]);
    if (game.last_move) {
      add(squareIndex(game.last_move.slice(0, 2)), "last");
      add(squareIndex(game.last_move.slice(2, 4)), "last");
    }
    for (const s of game.last_captured) add(squareIndex(s), "captured");
    if (selected !== null) {
      add(selected, "selected");
      const from = squareName(selected);
      for (const m of game.legal_moves) if (m.startsWith(from)) add(squareIndex(m.slice(2, 4)), "target");
    } else if (humanToMove()) {
      for (const m of game.legal_moves) add(squareIndex(m.slice(0, 2)), "movable");
    }
    board.set({ cells: pos.cells, flip: game.human === "w", marks });

    const mover = game.side_to_move === "b" ? `☗${t("black")}` : `☖${t("white")}`;
    if (game.outcome !== "ongoing") {
      status.dataset.state = "over";
      status.textContent = "";
      const reason = lang() === "ja" ? REASONS_JA[game.reason] ?? game.reason : game.reason;
      over.hidden = false;
      over.replaceChildren(
        h("strong", {}, game.outcome === "draw" ? t("h_draw", reason) : t("h_win", game.outcome === "black" ? `☗${t("black")}` : `☖${t("white")}`, reason)),
        h("button", { type: "button", class: "primary", id: "hasami-restart", onclick: () => void newGame() }, t("h_new")),
      );
    } else {
      over.hidden = true;
      status.dataset.state = busy ? "thinking" : humanToMove() ? "human" : "agent";
      status.textContent = `${t("h_ply", game.moves.length + 1)} · ${mover} · ${busy ? t("h_thinking", game.agent) : humanToMove() ? t("h_your_move") : ""}`;
    }
    counts.replaceChildren(
      h(
        "table",
        {},
        h("tr", {}, h("th", {}), h("th", {}, t("h_on_board")), h("th", {}, t("h_captured"))),
        h("tr", {}, h("th", {}, `☗${t("black")} 歩`), h("td", { id: "count-black" }, String(game.pieces.black)), h("td", { id: "captured-black" }, String(game.captured.black))),
        h("tr", {}, h("th", {}, `☖${t("white")} と`), h("td", { id: "count-white" }, String(game.pieces.white)), h("td", { id: "captured-white" }, String(game.captured.white))),
      ),
    );
    const lead = game.lead;
    const meter = h("div", { class: "meter", role: "meter", "aria-valuemin": -9, "aria-valuemax": 9, "aria-valuenow": lead, "aria-label": t("h_lead") });
    for (let d = -4; d <= 4; d++) {
      const cls = ["tick", d === 0 ? "zero" : "", Math.abs(d) >= 3 ? "danger" : "", (lead > 0 && d > 0 && d <= lead) || (lead < 0 && d < 0 && d >= lead) ? "on" : ""];
      meter.append(h("span", { class: cls.join(" ").trim() }, d === 0 ? "0" : d > 0 ? `☗${d}` : `☖${-d}`));
    }
    const leader = lead > 0 ? `☗${t("black")}` : `☖${t("white")}`;
    const other = lead > 0 ? `☖${t("white")}` : `☗${t("black")}`;
    leadBox.replaceChildren(
      h("div", {}, `${t("h_lead")}: `, lead === 0 ? t("h_even") : `${leader} +${Math.abs(lead)}`),
      meter,
      game.must_cut_lead ? h("div", { class: "warning", id: "hasami-must-cut" }, t("h_must_cut", leader, Math.abs(lead), other)) : "",
    );
    recordText.value = game.record;
  }

  async function clickSquare(i: number): Promise<void> {
    if (!game || busy || !humanToMove()) return;
    const name = squareName(i);
    if (selected !== null) {
      const mv = squareName(selected) + name;
      if (game.legal_moves.includes(mv)) {
        selected = null;
        await play(mv);
        return;
      }
    }
    selected = game.legal_moves.some((m) => m.startsWith(name)) && selected !== i ? i : null;
    render();
  }

  async function play(mv: string): Promise<void> {
    if (!game) return;
    busy = true;
    render();
    try {
      game = await request<GameView>("POST", `/api/hasami/games/${game.id}/move`, { move: mv });
      msg.clear();
    } catch (e) {
      msg.error(e);
    }
    busy = false;
    render();
    await agentTurn();
  }

  async function agentTurn(): Promise<void> {
    while (game && game.outcome === "ongoing" && !humanToMove()) {
      busy = true;
      render();
      try {
        game = await request<GameView>("POST", `/api/hasami/games/${game.id}/ai`);
      } catch (e) {
        msg.error(e);
        busy = false;
        render();
        return;
      }
      busy = false;
      render();
    }
  }

  async function newGame(): Promise<void> {
    localStorage.setItem("koma-hasami-agent", agentSel.value);
    selected = null;
    status.dataset.state = "loading";
    over.hidden = true; // the last game's banner goes at once, not when the new game arrives
    try {
      game = await request<GameView>("POST", "/api/hasami/games", { agent: agentSel.value, human: colourSel.value });
      localStorage.setItem("koma-hasami-game", game.id);
      msg.clear();
    } catch (e) {
      msg.error(e);
      return;
    }
    render();
    await agentTurn();
  }

  newButton.addEventListener("click", () => void newGame());
  const saved = localStorage.getItem("koma-hasami-game");
  if (saved) {
    try {
      game = await request<GameView>("GET", `/api/hasami/games/${saved}`);
      agentSel.value = game.agent;
      colourSel.value = game.human === "w" ? "w" : "b";
      render();
      await agentTurn();
      return;
    } catch {
      localStorage.removeItem("koma-hasami-game");
    }
  }
  await newGame();
}
