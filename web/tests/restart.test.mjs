// Restart the server in the middle of a long count: the finished result and the running job's
// state are there again, and the count goes on from its checkpoint.
import { test } from "node:test";
import assert from "node:assert/strict";
import { newPage, screenshot, serverAndBrowser, startServer, stopServer } from "./lib.mjs";

const ctx = serverAndBrowser();

const tasksDone = (text) => Number(/(\d+) \/ \d+ tasks/.exec(text)?.[1] ?? -1);

test("restart mid-job", async () => {
  const page = await newPage(ctx.browser);
  await page.goto(`${ctx.server.url}/place`);
  await page.fill("#place-pieces", "P18L4N4S4G4K2R2B2");
  await page.click("#place-start");
  await page.waitForSelector('#place-jobs tr[data-state="done"]', { timeout: 60000 });
  const done = await page.locator('#place-jobs tr[data-state="done"]').getAttribute("data-job");

  // Two-directional 40 + 2 pawns: minutes of work in 600 tasks.
  await page.fill("#place-pieces", "P20L4N4S4G4K2R2B2");
  await page.selectOption("#place-dir", "both");
  await page.click("#place-start");
  const row = page.locator('#place-jobs tr[data-state="running"]');
  await page.waitForFunction(
    () => [...document.querySelectorAll("#place-jobs tr")].some((r) => Number(/(\d+) \/ \d+ tasks/.exec(r.textContent)?.[1]) >= 20),
    null,
    { timeout: 120000 },
  );
  const running = await row.getAttribute("data-job");
  const before = tasksDone(await row.textContent());
  await screenshot(page, "restart-before");

  // Stop as Ctrl-C would, start again on the same data directory and port.
  const port = new URL(ctx.server.url).port;
  await stopServer(ctx.server);
  ctx.server = await startServer(ctx.dir, port);
  await page.reload();
  const again = page.locator(`#place-jobs tr[data-job="${running}"]`);
  await again.waitFor();
  assert.match(await page.locator(`#place-jobs tr[data-job="${done}"]`).textContent(), /3,720 placements/);
  // It resumes from its checkpoint (at least the tasks seen before the stop), and goes on.
  const job = await page.evaluate(async (id) => {
    for (;;) {
      const j = await (await fetch(`/api/jobs/${id}`)).json();
      if (j.state === "running" && j.progress?.tasks_resumed > 0 && j.progress.tasks_done > j.progress.tasks_resumed) return j;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, running);
  assert.equal(job.restarts, 1);
  assert.ok(job.progress.tasks_resumed >= before, JSON.stringify(job.progress));
  await page.waitForFunction(
    ([id, n]) => {
      const r = document.querySelector(`#place-jobs tr[data-job="${id}"]`);
      return r?.dataset.state === "running" && Number(/(\d+) \/ \d+ tasks/.exec(r.textContent)?.[1]) > n;
    },
    [running, job.progress.tasks_resumed],
    { timeout: 60000 },
  );
  await screenshot(page, "restart-after");
  // The cancel's answer (sent while the job still ran) is held until the job has ended and its
  // end event had time to arrive: the stale answer must not bring the running row back.
  await page.route(`**/api/jobs/${running}/cancel`, async (route) => {
    const answer = await route.fetch();
    for (const until = Date.now() + 30000; Date.now() < until; ) {
      const j = await (await fetch(`${ctx.server.url}/api/jobs/${running}`)).json();
      if (j.state === "cancelled") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 500));
    await route.fulfill({ response: answer });
  });
  const answered = page.waitForResponse((r) => r.url().endsWith(`/api/jobs/${running}/cancel`));
  await again.locator("button.cancel").click();
  await page.waitForSelector(`#place-jobs tr[data-job="${running}"][data-state="cancelled"]`, { timeout: 30000 });
  await answered;
  await page.waitForTimeout(300);
  assert.equal(await again.getAttribute("data-state"), "cancelled");
  assert.deepEqual(page.errors, []);
});
