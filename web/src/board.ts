// The shogi board: SVG squares and kanji pieces on a wooden board, the hands beside it, clicks,
// drags and a keyboard cursor (arrow keys, Enter/Space to act, as a click would).

import { Cells, Hand, HAND_KINDS, handKanji, kanji, squareName } from "./sfen";
import { t } from "./i18n";

const W = 40;
const H = 44;
const LEFT = 6;
const TOP = 22;
const FILES = "１２３４５６７８９";
const RANKS = "一二三四五六七八九";

/** Where a drag started. */
export type DragSource = { square: number } | { hand: "black" | "white"; kind: string };
/** Where it ended: a square, a hand, or off the board. */
export type DragTarget = { square: number } | { hand: "black" | "white" } | { off: true };

export interface BoardOptions {
  /** A square was clicked or chosen with the keyboard. */
  onSquare?: (square: number) => void;
  /** A hand piece was clicked. */
  onHand?: (side: "black" | "white", kind: string) => void;
  /** A piece was dragged (only when set: the board editor). */
  onDrag?: (from: DragSource, to: DragTarget) => void;
  /** A square was right-clicked or R pressed on it. */
  onAlt?: (square: number) => void;
  /** Show the hands beside the board. */
  hands?: boolean;
  /** What the board is, for screen readers. */
  label: string;
}

export interface BoardState {
  cells: Cells;
  black?: Hand;
  white?: Hand;
  flip?: boolean;
  /** CSS classes per square: selected, target, last, captured, check. */
  marks?: Map<number, string[]>;
  /** A hand piece shown as selected. */
  handSelected?: { side: "black" | "white"; kind: string } | null;
}

export class Board {
  readonly el: HTMLDivElement;
  private svg: SVGSVGElement;
  private handEls: Record<"black" | "white", HTMLDivElement>;
  private state: BoardState = { cells: Array(81).fill(null) };
  private cursor = 40;
  private drag: DragSource | null = null;

  constructor(private opts: BoardOptions) {
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
    // Only the cursor changes on focus: redrawing would replace the square under a click.
    this.svg.addEventListener("focus", () => this.showCursor());
    this.svg.addEventListener("blur", () => this.showCursor());
    if (opts.onDrag) this.enableDrag();
  }

  /** Draws a new state. */
  set(state: BoardState): void {
    this.state = state;
    this.render();
  }

  /** The square under the keyboard cursor. */
  cursorSquare(): number {
    return this.state.flip ? 80 - this.cursor : this.cursor;
  }

  private makeHand(side: "black" | "white"): HTMLDivElement {
    const d = document.createElement("div");
    d.className = `hand hand-${side}`;
    d.dataset.side = side;
    d.addEventListener("click", (e) => {
      const b = (e.target as HTMLElement).closest("button");
      if (b?.dataset.kind) this.opts.onHand?.(side, b.dataset.kind);
    });
    return d;
  }

  private squareOf(target: EventTarget | null): number | null {
    const g = (target as Element | null)?.closest?.("[data-index]");
    return g ? Number(g.getAttribute("data-index")) : null;
  }

  private key(e: KeyboardEvent): void {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -9, ArrowDown: 9 };
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

  private enableDrag(): void {
    this.svg.addEventListener("pointerdown", (e) => {
      const sq = this.squareOf(e.target);
      if (sq === null || e.button !== 0) return;
      this.drag = this.state.cells[sq] ? { square: sq } : null;
      if (!this.drag) this.opts.onSquare?.(sq);
    });
    for (const side of ["black", "white"] as const) {
      this.handEls[side].addEventListener("pointerdown", (e) => {
        const b = (e.target as HTMLElement).closest("button");
        if (b?.dataset.kind) this.drag = { hand: side, kind: b.dataset.kind };
      });
    }
    document.addEventListener("pointerup", (e) => {
      const from = this.drag;
      this.drag = null;
      if (!from) return;
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const sq = this.squareOf(under);
      const hand = (under as HTMLElement | null)?.closest?.(".hand") as HTMLElement | null;
      if (sq !== null && "square" in from && from.square === sq) {
        this.opts.onSquare?.(sq);
        return;
      }
      if (sq !== null) this.opts.onDrag?.(from, { square: sq });
      else if (hand?.dataset.side) this.opts.onDrag?.(from, { hand: hand.dataset.side as "black" | "white" });
      else if ("square" in from) this.opts.onDrag?.(from, { off: true });
    });
  }

  private showCursor(): void {
    const focused = document.activeElement === this.svg;
    const at = String(this.cursorSquare());
    for (const g of this.svg.querySelectorAll<SVGGElement>("[data-index]")) {
      g.classList.toggle("cursor", focused && g.dataset.index === at);
    }
  }

  private render(): void {
    const s = this.state;
    const flip = !!s.flip;
    const parts: string[] = [];
    parts.push(`<rect class="wood" x="${LEFT - 4}" y="${TOP - 4}" width="${9 * W + 8}" height="${9 * H + 8}" rx="3"/>`);
    for (let c = 0; c < 9; c++) {
      const file = flip ? c + 1 : 9 - c;
      parts.push(`<text class="coord" x="${LEFT + c * W + W / 2}" y="${TOP - 8}">${FILES[file - 1]}</text>`);
    }
    for (let r = 0; r < 9; r++) {
      const rank = flip ? 8 - r : r;
      parts.push(`<text class="coord" x="${LEFT + 9 * W + 12}" y="${TOP + r * H + H / 2 + 5}">${RANKS[rank]}</text>`);
    }
    for (let v = 0; v < 81; v++) {
      const i = flip ? 80 - v : v;
      const x = LEFT + (v % 9) * W;
      const y = TOP + Math.floor(v / 9) * H;
      const marks = s.marks?.get(i) ?? [];
      const cls = ["sq", ...new Set(marks)].join(" ");
      const p = s.cells[i];
      const name = squareName(i);
      const label = p ? `${name} ${p.black ? t("black") : t("white")} ${kanji(p)}` : name;
      parts.push(
        `<g class="${cls}" data-index="${i}" data-sq="${name}"${p ? ` data-piece="${p.promoted ? "+" : ""}${p.black ? p.kind : p.kind.toLowerCase()}"` : ""} role="gridcell" aria-label="${label}">`,
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
      this.renderHand("black", s.black ?? new Map(), flip);
      this.renderHand("white", s.white ?? new Map(), flip);
      // The side at the bottom keeps its hand on the right/bottom.
      this.el.classList.toggle("flipped", flip);
    }
  }

  private renderHand(side: "black" | "white", hand: Hand, flip: boolean): void {
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
    el.classList.toggle("upside", (side === "white") !== flip);
  }
}

/** A piece: the pentagon and its kanji, turned round for the side at the top. */
function pieceSvg(p: Piece0, x: number, y: number, flip: boolean): string {
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

type Piece0 = NonNullable<Cells[number]>;
