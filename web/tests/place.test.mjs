// The 40-piece placement (P18L4N4S4G4K2R2B2, one-directional): count 3720, then browse the
// placements and check the boards shown.
import { test } from "node:test";
import assert from "node:assert/strict";
import { newPage, screenshot, serverAndBrowser } from "./lib.mjs";
import { attackedPieces, readBoard } from "./placement-check.mjs";

const ctx = serverAndBrowser();

test("count the 40 and browse its placements", async () => {
  const page = await newPage(ctx.browser);
  await page.goto(`${ctx.server.url}/place`);
  await page.fill("#place-pieces", "P18L4N4S4G4K2R2B2");
  await page.selectOption("#place-dir", "one");
  await page.selectOption("#place-mode", "count");
  await page.click("#place-start");
  const row = page.locator("#place-jobs tr").first();
  await row.locator('[data-state="done"]').or(page.locator('#place-jobs tr[data-state="done"]')).first().waitFor({ timeout: 60000 });
  assert.match(await row.textContent(), /3,720 placements \(1,860 up to mirror\)/);

  await page.selectOption("#place-mode", "all");
  await page.fill("#place-limit", "5000");
  await page.click("#place-start");
  await page.waitForSelector("#place-viewer:not([hidden])", { timeout: 60000 });
  await page.waitForFunction(() => /of 3720/.test(document.querySelector("#place-position").textContent));

  const seen = new Set();
  for (let i = 0; i < 3; i++) {
    const cells = await readBoard(page, "#place-viewer");
    assert.equal(cells.size, 40, "40 pieces on the board");
    assert.deepEqual(attackedPieces(cells), [], "no piece attacks another");
    const kinds = [...cells.values()].join("");
    for (const [k, n] of [["P", 18], ["L", 4], ["N", 4], ["S", 4], ["G", 4], ["K", 2], ["R", 2], ["B", 2]]) {
      assert.equal(kinds.split(k).length - 1, n, `${n} ${k}`);
    }
    const sfen = await page.getAttribute("#place-sfen", "data-sfen");
    assert.ok(!seen.has(sfen), "each page shows another placement");
    seen.add(sfen);
    if (i === 0) await screenshot(page, "place-40");
    await page.click("#place-next");
    await page.waitForFunction((prev) => document.querySelector("#place-sfen").dataset.sfen !== prev, sfen);
  }
  // The mirror view draws the same placement reflected, still valid.
  const before = await readBoard(page, "#place-viewer");
  await page.check("#place-mirror-view");
  await page.waitForTimeout(200);
  const mirrored = await readBoard(page, "#place-viewer");
  for (const [key, piece] of before) {
    const [x, y] = key.split(",").map(Number);
    assert.equal(mirrored.get(`${8 - x},${y}`), piece);
  }
  assert.deepEqual(attackedPieces(mirrored), []);
  // Paging past the first page of 20 fetches the next page.
  for (let i = 0; i < 20; i++) await page.click("#place-next");
  await page.waitForFunction(() => /Placement 24 of 3720/.test(document.querySelector("#place-position").textContent));
  assert.deepEqual(attackedPieces(await readBoard(page, "#place-viewer")), []);
  assert.deepEqual(page.errors, []);
});

test("a bad piece set shows the server's error", async () => {
  const page = await newPage(ctx.browser, { phone: true });
  await page.goto(`${ctx.server.url}/place`);
  await page.fill("#place-pieces", "P18Q2");
  await page.click("#place-start");
  await page.waitForSelector(".message.error");
  assert.match(await page.textContent(".message.error"), /pieces:/);
  await screenshot(page, "place-phone-error");
});
