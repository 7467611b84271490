// Solve a short tsume in the page and check the line shown; set one up in the editor.
import { test } from "node:test";
import assert from "node:assert/strict";
import { newPage, screenshot, serverAndBrowser } from "./lib.mjs";

const ctx = serverAndBrowser();

// ▲3四飛 △同玉 ▲4四飛成 (cshogi's mate search finds R*3d as well).
const CHASE = "5R3/4g2p1/6k2/9/5PN2/7G1/9/9/9 b R2b2g4s3n4l16p 1";
const MATED = "9/4g2p1/9/5+Rk2/5PN2/7G1/9/9/9 w r2b2g4s3n4l16p 4";

test("solve a short tsume and step through the answer", async () => {
  const page = await newPage(ctx.browser);
  await page.goto(`${ctx.server.url}/tsume`);
  await page.fill("#tsume-input", CHASE);
  await page.click("#tsume-set");
  await page.waitForFunction((s) => document.querySelector("#tsume-sfen").dataset.sfen === s, CHASE);
  await page.click("#tsume-solve");
  await page.waitForSelector('#tsume-verdict[data-outcome="mate"]', { timeout: 120000 });
  assert.match(await page.textContent("#tsume-verdict"), /Mate in 3/);
  const line = await page.$$eval("#tsume-answer li", (els) => els.map((e) => e.textContent));
  assert.deepEqual(line, ["▲３四飛", "△同　玉", "▲４四飛成"]);
  await page.click("h1");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  assert.equal(await page.getAttribute(".board-wrap", "data-sfen"), MATED);
  await screenshot(page, "tsume-solved");
  // The problem as a URL opens the same position.
  const url = page.url();
  assert.ok(url.includes("/tsume?sfen="), url);
  const shared = await newPage(ctx.browser, { phone: true, lang: "ja" });
  await shared.goto(url);
  await shared.waitForFunction((s) => document.querySelector("#tsume-sfen")?.dataset.sfen === s, CHASE);
  await shared.click("#tsume-solve");
  await shared.waitForSelector('#tsume-verdict[data-outcome="mate"]', { timeout: 120000 });
  assert.match(await shared.textContent("#tsume-verdict"), /3手詰/);
  await screenshot(shared, "tsume-shared-phone-ja");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(shared.errors, []);
});

test("set up a problem in the editor", async () => {
  const page = await newPage(ctx.browser);
  await page.goto(`${ctx.server.url}/tsume`);
  // A White king from the palette on 5a, a Black gold dragged from the hand to 5b.
  await page.selectOption(".controls.editor select", "w");
  await page.click('#tsume-palette [data-kind="K"]');
  await page.click('[data-sq="5a"]');
  await page.selectOption(".controls.editor select", "b");
  await page.click('#tsume-palette [data-kind="P"]');
  await page.click('[data-sq="5c"]');
  await page.click('#tsume-palette [data-kind="G"]');
  await page.click('[data-sq="1i"]');
  await page.dragAndDrop('[data-sq="1i"]', ".hand-black");
  assert.match(await page.textContent(".hand-black"), /金/);
  await page.click("#tsume-rest");
  const sfen = await page.getAttribute("#tsume-sfen", "data-sfen");
  assert.equal(sfen, "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
  await page.dragAndDrop('.hand-black [data-kind="G"]', '[data-sq="5b"]');
  assert.equal(await page.getAttribute("#tsume-sfen", "data-sfen"), "4k4/4G4/4P4/9/9/9/9/9/9 b 2r2b3g4s4n4l17p 1");
  // Right-click turns a piece over: the gold becomes White's.
  await page.click('[data-sq="5b"]', { button: "right" });
  assert.match(await page.getAttribute("#tsume-sfen", "data-sfen"), /^4k4\/4g4\//);
  await screenshot(page, "tsume-editor");
  assert.deepEqual(page.errors, []);
});

// A check: a sound 3-ply problem with an equal-length defence (変同), reported and allowed.
const EQUAL = "7ks/5G3/9/9/9/9/9/9/9 b GS 1";

test("check a short tsume: the verdict and the findings shown", async () => {
  const page = await newPage(ctx.browser);
  await page.goto(`${ctx.server.url}/tsume`);
  await page.fill("#tsume-input", EQUAL);
  await page.click("#tsume-set");
  await page.waitForFunction((s) => document.querySelector("#tsume-sfen").dataset.sfen === s, EQUAL);
  await page.click("#tsume-check");
  await page.waitForSelector('#tsume-verdict[data-outcome="mate"]', { timeout: 120000 });
  assert.match(await page.textContent("#tsume-verdict"), /Mate in 3 — sound/);
  const line = await page.$$eval("#tsume-answer li", (els) => els.map((e) => e.textContent));
  assert.deepEqual(line, ["▲３二銀", "△１二玉", "▲２三金"]);
  const findings = await page.$$eval("#tsume-findings li", (els) => els.map((e) => [e.dataset.kind, e.textContent]));
  assert.equal(findings.length, 1, JSON.stringify(findings));
  assert.equal(findings[0][0], "equal_defence");
  assert.match(findings[0][1], /ply 2/);
  await screenshot(page, "tsume-checked");
  assert.deepEqual(page.errors, []);
});
