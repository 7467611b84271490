// Small DOM helpers shared by the pages.

import { ApiFailure } from "./api";
import { t } from "./i18n";

type Child = Node | string | null | undefined | false;

/** Creates an element with attributes (`on...` functions become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, unknown> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") el.className = String(v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.append(c);
  return el;
}

/** A message area: errors from the API with where they are, or a plain note. */
export class Message {
  readonly el = h("div", { class: "message", role: "status", "aria-live": "polite" });

  show(text: string, kind: "error" | "note" = "note"): void {
    this.el.textContent = text;
    this.el.className = `message ${kind}`;
  }

  error(e: unknown): void {
    if (e instanceof ApiFailure) {
      const at = e.line ? ` (line ${e.line}${e.column ? `, column ${e.column}` : ""})` : "";
      this.show(`${t("error")}: ${e.message}${at}`, "error");
    } else {
      this.show(`${t("error")}: ${e instanceof Error ? e.message : String(e)}`, "error");
    }
  }

  clear(): void {
    this.el.textContent = "";
    this.el.className = "message";
  }
}

/** Copies text to the clipboard; reports on the button. */
export async function copy(text: string, button: HTMLButtonElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = h("textarea", {}, text);
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  const was = button.textContent;
  button.textContent = t("h_copied");
  setTimeout(() => (button.textContent = was), 1200);
}

/** A labelled form control. */
export function field(label: string, control: HTMLElement): HTMLLabelElement {
  return h("label", { class: "field" }, h("span", {}, label), control);
}

/** A select with values and labels. */
export function select(options: [string, string][], value: string): HTMLSelectElement {
  const s = h("select");
  for (const [v, l] of options) s.append(h("option", { value: v, selected: v === value }, l));
  return s;
}
