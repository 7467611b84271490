// Board and records: load a KIF/KI2/CSA/USI/SFEN record (paste or file), step through its moves
// and variations, flip the board, copy the position or the record, and see the legal moves.

import { request } from "./api";
import { Board } from "./board";
import { t, Key } from "./i18n";
import { parseSfen, squareIndex } from "./sfen";
import { Message, copy, h } from "./ui";

interface MoveNode {
  ply: number;
  usi: string;
  name: string;
  sfen: string;
  comments: string[];
  time_ms: number | null;
  variations: LineView[];
}
interface LineView {
  moves: MoveNode[];
  end: string | null;
}
interface RecordView {
  format: string;
  headers: [string, string][];
  initial_sfen: string;
  comments: string[];
  main: LineView;
  warnings: { code: string; line?: number; message: string; excerpt?: string }[];
}
interface PositionView {
  sfen: string;
  in_check: boolean;
  status: string;
  legal_moves: { usi: string; name: string }[];
}

const SAMPLE = `先手：先手
後手：後手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２六歩(27)
   4 ８四歩(83)
   5 ２五歩(26)
   6 ８五歩(84)
   7 ７八金(69)
   8 ３二金(41)
   9 ２四歩(25)
  10 同　歩(23)
  11 同　飛(28)
  12 ２三歩打
`;

/** A file's bytes in base64: the server detects their encoding (UTF-8, Shift-JIS, EUC-JP). */
function base64(bytes: ArrayBuffer): string {
  const u8 = new Uint8Array(bytes);
  let s = "";
  for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
  return btoa(s);
}

/** What the page sends for a record: pasted text, or a file's bytes and name. */
type Input = { text: string } | { base64: string; name: string };

export async function mountRecords(root: HTMLElement): Promise<void> {
  const text = h("textarea", { id: "record-text", rows: 8, spellcheck: "false", "aria-label": t("r_paste"), placeholder: t("r_paste") });
  const file = h("input", { type: "file", id: "record-file", accept: ".kif,.kifu,.ki2,.ki2u,.csa,.usi,.sfen,.bod,.txt" });
  const load = h("button", { type: "button", id: "record-load", class: "primary" }, t("r_load"));
  const msg = new Message();
  const board = new Board({ label: t("nav_board"), hands: true });
  const plyLabel = h("span", { id: "record-ply", class: "position" });
  const nav = (key: Key, id: string, fn: () => void) => h("button", { type: "button", id, onclick: fn }, t(key));
  const moveList = h("ol", { class: "moves", id: "record-moves" });
  const variations = h("div", { class: "variations", id: "record-variations" });
  const comments = h("div", { class: "comments" });
  const legal = h("details", { class: "legal", id: "record-legal" });
  const headers = h("dl", { class: "headers" });
  const status = h("div", { class: "status", id: "record-status" });
  const copySfen = h("button", { type: "button", id: "copy-sfen" }, t("r_copy_sfen"));
  const copyKif = h("button", { type: "button", id: "copy-kif" }, t("r_copy_kif"));
  const copyCsa = h("button", { type: "button", id: "copy-csa" }, t("r_copy_csa"));

  let rec: RecordView | null = null;
  let source: Input = { text: "" };
  let line: MoveNode[] = [];
  let end: string | null = null;
  let index = 0;
  let flip = false;
  const groups = new Map<MoveNode, MoveNode[][]>();

  root.append(
    h("h1", {}, t("nav_board")),
    h("div", { class: "loader" }, text, h("div", { class: "controls" }, load, h("label", { class: "field" }, h("span", {}, t("r_file")), file))),
    msg.el,
    h(
      "div",
      { class: "layout" },
      h(
        "div",
        {},
        board.el,
        h(
          "div",
          { class: "pager" },
          nav("r_first", "record-first", () => go(0)),
          nav("r_prev", "record-prev", () => go(index - 1)),
          plyLabel,
          nav("r_next", "record-next", () => go(index + 1)),
          nav("r_last", "record-last", () => go(line.length)),
          nav("flip", "record-flip", () => {
            flip = !flip;
            render();
          }),
        ),
        h("p", { class: "hint" }, t("r_keys")),
      ),
      h("aside", { class: "panel" }, headers, status, h("h2", {}, t("r_moves")), moveList, variations, comments, legal, h("div", { class: "copy-row" }, copySfen, copyKif, copyCsa)),
    ),
  );

  function addGroups(l: LineView): void {
    l.moves.forEach((m, i) => {
      const conts = [l.moves.slice(i), ...m.variations.map((v) => v.moves)].filter((c) => c.length > 0);
      for (const c of conts) groups.set(c[0], conts);
      for (const v of m.variations) addGroups(v);
    });
  }

  function sfenAt(k: number): string {
    return k === 0 ? rec!.initial_sfen : line[k - 1].sfen;
  }

  function go(k: number): void {
    if (!rec) return;
    index = Math.max(0, Math.min(line.length, k));
    render();
  }

  let legalSeq = 0;
  async function showLegal(sfen: string): Promise<void> {
    const seq = ++legalSeq;
    try {
      const p = await request<PositionView>("POST", "/api/position", { sfen });
      if (seq !== legalSeq) return;
      const st = p.status !== "ongoing" ? t(`r_status_${p.status}` as Key) : p.in_check ? t("r_check") : "";
      status.textContent = st;
      status.dataset.status = p.status;
      legal.replaceChildren(h("summary", {}, t("r_legal", p.legal_moves.length)), h("div", { class: "legal-list" }, p.legal_moves.map((m) => m.name).join(" ")));
      legal.dataset.count = String(p.legal_moves.length);
    } catch (e) {
      msg.error(e);
    }
  }

  function render(): void {
    if (!rec) return;
    const sfen = sfenAt(index);
    const pos = parseSfen(sfen);
    const marks = new Map<number, string[]>();
    if (index > 0) {
      const u = line[index - 1].usi;
      if (u[1] !== "*") marks.set(squareIndex(u.slice(0, 2)), ["last"]);
      marks.set(squareIndex(u.slice(2, 4)), ["last"]);
    }
    board.set({ cells: pos.cells, black: pos.black, white: pos.white, flip, marks });
    board.el.dataset.sfen = sfen;
    plyLabel.textContent = index === 0 ? t("r_start") : `${index}: ${line[index - 1].name}`;
    plyLabel.dataset.ply = String(index);
    moveList.replaceChildren(
      h("li", { class: index === 0 ? "current" : "", value: 0 }, h("button", { type: "button", onclick: () => go(0) }, t("r_start"))),
      ...line.map((m, i) =>
        h(
          "li",
          { class: index === i + 1 ? "current" : "", value: i + 1 },
          h("button", { type: "button", onclick: () => go(i + 1) }, m.name + ((groups.get(m)?.length ?? 0) > 1 ? " +" : "")),
        ),
      ),
      ...(end ? [h("li", { class: "end" }, end)] : []),
    );
    moveList.querySelector(".current")?.scrollIntoView({ block: "nearest" });
    const alts = index < line.length ? groups.get(line[index]) ?? [] : [];
    variations.replaceChildren();
    if (alts.length > 1) {
      variations.append(
        h("h3", {}, t("r_variations")),
        ...alts.map((c, j) =>
          h(
            "button",
            {
              type: "button",
              class: c[0] === line[index] ? "current" : "",
              onclick: () => {
                line = line.slice(0, index).concat(c);
                go(index + 1);
              },
            },
            `${c[0].name}${j === 0 ? ` (${t("r_main")})` : ""}`,
          ),
        ),
      );
    }
    const cs = index === 0 ? rec.comments : line[index - 1].comments;
    comments.replaceChildren(...(cs.length ? [h("h3", {}, t("r_comments")), h("pre", {}, cs.join("\n"))] : []));
    void showLegal(sfen);
  }

  async function read(input: Input): Promise<void> {
    msg.clear();
    try {
      rec = await request<RecordView>("POST", "/api/record", input);
    } catch (e) {
      msg.error(e);
      return;
    }
    source = input;
    groups.clear();
    addGroups(rec.main);
    line = rec.main.moves;
    end = rec.main.end;
    headers.replaceChildren(...rec.headers.slice(0, 6).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
    if (rec.warnings.length) msg.show(rec.warnings.map((w) => w.message).join("; "), "note");
    else if ("name" in input) msg.show(`${input.name} (${rec.format})`, "note");
    go(0);
  }

  load.addEventListener("click", () => void read({ text: text.value }));
  file.addEventListener("change", async () => {
    const f = file.files?.[0];
    if (!f) return;
    text.value = "";
    await read({ base64: base64(await f.arrayBuffer()), name: f.name });
  });
  copySfen.addEventListener("click", () => rec && void copy(sfenAt(index), copySfen));
  for (const [button, to] of [[copyKif, "kif"], [copyCsa, "csa"]] as const) {
    button.addEventListener("click", async () => {
      try {
        const r = await request<{ text: string }>("POST", "/api/record/convert", { ...source, to });
        await copy(r.text, button);
      } catch (e) {
        msg.error(e);
      }
    });
  }
  document.addEventListener("keydown", (e) => {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT") return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => go(index - 1),
      ArrowRight: () => go(index + 1),
      Home: () => go(0),
      End: () => go(line.length),
      f: () => {
        flip = !flip;
        render();
      },
    };
    if (keys[e.key]) {
      keys[e.key]();
      e.preventDefault();
    }
  });

  const given = new URLSearchParams(location.search).get("sfen");
  text.value = given ?? SAMPLE;
  await read({ text: text.value });
}
