// SFEN boards as the pages draw them: 81 cells from the top left (file 9, rank a) row by row,
// and the two hands.

/** A piece on a square. `kind` is the SFEN letter in uppercase (`X` a placement stone). */
export interface Piece {
  kind: string;
  promoted: boolean;
  black: boolean;
}

export type Cells = (Piece | null)[];

/** Hand pieces: counts by kind, in the order they are written. */
export type Hand = Map<string, number>;

export interface Position {
  cells: Cells;
  side: "b" | "w";
  black: Hand;
  white: Hand;
  ply: number;
}

export const HAND_KINDS = ["R", "B", "G", "S", "N", "L", "P"];
const RANKS = "abcdefghi";

/** The USI name of cell `i`: `9a` for 0, `1i` for 80. */
export function squareName(i: number): string {
  return `${9 - (i % 9)}${RANKS[Math.floor(i / 9)]}`;
}

/** The cell of a USI square name, or -1. */
export function squareIndex(name: string): number {
  const file = Number(name[0]);
  const rank = RANKS.indexOf(name[1]);
  if (!(file >= 1 && file <= 9) || rank < 0 || name.length !== 2) return -1;
  return rank * 9 + (9 - file);
}

/** Reads an SFEN (board, side, hands, ply; only the board is required). Throws on bad text. */
export function parseSfen(sfen: string): Position {
  const [board, side = "b", hands = "-", ply = "1"] = sfen.trim().split(/\s+/);
  const rows = board.split("/");
  if (rows.length !== 9) throw new Error(`an SFEN board has 9 ranks, this one ${rows.length}`);
  const cells: Cells = [];
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
  const black: Hand = new Map();
  const white: Hand = new Map();
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

/** Writes a position as SFEN. */
export function toSfen(p: Position): string {
  const rows: string[] = [];
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
  for (const [hand, upper] of [[p.black, true], [p.white, false]] as const) {
    for (const k of HAND_KINDS) {
      const n = hand.get(k) ?? 0;
      if (n > 0) hands += (n > 1 ? n : "") + (upper ? k : k.toLowerCase());
    }
  }
  return `${rows.join("/")} ${p.side} ${hands || "-"} ${p.ply}`;
}

/** The board's left-right mirror image (file 9 ↔ file 1). */
export function mirror(cells: Cells): Cells {
  const out: Cells = [];
  for (let r = 0; r < 9; r++) for (let c = 0; c < 9; c++) out.push(cells[r * 9 + (8 - c)]);
  return out;
}

const KANJI: Record<string, [string, string]> = {
  P: ["歩", "と"],
  L: ["香", "杏"],
  N: ["桂", "圭"],
  S: ["銀", "全"],
  G: ["金", "金"],
  B: ["角", "馬"],
  R: ["飛", "龍"],
  K: ["玉", "玉"],
  X: ["石", "石"],
};

/** The kanji a piece is written with (White's king as 王). */
export function kanji(p: Piece): string {
  if (p.kind === "K" && !p.black) return "王";
  return (KANJI[p.kind] ?? ["?", "?"])[p.promoted ? 1 : 0];
}

/** The kanji of a hand piece kind. */
export function handKanji(kind: string): string {
  return (KANJI[kind] ?? ["?"])[0];
}
