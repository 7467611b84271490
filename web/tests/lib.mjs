// Shared by the browser tests: start `koma serve` on loopback with a fresh data directory,
// launch Debian's chromium through playwright-core, and keep screenshots of each page.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { before, after } from "node:test";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, "../..");
/** Where the screenshots go (look at them). */
export const shots = process.env.KOMA_SCREENSHOTS ?? join(repo, "target/web-screenshots");
mkdirSync(shots, { recursive: true });

/** The koma binary under test: KOMA_BIN, else the release build, else the debug build. */
export function komaBin() {
  const candidates = [process.env.KOMA_BIN, join(repo, "target/release/koma"), join(repo, "target/debug/koma")];
  const bin = candidates.find((c) => c && existsSync(c));
  if (!bin) throw new Error("no koma binary: build it first (cargo build --release -p koma)");
  return bin;
}

/** Starts `koma serve` on 127.0.0.1 (a free port) with `dataDir`; resolves once it listens. */
export function startServer(dataDir, port = 0) {
  const proc = spawn(komaBin(), ["serve", "--addr", `127.0.0.1:${port}`, "--data", dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  proc.stderr.on("data", (d) => (log += d));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`koma serve did not start in 20 s: ${log}`)), 20000);
    proc.stdout.on("data", (d) => {
      log += d;
      const m = /open (http:\/\/[0-9.:]+)\//.exec(log);
      if (m) {
        clearTimeout(timer);
        resolveStart({ proc, url: m[1], log: () => log });
      }
    });
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`koma serve exited with ${code}: ${log}`));
    });
  });
}

/** Stops a server with SIGTERM (its graceful shutdown) and waits for it. */
export function stopServer(server, signal = "SIGTERM") {
  return new Promise((res) => {
    if (server.proc.exitCode !== null) return res(server.proc.exitCode);
    server.proc.once("exit", (code, sig) => res(code ?? sig));
    server.proc.kill(signal);
  });
}

export function tempDir() {
  return mkdtempSync(join(tmpdir(), "koma-web-test-"));
}

export function removeDir(d) {
  rmSync(d, { recursive: true, force: true });
}

/** Launches headless chromium (Debian's, with the flags this machine needs). */
export async function launch() {
  // playwright-core gives chromium a new empty profile directory of its own.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return browser;
}

/** A page that fails the test on any script error, with a desktop or phone-sized window. */
export async function newPage(browser, { phone = false, lang = "en" } = {}) {
  const context = await browser.newContext({
    viewport: phone ? { width: 390, height: 844 } : { width: 1200, height: 900 },
    deviceScaleFactor: 1,
    locale: lang === "ja" ? "ja-JP" : "en-US",
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Answers with an error status are logged by the browser; the tests check those answers
  // themselves, so only other console errors count.
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
  page.errors = errors;
  return page;
}

export async function screenshot(page, name) {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/**
 * For a test file: a server on a fresh data directory and a browser, started before its tests
 * and stopped after them. The returned object's fields are set once `before` has run; a test may
 * replace `server` (a restart).
 */
export function serverAndBrowser() {
  const ctx = { server: null, browser: null, dir: null };
  before(async () => {
    ctx.dir = tempDir();
    ctx.server = await startServer(ctx.dir);
    ctx.browser = await launch();
  });
  after(async () => {
    await ctx.browser?.close();
    if (ctx.server) await stopServer(ctx.server);
    removeDir(ctx.dir);
  });
  return ctx;
}
