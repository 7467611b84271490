// An independent check of a placement read off the page: no piece stands on a square another
// piece attacks (shogi moves, sliders stopped by the first piece in the way).

const STEP = {
  P: [[0, -1]],
  N: [[-1, -2], [1, -2]],
  S: [[-1, -1], [0, -1], [1, -1], [-1, 1], [1, 1]],
  G: [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [0, 1]],
  K: [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]],
};
const ORTH = [[0, -1], [0, 1], [-1, 0], [1, 0]];
const DIAG = [[-1, -1], [1, -1], [-1, 1], [1, 1]];

/** Steps and rays of a piece written like `+r` (upper case faces Black, i.e. moves up). */
function moves(piece) {
  const promoted = piece.startsWith("+");
  const letter = piece.replace("+", "");
  const kind = letter.toUpperCase();
  const up = letter === kind;
  const flip = ([dx, dy]) => [dx, up ? dy : -dy];
  if (kind === "X") return { steps: [], rays: [] };
  if (promoted && "PLNS".includes(kind)) return { steps: STEP.G.map(flip), rays: [] };
  if (kind === "L") return { steps: [], rays: [[0, -1]].map(flip) };
  if (kind === "R") return { steps: promoted ? DIAG : [], rays: ORTH };
  if (kind === "B") return { steps: promoted ? ORTH : [], rays: DIAG };
  return { steps: STEP[kind].map(flip), rays: [] };
}

/** `cells` maps "x,y" (0-8, top left) to a piece; returns the attacked pieces' squares. */
export function attackedPieces(cells) {
  const hits = [];
  for (const [key, piece] of cells) {
    const [x, y] = key.split(",").map(Number);
    const { steps, rays } = moves(piece);
    for (const [dx, dy] of steps) {
      const k = `${x + dx},${y + dy}`;
      if (cells.has(k)) hits.push(`${key}->${k}`);
    }
    for (const [dx, dy] of rays) {
      for (let i = 1; i < 9; i++) {
        const [nx, ny] = [x + dx * i, y + dy * i];
        if (nx < 0 || nx > 8 || ny < 0 || ny > 8) break;
        const k = `${nx},${ny}`;
        if (cells.has(k)) {
          hits.push(`${key}->${k}`);
          break;
        }
      }
    }
  }
  return hits;
}

/** Reads the board of a page: data-sq (USI square) and data-piece of each occupied square. */
export async function readBoard(page, scope = "") {
  const squares = await page.$$eval(`${scope} .board [data-piece]`, (els) =>
    els.map((e) => [e.getAttribute("data-sq"), e.getAttribute("data-piece")]),
  );
  const cells = new Map();
  for (const [sq, piece] of squares) {
    const x = 9 - Number(sq[0]);
    const y = "abcdefghi".indexOf(sq[1]);
    cells.set(`${x},${y}`, piece);
  }
  return cells;
}
