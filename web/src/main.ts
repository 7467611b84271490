// The workbench's one page: the header, then the view its path names.

import { ensureSession } from "./api";
import { lang, setLang, t, Key } from "./i18n";
import { h } from "./ui";
import { mountHasami } from "./hasami";
import { mountPlace } from "./place";
import { mountRecords } from "./records";
import { mountTsume } from "./tsume";

const PAGES: [string, Key, (root: HTMLElement) => void | Promise<void>][] = [
  ["/board", "nav_board", mountRecords],
  ["/tsume", "nav_tsume", mountTsume],
  ["/hasami", "nav_hasami", mountHasami],
  ["/place", "nav_place", mountPlace],
];

function header(path: string): HTMLElement {
  const nav = h("nav", { "aria-label": "pages" });
  for (const [p, key] of PAGES) {
    nav.append(h("a", { href: p, class: p === path ? "active" : "", "aria-current": p === path ? "page" : undefined }, t(key)));
  }
  const langButton = h("button", { type: "button", class: "lang", onclick: () => setLang(lang() === "en" ? "ja" : "en") }, t("lang_switch"));
  return h("header", {}, h("a", { href: "/", class: "brand" }, "駒 koma"), nav, langButton);
}

function home(root: HTMLElement): void {
  root.append(h("p", { class: "intro" }, t("home_intro")));
  const list = h("div", { class: "cards" });
  for (const [p, key] of PAGES) list.append(h("a", { href: p, class: "card" }, t(key)));
  root.append(list);
}

async function main(): Promise<void> {
  document.documentElement.lang = lang();
  document.title = t("title");
  const path = location.pathname;
  const app = document.getElementById("app")!;
  app.append(header(path));
  const root = h("main", {});
  app.append(root);
  await ensureSession().catch(() => undefined);
  const page = PAGES.find(([p]) => p === path);
  await (page ? page[2](root) : home(root));
}

void main();
