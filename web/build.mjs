// Builds web/src into web/dist (the files koma-server embeds). With --check, builds into a
// temporary directory and fails when dist/ differs, so the committed output matches its sources.
import * as esbuild from "esbuild";
import { mkdtempSync, readFileSync, readdirSync, copyFileSync, rmSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes("--check");
const out = check ? mkdtempSync(join(tmpdir(), "koma-web-")) : join(here, "dist");

const common = { bundle: true, logLevel: "warning", legalComments: "none", charset: "utf8" };
await esbuild.build({
  ...common,
  entryPoints: [join(here, "src/main.ts")],
  outfile: join(out, "app.js"),
  format: "esm",
  target: "es2020",
});
await esbuild.build({ ...common, entryPoints: [join(here, "src/style.css")], outfile: join(out, "app.css") });
for (const f of ["index.html", "favicon.svg"]) copyFileSync(join(here, "src", f), join(out, f));

if (check) {
  const dist = join(here, "dist");
  const names = new Set([...readdirSync(out), ...(existsSync(dist) ? readdirSync(dist) : [])]);
  const stale = [...names].filter((n) => {
    const a = join(out, n), b = join(dist, n);
    return !existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b));
  });
  rmSync(out, { recursive: true, force: true });
  if (stale.length) {
    console.error(`web/dist is out of date with web/src (${stale.join(", ")}): run \`npm run build\` in web/ and commit dist/`);
    process.exit(1);
  }
  console.log("web/dist is up to date with web/src");
}
