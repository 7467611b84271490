var __defProp = Object.defineProperty;
var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);

// src/api.ts
var ApiFailure = class extends Error {
  constructor(status, code, message, field2, line, column) {
    super(message);
    __publicField(this, "status", status);
    __publicField(this, "code", code);
    __publicField(this, "field", field2);
    __publicField(this, "line", line);
    __publicField(this, "column", column);
  }
};
var session = localStorage.getItem("koma-session");
async function ensureSession() {
  if (session) return session;
  const r = await request("POST", "/api/session");
  session = r.session;
  localStorage.setItem("koma-session", session);
  return session;
}
async function request(method, path, body) {
  const headers = {};
  if (session) headers["X-Koma-Session"] = session;
  if (body !== void 0) headers["Content-Type"] = "application/json";
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === void 0 ? void 0 : JSON.stringify(body) });
  } catch (e) {
    throw new ApiFailure(0, "network", `the server did not answer (${e}); is koma serve running?`);
  }
  const text = await resp.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiFailure(resp.status, "bad_answer", `the server answered ${resp.status} with no JSON`);
  }
  if (!resp.ok) {
    const e = json?.error;
    throw new ApiFailure(resp.status, e?.code ?? "error", e?.message ?? `HTTP ${resp.status}`, e?.field, e?.line, e?.column);
  }
  return json;
}
function ended(j) {
  return j.state === "done" || j.state === "failed" || j.state === "cancelled";
}
function followJob(id, onUpdate) {
  const source = new EventSource(`/api/jobs/${id}/events`);
  const handle = (ev) => onUpdate(JSON.parse(ev.data));
  source.addEventListener("progress", handle);
  source.addEventListener("end", (ev) => {
    handle(ev);
    source.close();
  });
  return () => source.close();
}

// src/i18n.ts
var dict = {
  title: ["koma workbench", "koma ワークベンチ"],
  nav_board: ["Board & records", "盤・棋譜"],
  nav_tsume: ["Tsume", "詰将棋"],
  nav_hasami: ["Hasami shogi", "挟み将棋"],
  nav_place: ["Placement", "駒並べ"],
  lang_switch: ["日本語", "English"],
  home_intro: [
    "A shogi computing workbench: look at records and positions, solve mate problems, play hasami shogi against koma's agents, and run the non-attacking placement puzzle.",
    "将棋の計算のためのワークベンチ：棋譜と局面を見る、詰将棋を解く、挟み将棋でkomaのエージェントと対局する、利かずの駒並べを解く。"
  ],
  black: ["Black", "先手"],
  white: ["White", "後手"],
  hand: ["Hand", "持駒"],
  none: ["none", "なし"],
  flip: ["Flip board", "盤を反転"],
  // hasami
  h_agent: ["Opponent", "相手"],
  h_colour: ["You play", "あなたの手番"],
  h_new: ["New game", "新しい対局"],
  h_your_move: ["Your move", "あなたの番です"],
  h_thinking: ["{0} is thinking…", "{0} が考えています…"],
  h_captured: ["Captured", "取った駒"],
  h_on_board: ["On the board", "盤上"],
  h_lead: ["Lead", "リード"],
  h_even: ["even", "互角"],
  h_must_cut: [
    "{0} leads by {1}: {2} must cut the lead with this move or lose.",
    "{0}が{1}枚リード：{2}はこの手でリードを縮めないと負けです。"
  ],
  h_lead_rule: [
    "A lead of three that survives the opponent's reply wins; five pieces lost loses.",
    "3枚差が相手の手番を越えて続けば勝ち。5枚取られたら負け。"
  ],
  h_win: ["{0} wins: {1}.", "{0}の勝ち：{1}。"],
  h_draw: ["Draw: {0}.", "引き分け：{0}。"],
  h_record: ["Game record", "棋譜"],
  h_copy: ["Copy", "コピー"],
  h_copied: ["Copied", "コピーしました"],
  h_ply: ["Move {0}", "{0}手目"],
  h_select_hint: [
    "Click one of your pieces, then a highlighted square (or use the arrow keys and Enter).",
    "自分の駒をクリックし、次に印の付いたマスをクリック（矢印キーとEnterでも操作できます）。"
  ],
  // placement
  p_pieces: ["Pieces", "駒"],
  p_dir: ["Directions", "向き"],
  p_one: ["one-directional", "一方向"],
  p_both: ["two-directional", "双方向"],
  p_mode: ["Run", "実行"],
  p_count: ["count", "数える"],
  p_first: ["first", "一つ見つける"],
  p_all: ["all (browse)", "すべて（閲覧）"],
  p_limit: ["Limit", "上限"],
  p_mirror: ["one per mirror pair", "左右反転を同一視"],
  p_start: ["Start", "開始"],
  p_jobs: ["Your runs", "実行一覧"],
  p_cancel: ["Cancel", "中止"],
  p_show: ["Show", "表示"],
  p_count_result: ["{0} placements ({1} up to mirror)", "{0}通り（左右反転を除き{1}通り）"],
  p_found: ["{0} found", "{0}個"],
  p_tasks: ["{0} / {1} tasks", "{0} / {1} タスク"],
  p_solution: ["Placement {0} of {1}", "{1}個中{0}番目"],
  p_prev: ["Previous", "前"],
  p_next: ["Next", "次"],
  p_mirror_view: ["Mirror view", "左右反転で表示"],
  p_no_solutions: ["No placements stored for this run.", "この実行には保存された配置がありません。"],
  p_valid: ["No piece attacks another.", "どの駒も他の駒に利いていません。"],
  p_help: [
    "Pieces with counts: P pawn, L lance, N knight, S silver, G gold, K king, R rook, B bishop, +P promoted, X stone. Two-directionally ^P fixes Black and p fixes White.",
    "駒と枚数：P歩 L香 N桂 S銀 G金 K玉 R飛 B角、+は成駒、Xは石。双方向では^Pで先手向き、pで後手向きに固定。"
  ],
  // jobs
  state_queued: ["queued", "待機中"],
  state_running: ["running", "実行中"],
  state_done: ["done", "完了"],
  state_failed: ["failed", "失敗"],
  state_cancelled: ["cancelled", "中止"],
  // records
  r_paste: ["Paste a record (KIF, KI2, CSA, USI or SFEN)", "棋譜を貼り付け（KIF・KI2・CSA・USI・SFEN）"],
  r_file: ["or open a file", "またはファイルを開く"],
  r_load: ["Load", "読み込む"],
  r_start: ["Start", "開始局面"],
  r_moves: ["Moves", "指し手"],
  r_variations: ["Variations here", "この手の変化"],
  r_main: ["main line", "本譜"],
  r_first: ["First", "最初"],
  r_prev: ["Back", "戻る"],
  r_next: ["Forward", "進む"],
  r_last: ["Last", "最後"],
  r_copy_sfen: ["Copy SFEN", "SFENをコピー"],
  r_copy_kif: ["Copy KIF", "KIFをコピー"],
  r_copy_csa: ["Copy CSA", "CSAをコピー"],
  r_legal: ["Legal moves ({0})", "合法手（{0}）"],
  r_check: ["in check", "王手"],
  r_status_checkmate: ["checkmate", "詰み"],
  r_status_no_legal_moves: ["no legal move", "指し手なし"],
  r_status_repetition_draw: ["repetition (千日手)", "千日手"],
  r_status_perpetual_check: ["perpetual check", "連続王手の千日手"],
  r_keys: ["Keys: ← → step, Home/End, F flip.", "キー：← → で一手ずつ、Home/End、Fで反転。"],
  r_comments: ["Comments", "コメント"],
  // tsume
  t_input: ["Problem (SFEN, KIF, CSA or BOD)", "問題（SFEN・KIF・CSA・BOD）"],
  t_set: ["Set up", "盤面に反映"],
  t_solve: ["Solve", "解く"],
  t_check: ["Check", "検討"],
  t_cancel: ["Cancel", "中止"],
  t_rest: ["Remaining pieces to the defender", "残り駒を玉方へ"],
  t_clear: ["Clear board", "盤面を消去"],
  t_share: ["Share link", "共有リンク"],
  t_editor_help: [
    "Drag pieces to move them, off the board to remove them; click a square or a hand piece, then a square to place; right-click (or R) turns a piece over or around.",
    "駒をドラッグして移動、盤外へで削除。マスや持駒をクリックしてから置くマスをクリック。右クリック（またはR）で成り・向きを変更。"
  ],
  t_palette: ["Pieces", "駒箱"],
  t_answer: ["Answer", "解答"],
  t_progress: ["{0} nodes, {1} s", "{0}局面、{1}秒"],
  error: ["Error", "エラー"]
};
var current = (() => {
  const saved = localStorage.getItem("koma-lang");
  if (saved === "en" || saved === "ja") return saved;
  return navigator.language.startsWith("ja") ? "ja" : "en";
})();
function lang() {
  return current;
}
function setLang(l) {
  localStorage.setItem("koma-lang", l);
  current = l;
  location.reload();
}
function t(key, ...args) {
  const text = dict[key][current === "en" ? 0 : 1];
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

// src/ui.ts
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === void 0 || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = String(v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.append(c);
  return el;
}
var Message = class {
  constructor() {
    __publicField(this, "el", h("div", { class: "message", role: "status", "aria-live": "polite" }));
  }
  show(text, kind = "note") {
    this.el.textContent = text;
    this.el.className = `message ${kind}`;
  }
  error(e) {
    if (e instanceof ApiFailure) {
      const at = e.line ? ` (line ${e.line}${e.column ? `, column ${e.column}` : ""})` : "";
      this.show(`${t("error")}: ${e.message}${at}`, "error");
    } else {
      this.show(`${t("error")}: ${e instanceof Error ? e.message : String(e)}`, "error");
    }
  }
  clear() {
    this.el.textContent = "";
    this.el.className = "message";
  }
};
async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = h("textarea", {}, text);
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  const was = button.textContent;
  button.textContent = t("h_copied");
  setTimeout(() => button.textContent = was, 1200);
}
function field(label, control) {
  return h("label", { class: "field" }, h("span", {}, label), control);
}
function select(options, value) {
  const s = h("select");
  for (const [v, l] of options) s.append(h("option", { value: v, selected: v === value }, l));
  return s;
}

// src/sfen.ts
var HAND_KINDS = ["R", "B", "G", "S", "N", "L", "P"];
var RANKS = "abcdefghi";
function squareName(i) {
  return `${9 - i % 9}${RANKS[Math.floor(i / 9)]}`;
}
function squareIndex(name) {
  const file = Number(name[0]);
  const rank = RANKS.indexOf(name[1]);
  if (!(file >= 1 && file <= 9) || rank < 0 || name.length !== 2) return -1;
  return rank * 9 + (9 - file);
}
function parseSfen(sfen) {
  const [board, side = "b", hands = "-", ply = "1"] = sfen.trim().split(/\s+/);
  const rows = board.split("/");
  if (rows.length !== 9) throw new Error(`an SFEN board has 9 ranks, this one ${rows.length}`);
  const cells = [];
  for (const row of rows) {
    let n = 0;
    let promoted = false;
    for (const ch of row) {
      if (ch === "+") {
        promoted = true;
        continue;
      }
      if (/[1-9]/.test(ch)) {
        for (let k = 0; k < Number(ch); k++) cells.push(null);
        n += Number(ch);
      } else {
        cells.push({ kind: ch.toUpperCase(), promoted, black: ch === ch.toUpperCase() });
        n += 1;
      }
      promoted = false;
    }
    if (n !== 9) throw new Error(`SFEN rank "${row}" has ${n} squares, not 9`);
  }
  const black = /* @__PURE__ */ new Map();
  const white = /* @__PURE__ */ new Map();
  if (hands !== "-") {
    let count = "";
    for (const ch of hands) {
      if (/[0-9]/.test(ch)) {
        count += ch;
        continue;
      }
      const hand = ch === ch.toUpperCase() ? black : white;
      const k = ch.toUpperCase();
      hand.set(k, (hand.get(k) ?? 0) + (count ? Number(count) : 1));
      count = "";
    }
  }
  return { cells, side: side === "w" ? "w" : "b", black, white, ply: Number(ply) || 1 };
}
function toSfen(p) {
  const rows = [];
  for (let r = 0; r < 9; r++) {
    let row = "";
    let empty = 0;
    for (let c = 0; c < 9; c++) {
      const pc = p.cells[r * 9 + c];
      if (!pc) {
        empty++;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      const letter = pc.black ? pc.kind : pc.kind.toLowerCase();
      row += (pc.promoted ? "+" : "") + letter;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  let hands = "";
  for (const [hand, upper] of [[p.black, true], [p.white, false]]) {
    for (const k of HAND_KINDS) {
      const n = hand.get(k) ?? 0;
      if (n > 0) hands += (n > 1 ? n : "") + (upper ? k : k.toLowerCase());
    }
  }
  return `${rows.join("/")} ${p.side} ${hands || "-"} ${p.ply}`;
}
function mirror(cells) {
  const out = [];
  for (let r = 0; r < 9; r++) for (let c = 0; c < 9; c++) out.push(cells[r * 9 + (8 - c)]);
  return out;
}
var KANJI = {
  P: ["歩", "と"],
  L: ["香", "杏"],
  N: ["桂", "圭"],
  S: ["銀", "全"],
  G: ["金", "金"],
  B: ["角", "馬"],
  R: ["飛", "龍"],
  K: ["玉", "玉"],
  X: ["石", "石"]
};
function kanji(p) {
  if (p.kind === "K" && !p.black) return "王";
  return (KANJI[p.kind] ?? ["?", "?"])[p.promoted ? 1 : 0];
}
function handKanji(kind) {
  return (KANJI[kind] ?? ["?"])[0];
}

// src/board.ts
var W = 40;
var H = 44;
var LEFT = 6;
var TOP = 22;
var FILES = "１２３４５６７８９";
var RANKS2 = "一二三四五六七八九";
var Board = class {
  constructor(opts) {
    __publicField(this, "opts", opts);
    __publicField(this, "el");
    __publicField(this, "svg");
    __publicField(this, "handEls");
    __publicField(this, "state", { cells: Array(81).fill(null) });
    __publicField(this, "cursor", 40);
    __publicField(this, "drag", null);
    this.el = document.createElement("div");
    this.el.className = "board-wrap";
    this.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.svg.setAttribute("viewBox", `0 0 ${LEFT + 9 * W + 24} ${TOP + 9 * H + 6}`);
    this.svg.setAttribute("class", "board");
    this.svg.setAttribute("tabindex", "0");
    this.svg.setAttribute("role", "grid");
    this.svg.setAttribute("aria-label", opts.label);
    this.handEls = { black: this.makeHand("black"), white: this.makeHand("white") };
    if (opts.hands) this.el.append(this.handEls.white);
    this.el.append(this.svg);
    if (opts.hands) this.el.append(this.handEls.black);
    this.svg.addEventListener("click", (e) => {
      const sq = this.squareOf(e.target);
      if (sq !== null && !opts.onDrag) {
        this.cursor = this.state.flip ? 80 - sq : sq;
        opts.onSquare?.(sq);
      }
    });
    this.svg.addEventListener("contextmenu", (e) => {
      const sq = this.squareOf(e.target);
      if (sq !== null && opts.onAlt) {
        e.preventDefault();
        opts.onAlt(sq);
      }
    });
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.svg.addEventListener("focus", () => this.showCursor());
    this.svg.addEventListener("blur", () => this.showCursor());
    if (opts.onDrag) this.enableDrag();
  }
  /** Draws a new state. */
  set(state) {
    this.state = state;
    this.render();
  }
  /** The square under the keyboard cursor. */
  cursorSquare() {
    return this.state.flip ? 80 - this.cursor : this.cursor;
  }
  makeHand(side) {
    const d = document.createElement("div");
    d.className = `hand hand-${side}`;
    d.dataset.side = side;
    d.addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (b?.dataset.kind) this.opts.onHand?.(side, b.dataset.kind);
    });
    return d;
  }
  squareOf(target) {
    const g = target?.closest?.("[data-index]");
    return g ? Number(g.getAttribute("data-index")) : null;
  }
  key(e) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -9, ArrowDown: 9 };
    if (e.key in moves) {
      const d = moves[e.key];
      const c = this.cursor + d;
      if (c >= 0 && c < 81 && !(Math.abs(d) === 1 && Math.floor(c / 9) !== Math.floor(this.cursor / 9))) {
        this.cursor = c;
        this.showCursor();
      }
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === "Enter" || e.key === " ") {
      this.opts.onSquare?.(this.cursorSquare());
      e.preventDefault();
    } else if ((e.key === "r" || e.key === "R") && this.opts.onAlt) {
      this.opts.onAlt(this.cursorSquare());
      e.preventDefault();
    }
  }
  enableDrag() {
    this.svg.addEventListener("pointerdown", (e) => {
      const sq = this.squareOf(e.target);
      if (sq === null || e.button !== 0) return;
      this.drag = this.state.cells[sq] ? { square: sq } : null;
      if (!this.drag) this.opts.onSquare?.(sq);
    });
    for (const side of ["black", "white"]) {
      this.handEls[side].addEventListener("pointerdown", (e) => {
        const b = e.target.closest("button");
        if (b?.dataset.kind) this.drag = { hand: side, kind: b.dataset.kind };
      });
    }
    document.addEventListener("pointerup", (e) => {
      const from = this.drag;
      this.drag = null;
      if (!from) return;
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const sq = this.squareOf(under);
      const hand = under?.closest?.(".hand");
      if (sq !== null && "square" in from && from.square === sq) {
        this.opts.onSquare?.(sq);
        return;
      }
      if (sq !== null) this.opts.onDrag?.(from, { square: sq });
      else if (hand?.dataset.side) this.opts.onDrag?.(from, { hand: hand.dataset.side });
      else if ("square" in from) this.opts.onDrag?.(from, { off: true });
    });
  }
  showCursor() {
    const focused = document.activeElement === this.svg;
    const at = String(this.cursorSquare());
    for (const g of this.svg.querySelectorAll("[data-index]")) {
      g.classList.toggle("cursor", focused && g.dataset.index === at);
    }
  }
  render() {
    const s = this.state;
    const flip = !!s.flip;
    const parts = [];
    parts.push(`<rect class="wood" x="${LEFT - 4}" y="${TOP - 4}" width="${9 * W + 8}" height="${9 * H + 8}" rx="3"/>`);
    for (let c = 0; c < 9; c++) {
      const file = flip ? c + 1 : 9 - c;
      parts.push(`<text class="coord" x="${LEFT + c * W + W / 2}" y="${TOP - 8}">${FILES[file - 1]}</text>`);
    }
    for (let r = 0; r < 9; r++) {
      const rank = flip ? 8 - r : r;
      parts.push(`<text class="coord" x="${LEFT + 9 * W + 12}" y="${TOP + r * H + H / 2 + 5}">${RANKS2[rank]}</text>`);
    }
    for (let v = 0; v < 81; v++) {
      const i = flip ? 80 - v : v;
      const x = LEFT + v % 9 * W;
      const y = TOP + Math.floor(v / 9) * H;
      const marks = s.marks?.get(i) ?? [];
      const cls = ["sq", ...new Set(marks)].join(" ");
      const p = s.cells[i];
      const name = squareName(i);
      const label = p ? `${name} ${p.black ? t("black") : t("white")} ${kanji(p)}` : name;
      parts.push(
        `<g class="${cls}" data-index="${i}" data-sq="${name}"${p ? ` data-piece="${p.promoted ? "+" : ""}${p.black ? p.kind : p.kind.toLowerCase()}"` : ""} role="gridcell" aria-label="${label}">`
      );
      parts.push(`<rect class="cell" x="${x}" y="${y}" width="${W}" height="${H}"/>`);
      if (marks.includes("target")) parts.push(`<circle class="dot" cx="${x + W / 2}" cy="${y + H / 2}" r="6"/>`);
      if (p) parts.push(pieceSvg(p, x, y, flip));
      if (marks.includes("captured")) {
        parts.push(`<path class="cross" d="M${x + 10} ${y + 12}L${x + W - 10} ${y + H - 12}M${x + W - 10} ${y + 12}L${x + 10} ${y + H - 12}"/>`);
      }
      parts.push(`</g>`);
    }
    for (const [c, r] of [[3, 3], [6, 3], [3, 6], [6, 6]]) {
      parts.push(`<circle class="star" cx="${LEFT + c * W}" cy="${TOP + r * H}" r="2.5"/>`);
    }
    this.svg.innerHTML = parts.join("");
    this.showCursor();
    if (this.opts.hands) {
      this.renderHand("black", s.black ?? /* @__PURE__ */ new Map(), flip);
      this.renderHand("white", s.white ?? /* @__PURE__ */ new Map(), flip);
      this.el.classList.toggle("flipped", flip);
    }
  }
  renderHand(side, hand, flip) {
    const el = this.handEls[side];
    const mark = side === "black" ? "☗" : "☖";
    const sel = this.state.handSelected;
    let html = `<div class="hand-title">${mark}${t(side)}<br>${t("hand")}</div>`;
    let any = false;
    for (const k of HAND_KINDS) {
      const n = hand.get(k) ?? 0;
      if (n <= 0) continue;
      any = true;
      const selected = sel && sel.side === side && sel.kind === k ? " selected" : "";
      html += `<button type="button" class="hand-piece${selected}" data-kind="${k}" aria-label="${handKanji(k)} ${n}">${handKanji(k)}${n > 1 ? `<span class="n">${n}</span>` : ""}</button>`;
    }
    if (!any) html += `<div class="hand-none">${t("none")}</div>`;
    el.innerHTML = html;
    el.classList.toggle("upside", side === "white" !== flip);
  }
};
function pieceSvg(p, x, y, flip) {
  const cx = x + W / 2;
  const cy = y + H / 2;
  const turned = p.black === flip;
  const rot = turned ? ` transform="rotate(180 ${cx} ${cy})"` : "";
  if (p.kind === "X") {
    return `<g class="piece stone"><circle cx="${cx}" cy="${cy}" r="14"/><text x="${cx}" y="${cy + 6}">石</text></g>`;
  }
  const shape = `M${cx} ${y + 4}L${x + W - 7} ${y + 10}L${x + W - 4} ${y + H - 3}L${x + 4} ${y + H - 3}L${x + 7} ${y + 10}Z`;
  const cls = `piece${p.promoted ? " promoted" : ""}${p.black ? " black" : " white"}`;
  return `<g class="${cls}"${rot}><path d="${shape}"/><text x="${cx}" y="${cy + 9}">${kanji(p)}</text></g>`;
}

// src/hasami.ts
var REASONS_JA = {
  "the loser is down to four pieces": "相手の駒が4枚以下になった",
  "a lead of three survived the reply": "3枚差のリードが相手の手番を越えて続いた",
  "the loser has no legal move": "相手に指す手がない",
  "the ply limit": "手数の上限",
  "the same position a third time": "同一局面3回"
};
async function mountHasami(root) {
  const info = await request("GET", "/api/info").catch(() => ({ hasami_agents: ["random"] }));
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
  let game = null;
  let selected = null;
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
        copyButton
      )
    )
  );
  const humanToMove = () => !!game && game.outcome === "ongoing" && (game.human === "both" || game.human === game.side_to_move);
  function render() {
    if (!game) return;
    const [boardPart, side] = game.position.split(" ");
    const pos = parseSfen(`${boardPart} ${side}`);
    for (const c of pos.cells) if (c && !c.black) c.promoted = true;
    const marks = /* @__PURE__ */ new Map();
    const add = (i, c) => marks.set(i, [...marks.get(i) ?? [], c]);
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
        h("button", { type: "button", class: "primary", id: "hasami-restart", onclick: () => void newGame() }, t("h_new"))
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
        h("tr", {}, h("th", {}, `☖${t("white")} と`), h("td", { id: "count-white" }, String(game.pieces.white)), h("td", { id: "captured-white" }, String(game.captured.white)))
      )
    );
    const lead = game.lead;
    const meter = h("div", { class: "meter", role: "meter", "aria-valuemin": -9, "aria-valuemax": 9, "aria-valuenow": lead, "aria-label": t("h_lead") });
    for (let d = -4; d <= 4; d++) {
      const cls = ["tick", d === 0 ? "zero" : "", Math.abs(d) >= 3 ? "danger" : "", lead > 0 && d > 0 && d <= lead || lead < 0 && d < 0 && d >= lead ? "on" : ""];
      meter.append(h("span", { class: cls.join(" ").trim() }, d === 0 ? "0" : d > 0 ? `☗${d}` : `☖${-d}`));
    }
    const leader = lead > 0 ? `☗${t("black")}` : `☖${t("white")}`;
    const other = lead > 0 ? `☖${t("white")}` : `☗${t("black")}`;
    leadBox.replaceChildren(
      h("div", {}, `${t("h_lead")}: `, lead === 0 ? t("h_even") : `${leader} +${Math.abs(lead)}`),
      meter,
      game.must_cut_lead ? h("div", { class: "warning", id: "hasami-must-cut" }, t("h_must_cut", leader, Math.abs(lead), other)) : ""
    );
    recordText.value = game.record;
  }
  async function clickSquare(i) {
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
  async function play(mv) {
    if (!game) return;
    busy = true;
    render();
    try {
      game = await request("POST", `/api/hasami/games/${game.id}/move`, { move: mv });
      msg.clear();
    } catch (e) {
      msg.error(e);
    }
    busy = false;
    render();
    await agentTurn();
  }
  async function agentTurn() {
    while (game && game.outcome === "ongoing" && !humanToMove()) {
      busy = true;
      render();
      try {
        game = await request("POST", `/api/hasami/games/${game.id}/ai`);
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
  async function newGame() {
    localStorage.setItem("koma-hasami-agent", agentSel.value);
    selected = null;
    status.dataset.state = "loading";
    over.hidden = true;
    try {
      game = await request("POST", "/api/hasami/games", { agent: agentSel.value, human: colourSel.value });
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
      game = await request("GET", `/api/hasami/games/${saved}`);
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

// src/place.ts
var PAGE = 20;
async function mountPlace(root) {
  const pieces = h("input", { id: "place-pieces", value: "P18L4N4S4G4K2R2B2", size: 24, spellcheck: "false", autocomplete: "off" });
  const dir = select([["one", t("p_one")], ["both", t("p_both")]], "one");
  dir.id = "place-dir";
  const mode = select([["count", t("p_count")], ["first", t("p_first")], ["all", t("p_all")]], "count");
  mode.id = "place-mode";
  const limit = h("input", { id: "place-limit", type: "number", min: 1, value: 5e3, size: 7 });
  const mirrorOne = h("input", { id: "place-mirror", type: "checkbox" });
  const start = h("button", { type: "button", id: "place-start", class: "primary" }, t("p_start"));
  const msg = new Message();
  const jobsBody = h("tbody", { id: "place-jobs" });
  const board = new Board({ label: t("nav_place") });
  const mirrorView = h("input", { id: "place-mirror-view", type: "checkbox" });
  const prev = h("button", { type: "button", id: "place-prev" }, t("p_prev"));
  const next = h("button", { type: "button", id: "place-next" }, t("p_next"));
  const position = h("span", { id: "place-position", class: "position" });
  const sfenLine = h("code", { id: "place-sfen", class: "sfen" });
  const viewer = h(
    "section",
    { class: "viewer", hidden: true, id: "place-viewer" },
    board.el,
    h("div", { class: "pager" }, prev, position, next, field(t("p_mirror_view"), mirrorView)),
    sfenLine
  );
  root.append(
    h("h1", {}, t("nav_place")),
    h(
      "div",
      { class: "controls" },
      field(t("p_pieces"), pieces),
      field(t("p_dir"), dir),
      field(t("p_mode"), mode),
      field(t("p_limit"), limit),
      field(t("p_mirror"), mirrorOne),
      start
    ),
    h("p", { class: "hint" }, t("p_help")),
    msg.el,
    h("h2", {}, t("p_jobs")),
    h("div", { class: "table-wrap" }, h("table", { class: "jobs" }, jobsBody)),
    viewer
  );
  const jobs = /* @__PURE__ */ new Map();
  const following = /* @__PURE__ */ new Map();
  let shown = null;
  function describe(j) {
    const p = j.params;
    return `${p.pieces} · ${p.both_ways ? t("p_both") : t("p_one")} · ${t(p.mode === "count" ? "p_count" : p.mode === "first" ? "p_first" : "p_all")}`;
  }
  function progressCell(j) {
    const r = j.result;
    if (j.state === "done" && r) {
      if ("count" in r) return h("span", { class: "result" }, t("p_count_result", Number(r.count).toLocaleString(), Number(r.count_mirror_identified).toLocaleString()));
      return h("span", { class: "result" }, t("p_found", Number(r.found).toLocaleString()));
    }
    if (j.state === "failed" || j.state === "cancelled") return h("span", { class: "fail" }, j.error?.message ?? "");
    const p = j.progress;
    if (!p || !p.tasks) return h("span", {}, j.error?.message ?? "");
    return h(
      "span",
      {},
      h("progress", { max: p.tasks, value: p.tasks_done ?? 0 }),
      ` ${t("p_tasks", p.tasks_done ?? 0, p.tasks)} · ${t("p_found", p.found ?? "0")}`
    );
  }
  function renderJobs() {
    const rows = [...jobs.values()].filter((j) => j.kind === "place").sort((a, b) => b.id - a.id);
    jobsBody.replaceChildren(
      ...rows.map((j) => {
        const mode2 = j.params.mode;
        return h(
          "tr",
          { "data-job": j.id, "data-state": j.state },
          h("td", {}, `#${j.id}`),
          h("td", {}, describe(j)),
          h("td", { class: `state ${j.state}` }, t(`state_${j.state}`)),
          h("td", { class: "progress-cell" }, progressCell(j)),
          h(
            "td",
            {},
            j.state === "queued" || j.state === "running" ? h("button", { type: "button", class: "cancel", onclick: () => void cancel(j.id) }, t("p_cancel")) : mode2 !== "count" && j.state === "done" ? h("button", { type: "button", class: "show", onclick: () => void show(j.id, 0) }, t("p_show")) : ""
          )
        );
      })
    );
  }
  function keep(j) {
    const known = jobs.get(j.id);
    if (!known || !ended(known)) jobs.set(j.id, j);
  }
  function follow(j) {
    if (following.has(j.id) || ended(j)) return;
    following.set(
      j.id,
      followJob(j.id, (update) => {
        keep(update);
        renderJobs();
        if (update.state === "done" && update.params.mode !== "count" && (!shown || shown.job === update.id)) {
          void show(update.id, 0);
        }
      })
    );
  }
  async function refresh() {
    try {
      const list = await request("GET", "/api/jobs");
      for (const j of list) {
        keep(j);
        follow(j);
      }
      renderJobs();
    } catch (e) {
      msg.error(e);
    }
  }
  async function cancel(id) {
    try {
      keep(await request("POST", `/api/jobs/${id}/cancel`));
      renderJobs();
    } catch (e) {
      msg.error(e);
    }
  }
  async function page(job, n) {
    if (shown && shown.job === job && shown.pages.has(n)) return shown.pages.get(n);
    const p = await request("GET", `/api/jobs/${job}/solutions?cursor=${n * PAGE}&limit=${PAGE}`);
    if (shown && shown.job === job) shown.pages.set(n, p);
    return p;
  }
  async function show(job, index) {
    if (!shown || shown.job !== job) shown = { job, index: 0, total: 0, pages: /* @__PURE__ */ new Map() };
    try {
      const p = await page(job, Math.floor(index / PAGE));
      shown.total = p.total;
      viewer.hidden = false;
      if (p.total === 0) {
        position.textContent = t("p_no_solutions");
        board.set({ cells: Array(81).fill(null) });
        return;
      }
      shown.index = Math.min(index, p.total - 1);
      const item = p.items.find((i) => i.index === shown.index) ?? p.items[0];
      let cells = parseSfen(item.sfen).cells;
      if (mirrorView.checked) cells = mirror(cells);
      board.set({ cells });
      sfenLine.textContent = item.sfen;
      sfenLine.dataset.sfen = item.sfen;
      position.textContent = `#${job}: ${t("p_solution", shown.index + 1, p.total)}`;
      prev.disabled = shown.index === 0;
      next.disabled = shown.index + 1 >= p.total;
    } catch (e) {
      msg.error(e);
    }
  }
  prev.addEventListener("click", () => shown && void show(shown.job, shown.index - 1));
  next.addEventListener("click", () => shown && void show(shown.job, shown.index + 1));
  mirrorView.addEventListener("change", () => shown && void show(shown.job, shown.index));
  viewer.addEventListener("keydown", (e) => {
    if (!shown) return;
    if (e.key === "ArrowRight" && e.target === viewer) void show(shown.job, shown.index + 1);
    if (e.key === "PageDown") void show(shown.job, shown.index + PAGE);
    if (e.key === "PageUp") void show(shown.job, Math.max(0, shown.index - PAGE));
  });
  start.addEventListener("click", async () => {
    msg.clear();
    const body = { pieces: pieces.value, both_ways: dir.value === "both", mode: mode.value, mirror: mirrorOne.checked };
    if (mode.value === "all" && limit.value) body.limit = Number(limit.value);
    try {
      const j = await request("POST", "/api/place", body);
      jobs.set(j.id, j);
      shown = null;
      renderJobs();
      follow(j);
    } catch (e) {
      msg.error(e);
    }
  });
  await refresh();
  const latest = [...jobs.values()].filter((j) => j.kind === "place" && j.state === "done" && j.params.mode !== "count").sort((a, b) => b.id - a.id)[0];
  if (latest) await show(latest.id, 0);
}

// src/records.ts
var SAMPLE = `先手：先手
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
function base64(bytes) {
  const u8 = new Uint8Array(bytes);
  let s = "";
  for (let i = 0; i < u8.length; i += 32768) s += String.fromCharCode(...u8.subarray(i, i + 32768));
  return btoa(s);
}
async function mountRecords(root) {
  const text = h("textarea", { id: "record-text", rows: 8, spellcheck: "false", "aria-label": t("r_paste"), placeholder: t("r_paste") });
  const file = h("input", { type: "file", id: "record-file", accept: ".kif,.kifu,.ki2,.ki2u,.csa,.usi,.sfen,.bod,.txt" });
  const load = h("button", { type: "button", id: "record-load", class: "primary" }, t("r_load"));
  const msg = new Message();
  const board = new Board({ label: t("nav_board"), hands: true });
  const plyLabel = h("span", { id: "record-ply", class: "position" });
  const nav = (key, id, fn) => h("button", { type: "button", id, onclick: fn }, t(key));
  const moveList = h("ol", { class: "moves", id: "record-moves" });
  const variations = h("div", { class: "variations", id: "record-variations" });
  const comments = h("div", { class: "comments" });
  const legal = h("details", { class: "legal", id: "record-legal" });
  const headers = h("dl", { class: "headers" });
  const status = h("div", { class: "status", id: "record-status" });
  const copySfen = h("button", { type: "button", id: "copy-sfen" }, t("r_copy_sfen"));
  const copyKif = h("button", { type: "button", id: "copy-kif" }, t("r_copy_kif"));
  const copyCsa = h("button", { type: "button", id: "copy-csa" }, t("r_copy_csa"));
  let rec = null;
  let source = { text: "" };
  let line = [];
  let end = null;
  let index = 0;
  let flip = false;
  const groups = /* @__PURE__ */ new Map();
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
          })
        ),
        h("p", { class: "hint" }, t("r_keys"))
      ),
      h("aside", { class: "panel" }, headers, status, h("h2", {}, t("r_moves")), moveList, variations, comments, legal, h("div", { class: "copy-row" }, copySfen, copyKif, copyCsa))
    )
  );
  function addGroups(l) {
    l.moves.forEach((m, i) => {
      const conts = [l.moves.slice(i), ...m.variations.map((v) => v.moves)].filter((c) => c.length > 0);
      for (const c of conts) groups.set(c[0], conts);
      for (const v of m.variations) addGroups(v);
    });
  }
  function sfenAt(k) {
    return k === 0 ? rec.initial_sfen : line[k - 1].sfen;
  }
  function go(k) {
    if (!rec) return;
    index = Math.max(0, Math.min(line.length, k));
    render();
  }
  let legalSeq = 0;
  async function showLegal(sfen) {
    const seq = ++legalSeq;
    try {
      const p = await request("POST", "/api/position", { sfen });
      if (seq !== legalSeq) return;
      const st = p.status !== "ongoing" ? t(`r_status_${p.status}`) : p.in_check ? t("r_check") : "";
      status.textContent = st;
      status.dataset.status = p.status;
      legal.replaceChildren(h("summary", {}, t("r_legal", p.legal_moves.length)), h("div", { class: "legal-list" }, p.legal_moves.map((m) => m.name).join(" ")));
      legal.dataset.count = String(p.legal_moves.length);
    } catch (e) {
      msg.error(e);
    }
  }
  function render() {
    if (!rec) return;
    const sfen = sfenAt(index);
    const pos = parseSfen(sfen);
    const marks = /* @__PURE__ */ new Map();
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
      ...line.map(
        (m, i) => h(
          "li",
          { class: index === i + 1 ? "current" : "", value: i + 1 },
          h("button", { type: "button", onclick: () => go(i + 1) }, m.name + ((groups.get(m)?.length ?? 0) > 1 ? " +" : ""))
        )
      ),
      ...end ? [h("li", { class: "end" }, end)] : []
    );
    moveList.querySelector(".current")?.scrollIntoView({ block: "nearest" });
    const alts = index < line.length ? groups.get(line[index]) ?? [] : [];
    variations.replaceChildren();
    if (alts.length > 1) {
      variations.append(
        h("h3", {}, t("r_variations")),
        ...alts.map(
          (c, j) => h(
            "button",
            {
              type: "button",
              class: c[0] === line[index] ? "current" : "",
              onclick: () => {
                line = line.slice(0, index).concat(c);
                go(index + 1);
              }
            },
            `${c[0].name}${j === 0 ? ` (${t("r_main")})` : ""}`
          )
        )
      );
    }
    const cs = index === 0 ? rec.comments : line[index - 1].comments;
    comments.replaceChildren(...cs.length ? [h("h3", {}, t("r_comments")), h("pre", {}, cs.join("\n"))] : []);
    void showLegal(sfen);
  }
  async function read(input) {
    msg.clear();
    try {
      rec = await request("POST", "/api/record", input);
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
  for (const [button, to] of [[copyKif, "kif"], [copyCsa, "csa"]]) {
    button.addEventListener("click", async () => {
      try {
        const r = await request("POST", "/api/record/convert", { ...source, to });
        await copy(r.text, button);
      } catch (e) {
        msg.error(e);
      }
    });
  }
  document.addEventListener("keydown", (e) => {
    const tag = e.target.tagName;
    if (tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT") return;
    const keys = {
      ArrowLeft: () => go(index - 1),
      ArrowRight: () => go(index + 1),
      Home: () => go(0),
      End: () => go(line.length),
      f: () => {
        flip = !flip;
        render();
      }
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

// src/tsume.ts
var FULL_SET = { R: 2, B: 2, G: 4, S: 4, N: 4, L: 4, P: 18 };
var EMPTY_SFEN = "9/9/9/9/9/9/9/9/9 b - 1";
var PROMOTABLE = "PLNSBR";
async function mountTsume(root) {
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
  let pos = parseSfen(EMPTY_SFEN);
  let expected = null;
  let answer = null;
  let step = 0;
  let picked = null;
  let stopFollowing = null;
  let running = null;
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
    onAlt: (i) => turnOver(i)
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
        sfenLine
      ),
      h(
        "aside",
        { class: "panel" },
        h("div", { class: "controls" }, solveButton, checkButton, cancelButton),
        progress,
        verdict,
        h("h2", {}, t("t_answer")),
        answerList,
        findings
      )
    )
  );
  function shown() {
    return answer && step > 0 ? parseSfen(answer[step - 1].sfen) : pos;
  }
  function render() {
    const p = shown();
    const marks = /* @__PURE__ */ new Map();
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
      handSelected: picked && "hand" in picked ? { side: picked.hand, kind: picked.kind } : null
    });
    board.el.dataset.sfen = toSfen(p);
    const sfen = toSfen(pos);
    sfenLine.textContent = sfen;
    sfenLine.dataset.sfen = sfen;
    for (const b of palette.querySelectorAll("button")) {
      b.classList.toggle("selected", !!picked && "kind" in picked && !("hand" in picked) && picked.kind === b.dataset.kind);
    }
    answerList.replaceChildren(
      ...(answer ?? []).map(
        (m, i) => h("li", { class: step === i + 1 ? "current" : "" }, h("button", { type: "button", onclick: () => go(i + 1) }, m.name))
      )
    );
  }
  function edited() {
    answer = null;
    expected = null;
    step = 0;
    verdict.textContent = "";
    findings.replaceChildren();
    history.replaceState(null, "", `/tsume?sfen=${encodeURIComponent(toSfen(pos))}`);
    render();
  }
  function go(k) {
    if (!answer) return;
    step = Math.max(0, Math.min(answer.length, k));
    render();
  }
  function addHand(side, kind) {
    if (kind === "K") return;
    const hand = side === "black" ? pos.black : pos.white;
    hand.set(kind, (hand.get(kind) ?? 0) + 1);
  }
  function takeHand(side, kind) {
    const hand = side === "black" ? pos.black : pos.white;
    const n = hand.get(kind) ?? 0;
    if (n <= 0) return false;
    hand.set(kind, n - 1);
    return true;
  }
  function drag(from, to) {
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
  function clickSquare(i) {
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
  function turnOver(i) {
    const p = pos.cells[i];
    if (answer || !p) return;
    if (!p.promoted && PROMOTABLE.includes(p.kind)) p.promoted = true;
    else {
      p.promoted = false;
      p.black = !p.black;
    }
    edited();
  }
  function restToDefender() {
    const left = { ...FULL_SET };
    for (const c of pos.cells) if (c && c.kind in left) left[c.kind]--;
    for (const [k, n] of pos.black) left[k] -= n;
    pos.white = /* @__PURE__ */ new Map();
    for (const k of HAND_KINDS) if (left[k] > 0) pos.white.set(k, left[k]);
    edited();
  }
  async function load(text) {
    msg.clear();
    try {
      const rec = await request("POST", "/api/record", { text });
      pos = parseSfen(rec.initial_sfen);
      edited();
      expected = rec.main.moves.length ? rec.main.moves.map((m) => m.usi) : null;
    } catch (e) {
      msg.error(e);
    }
  }
  function showResult(r) {
    const ja = lang() === "ja";
    const secs = r.elapsed_secs.toFixed(2);
    let v;
    if (r.outcome === "mate") v = ja ? `${r.length}手詰` : `Mate in ${r.length}`;
    else if (r.outcome === "nomate" || r.outcome === "no_mate") v = ja ? "不詰" : "No mate";
    else v = ja ? `不明（${r.reason}）` : `Unknown (${r.reason})`;
    const verdicts = { sound: ["sound", "完全作"], flawed: ["flawed", "不完全作"] };
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
  async function start(mode) {
    msg.clear();
    stopFollowing?.();
    answer = null;
    verdict.textContent = "";
    findings.replaceChildren();
    try {
      const body = { sfen: toSfen(pos), mode };
      if (mode === "check" && expected) body.expected = expected;
      const job = await request("POST", "/api/tsume", body);
      running = job.id;
      cancelButton.disabled = false;
      progress.textContent = t(`state_${job.state}`);
      stopFollowing = followJob(job.id, (j) => {
        const p = j.progress;
        if (j.state === "running" && p?.nodes !== void 0) progress.textContent = t("t_progress", p.nodes.toLocaleString(), (p.elapsed_secs ?? 0).toFixed(1));
        else if (j.state === "queued") progress.textContent = t("state_queued");
        if (j.state === "done" && j.result) showResult(j.result);
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
    const tag = e.target.tagName;
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

// src/main.ts
var PAGES = [
  ["/board", "nav_board", mountRecords],
  ["/tsume", "nav_tsume", mountTsume],
  ["/hasami", "nav_hasami", mountHasami],
  ["/place", "nav_place", mountPlace]
];
function header(path) {
  const nav = h("nav", { "aria-label": "pages" });
  for (const [p, key] of PAGES) {
    nav.append(h("a", { href: p, class: p === path ? "active" : "", "aria-current": p === path ? "page" : void 0 }, t(key)));
  }
  const langButton = h("button", { type: "button", class: "lang", onclick: () => setLang(lang() === "en" ? "ja" : "en") }, t("lang_switch"));
  return h("header", {}, h("a", { href: "/", class: "brand" }, "駒 koma"), nav, langButton);
}
function home(root) {
  root.append(h("p", { class: "intro" }, t("home_intro")));
  const list = h("div", { class: "cards" });
  for (const [p, key] of PAGES) list.append(h("a", { href: p, class: "card" }, t(key)));
  root.append(list);
}
async function main() {
  document.documentElement.lang = lang();
  document.title = t("title");
  const path = location.pathname;
  const app = document.getElementById("app");
  app.append(header(path));
  const root = h("main", {});
  app.append(root);
  await ensureSession().catch(() => void 0);
  const page = PAGES.find(([p]) => p === path);
  await (page ? page[2](root) : home(root));
}
void main();
