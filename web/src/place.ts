// The non-attacking placement puzzle (利かずの駒並べ): start counts and enumerations as jobs, follow
// their progress, browse the placements found on the board (with a mirror view).

import { Job, ended, followJob, request } from "./api";
import { Board } from "./board";
import { t } from "./i18n";
import { Cells, mirror, parseSfen } from "./sfen";
import { Message, field, h, select } from "./ui";

interface Page {
  items: { index: number; sfen: string }[];
  next_cursor: number | null;
  total: number;
}

const PAGE = 20;

export async function mountPlace(root: HTMLElement): Promise<void> {
  const pieces = h("input", { id: "place-pieces", value: "P18L4N4S4G4K2R2B2", size: 24, spellcheck: "false", autocomplete: "off" });
  const dir = select([["one", t("p_one")], ["both", t("p_both")]], "one");
  dir.id = "place-dir";
  const mode = select([["count", t("p_count")], ["first", t("p_first")], ["all", t("p_all")]], "count");
  mode.id = "place-mode";
  const limit = h("input", { id: "place-limit", type: "number", min: 1, value: 5000, size: 7 });
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
    sfenLine,
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
      start,
    ),
    h("p", { class: "hint" }, t("p_help")),
    msg.el,
    h("h2", {}, t("p_jobs")),
    h("div", { class: "table-wrap" }, h("table", { class: "jobs" }, jobsBody)),
    viewer,
  );

  const jobs = new Map<number, Job>();
  const following = new Map<number, () => void>();
  let shown: { job: number; index: number; total: number; pages: Map<number, Page> } | null = null;

  function describe(j: Job): string {
    const p = j.params as { pieces: string; both_ways: boolean; mode: string };
    return `${p.pieces} · ${p.both_ways ? t("p_both") : t("p_one")} · ${t(p.mode === "count" ? "p_count" : p.mode === "first" ? "p_first" : "p_all")}`;
  }

  function progressCell(j: Job): HTMLElement {
    const r = j.result as Record<string, string | number | boolean> | null;
    if (j.state === "done" && r) {
      if ("count" in r) return h("span", { class: "result" }, t("p_count_result", Number(r.count).toLocaleString(), Number(r.count_mirror_identified).toLocaleString()));
      return h("span", { class: "result" }, t("p_found", Number(r.found).toLocaleString()));
    }
    if (j.state === "failed" || j.state === "cancelled") return h("span", { class: "fail" }, j.error?.message ?? "");
    const p = j.progress as { tasks_done?: number; tasks?: number; found?: string } | null;
    if (!p || !p.tasks) return h("span", {}, j.error?.message ?? "");
    return h(
      "span",
      {},
      h("progress", { max: p.tasks, value: p.tasks_done ?? 0 }),
      ` ${t("p_tasks", p.tasks_done ?? 0, p.tasks)} · ${t("p_found", p.found ?? "0")}`,
    );
  }

  function renderJobs(): void {
    const rows = [...jobs.values()].filter((j) => j.kind === "place").sort((a, b) => b.id - a.id);
    jobsBody.replaceChildren(
      ...rows.map((j) => {
        const mode = (j.params as { mode: string }).mode;
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
            j.state === "queued" || j.state === "running"
              ? h("button", { type: "button", class: "cancel", onclick: () => void cancel(j.id) }, t("p_cancel"))
              : mode !== "count" && j.state === "done"
                ? h("button", { type: "button", class: "show", onclick: () => void show(j.id, 0) }, t("p_show"))
                : "",
          ),
        );
      }),
    );
  }

  // Views come from three sources (the list, the cancel answer, the events) and can cross: an
  // answer sent while the job was running may arrive after its end event. An ended view stays.
  function keep(j: Job): void {
    const known = jobs.get(j.id);
    if (!known || !ended(known)) jobs.set(j.id, j);
  }

  function follow(j: Job): void {
    if (following.has(j.id) || ended(j)) return;
    following.set(
      j.id,
      followJob(j.id, (update) => {
        keep(update);
        renderJobs();
        if (update.state === "done" && (update.params as { mode: string }).mode !== "count" && (!shown || shown.job === update.id)) {
          void show(update.id, 0);
        }
      }),
    );
  }

  async function refresh(): Promise<void> {
    try {
      const list = await request<Job[]>("GET", "/api/jobs");
      for (const j of list) {
        keep(j);
        follow(j);
      }
      renderJobs();
    } catch (e) {
      msg.error(e);
    }
  }

  async function cancel(id: number): Promise<void> {
    try {
      keep(await request<Job>("POST", `/api/jobs/${id}/cancel`));
      renderJobs();
    } catch (e) {
      msg.error(e);
    }
  }

  async function page(job: number, n: number): Promise<Page> {
    if (shown && shown.job === job && shown.pages.has(n)) return shown.pages.get(n)!;
    const p = await request<Page>("GET", `/api/jobs/${job}/solutions?cursor=${n * PAGE}&limit=${PAGE}`);
    if (shown && shown.job === job) shown.pages.set(n, p);
    return p;
  }

  async function show(job: number, index: number): Promise<void> {
    if (!shown || shown.job !== job) shown = { job, index: 0, total: 0, pages: new Map() };
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
      const item = p.items.find((i) => i.index === shown!.index) ?? p.items[0];
      let cells: Cells = parseSfen(item.sfen).cells;
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
    const body: Record<string, unknown> = { pieces: pieces.value, both_ways: dir.value === "both", mode: mode.value, mirror: mirrorOne.checked };
    if (mode.value === "all" && limit.value) body.limit = Number(limit.value);
    try {
      const j = await request<Job>("POST", "/api/place", body);
      jobs.set(j.id, j);
      shown = null;
      renderJobs();
      follow(j);
    } catch (e) {
      msg.error(e);
    }
  });

  await refresh();
  const latest = [...jobs.values()].filter((j) => j.kind === "place" && j.state === "done" && (j.params as { mode: string }).mode !== "count").sort((a, b) => b.id - a.id)[0];
  if (latest) await show(latest.id, 0);
}
