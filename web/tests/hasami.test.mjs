// A whole hasami game against `random`, played by clicking, until it ends.
import { test } from "node:test";
import assert from "node:assert/strict";
import { newPage, screenshot, serverAndBrowser } from "./lib.mjs";

const ctx = serverAndBrowser();

const humanTurnOrOver = () => {
  const s = document.querySelector("#hasami-status");
  const over = document.querySelector("#hasami-over");
  return s?.dataset.state === "human" || (over && !over.hidden);
};

test("a whole game against random, by clicking", async () => {
  const page = await newPage(ctx.browser);
  await page.goto(`${ctx.server.url}/hasami`);
  // A first visit starts a game against random at once.
  await page.waitForFunction(humanTurnOrOver);
  assert.equal(await page.inputValue("#hasami-agent"), "random");

  // Legal-move highlighting: the corner piece on 9i can go up the file to 9b.
  await page.click('[data-sq="9i"]');
  const targets = await page.$$eval(".board .sq.target", (els) => els.map((e) => e.dataset.sq).sort());
  assert.deepEqual(targets, ["9b", "9c", "9d", "9e", "9f", "9g", "9h"]);
  await page.click('[data-sq="9i"]'); // deselect

  let rng = 12345;
  const pick = (n) => {
    rng = (rng * 1103515245 + 12345) % 2147483648;
    return rng % n;
  };
  let moves = 0;
  for (; moves < 400; moves++) {
    await page.waitForFunction(humanTurnOrOver, null, { timeout: 30000 });
    if (await page.isVisible("#hasami-over")) break;
    const movable = await page.$$(".board .sq.movable");
    assert.ok(movable.length > 0, "an ongoing game offers a movable piece");
    await movable[pick(movable.length)].click();
    const tos = await page.$$(".board .sq.target");
    assert.ok(tos.length > 0, "a movable piece has a target");
    await tos[pick(tos.length)].click();
    if (moves === 12) await screenshot(page, "hasami-midgame");
  }
  assert.ok(await page.isVisible("#hasami-over"), `the game ended (after ${moves} of our moves)`);
  const banner = await page.textContent("#hasami-over");
  assert.match(banner, /(Black wins|White wins|Draw):/);

  // What the page shows agrees with the server's game.
  const id = await page.evaluate(() => localStorage.getItem("koma-hasami-game"));
  const game = await page.evaluate(async (id) => (await fetch(`/api/hasami/games/${id}`)).json(), id);
  assert.notEqual(game.outcome, "ongoing");
  assert.equal(await page.textContent("#count-black"), String(game.pieces.black));
  assert.equal(await page.textContent("#captured-white"), String(9 - game.pieces.black));
  assert.equal(await page.textContent("#captured-black"), String(9 - game.pieces.white));
  const record = await page.inputValue("#hasami-record");
  assert.equal(record, game.record);
  assert.equal(record.split(" ").length - 3, game.moves.length);
  if (game.outcome === "draw") assert.ok(["the ply limit", "the same position a third time"].includes(game.reason));
  else if (game.reason === "the loser is down to four pieces") assert.ok(Math.min(game.pieces.black, game.pieces.white) <= 4);
  await screenshot(page, "hasami-game-over");

  // Restart gives a fresh game.
  await page.click("#hasami-restart");
  // The new game, not the old one's banner: wait until it is our move in a game that is on.
  await page.waitForFunction(() => document.querySelector("#hasami-status")?.dataset.state === "human");
  assert.ok(!(await page.isVisible("#hasami-over")), "the last game's banner is gone");
  assert.equal(await page.textContent("#count-white"), "9");
  assert.deepEqual(page.errors, []);
});

test("the hasami page on a phone, in Japanese", async () => {
  const page = await newPage(ctx.browser, { phone: true, lang: "ja" });
  await page.goto(`${ctx.server.url}/hasami`);
  await page.waitForFunction(humanTurnOrOver);
  assert.equal(await page.textContent("h1"), "挟み将棋");
  // The board fits the screen.
  const box = await page.locator(".board").boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
  // Keyboard: the cursor starts at 5e; move it to 5i and pick the piece there.
  await page.focus(".board");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const targets = await page.$$eval(".board .sq.target", (els) => els.length);
  assert.equal(targets, 7);
  await screenshot(page, "hasami-phone-ja");
  assert.deepEqual(page.errors, []);
});
