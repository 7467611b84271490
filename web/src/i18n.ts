// The interface in English and Japanese. The language is the browser's unless the person chose
// one (kept in localStorage).

export type Lang = "en" | "ja";

const dict = {
  title: ["koma workbench", "koma ワークベンチ"],
  nav_board: ["Board & records", "盤・棋譜"],
  nav_tsume: ["Tsume", "詰将棋"],
  nav_hasami: ["Hasami shogi", "挟み将棋"],
  nav_place: ["Placement", "駒並べ"],
  lang_switch: ["日本語", "English"],
  home_intro: [
    "A shogi computing workbench: look at records and positions, solve mate problems, play hasami shogi against koma's agents, and run the non-attacking placement puzzle.",
    "将棋の計算のためのワークベンチ：棋譜と局面を見る、詰将棋を解く、挟み将棋でkomaのエージェントと対局する、利かずの駒並べを解く。",
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
    "{0}が{1}枚リード：{2}はこの手でリードを縮めないと負けです。",
  ],
  h_lead_rule: [
    "A lead of three that survives the opponent's reply wins; five pieces lost loses.",
    "3枚差が相手の手番を越えて続けば勝ち。5枚取られたら負け。",
  ],
  h_win: ["{0} wins: {1}.", "{0}の勝ち：{1}。"],
  h_draw: ["Draw: {0}.", "引き分け：{0}。"],
  h_record: ["Game record", "棋譜"],
  h_copy: ["Copy", "コピー"],
  h_copied: ["Copied", "コピーしました"],
  h_ply: ["Move {0}", "{0}手目"],
  h_select_hint: [
    "Click one of your pieces, then a highlighted square (or use the arrow keys and Enter).",
    "自分の駒をクリックし、次に印の付いたマスをクリック（矢印キーとEnterでも操作できます）。",
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
    "駒と枚数：P歩 L香 N桂 S銀 G金 K玉 R飛 B角、+は成駒、Xは石。双方向では^Pで先手向き、pで後手向きに固定。",
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
    "駒をドラッグして移動、盤外へで削除。マスや持駒をクリックしてから置くマスをクリック。右クリック（またはR）で成り・向きを変更。",
  ],
  t_palette: ["Pieces", "駒箱"],
  t_answer: ["Answer", "解答"],
  t_progress: ["{0} nodes, {1} s", "{0}局面、{1}秒"],
  error: ["Error", "エラー"],
} as const;

export type Key = keyof typeof dict;

let current: Lang = (() => {
  const saved = localStorage.getItem("koma-lang");
  if (saved === "en" || saved === "ja") return saved;
  return navigator.language.startsWith("ja") ? "ja" : "en";
})();

/** The interface language. */
export function lang(): Lang {
  return current;
}

/** Chooses the language and reloads the page in it. */
export function setLang(l: Lang): void {
  localStorage.setItem("koma-lang", l);
  current = l;
  location.reload();
}

/** The text for `key`, with `{0}`, `{1}` ... replaced by `args`. */
export function t(key: Key, ...args: (string | number)[]): string {
  const text: string = dict[key][current === "en" ? 0 : 1];
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}
