/**
 * dist/excel's first screen: what taskpane.html makes the browser download before the pane can
 * render (its module scripts, the chunks it preloads, and whatever those import statically) is
 * within the pane's 120 KB (gzip) budget, with 5 KB of headroom (at most 115 KB: the next features
 * must not push it over 120); the parts used only after an action are chunks apart.
 * Office.js, from Microsoft's CDN, is not ours and not counted. Needs `npm run build`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { COMPILE_HINT } from "../../../tooling/compile-hints.js";
import { pagePreloads } from "../../../tooling/excel/first-list.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../../.."), "dist/excel");
const read = (file: string) => readFileSync(join(DIST, file), "utf8");

/** The page's `modulepreload` links ("assets/x.js"): the first screen's, or the first list's (marked). */
function preloaded(firstList: boolean): string[] {
  const links = pagePreloads(read("taskpane.html"));
  return firstList ? links.firstList : links.firstScreen;
}

/**
 * The page's own scripts and the first screen's preloads ("assets/x.js"), with their static
 * imports, transitively: what the pane's first frame waits for.
 */
function initialScripts(): string[] {
  const html = read("taskpane.html");
  return withStaticImports([
    ...[...html.matchAll(/<script type="module"[^>]*\ssrc="\.\/([^"]+)"/g)].map((m) => m[1]!),
    ...preloaded(false),
  ]);
}

/** `files` ("assets/x.js") and every chunk they import statically, transitively. */
function withStaticImports(files: string[]): string[] {
  const queue = [...files];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of read(file).matchAll(
      /(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']\.\/([^"']+\.js)["']/g,
    )) {
      queue.push(`assets/${m[1]}`);
    }
  }
  return [...seen];
}

const gzipped = (files: string[]) =>
  files.reduce((sum, f) => sum + gzipSync(read(f), { level: 9 }).length, 0);

describe("dist/excel", () => {
  it("the task pane's initial JavaScript is within 115 KB (gzip), headroom under the pane's 120 KB budget; the lazy parts are not in it", () => {
    const files = initialScripts();
    expect(files.some((f) => f.startsWith("assets/taskpane-"))).toBe(true);
    // 115, not 120: headroom under the 120 KB budget, so the next pane features fit.
    expect(gzipped(files)).toBeLessThanOrEqual(115_000);
    // Text of the settings form and the agent chat: in their own chunks only.
    const first = files.map(read).join("\n");
    expect(first).not.toContain("leave empty to keep it");
    expect(first).not.toContain("New conversation");
    // Undo, renamed tabs' corrections and Move here: loaded when first needed.
    expect(first).not.toContain("Undone: ");
    expect(first).not.toContain("moved with its sheet");
    expect(first).not.toContain("is now recorded at");
  });

  it("the code the first list waits for beyond the first screen (the gateway's) is small: zod's English messages only", () => {
    const assets = readdirSync(join(DIST, "assets")).filter((f) => f.endsWith(".js"));
    const gateway = assets.find((f) => /^direct-gateway-impl-.+\.js$/.test(f));
    expect(gateway).toBeDefined();
    const initial = new Set(initialScripts());
    const extra = withStaticImports([`assets/${gateway}`]).filter((f) => !initial.has(f));
    // zod's whole API with every locale it ships would be about 80 KB here alone.
    expect(gzipped(extra)).toBeLessThanOrEqual(40_000);
    // The page asks for all of it as it is read (marked preloads), not when the early script runs
    // and then one level of imports after another; what it preloads so is that code and no more
    // (the transports' chunks besides), none of it in the first screen.
    const firstList = preloaded(true);
    expect(firstList).toEqual(expect.arrayContaining(extra));
    expect(gzipped(firstList)).toBeLessThanOrEqual(40_000);
    expect(firstList.filter((f) => initial.has(f))).toEqual([]);
    const all = assets.map((f) => read(`assets/${f}`)).join("\n");
    expect(all).toContain("Invalid input");
    for (const foreign of ["Ungültige Eingabe", "Nieprawidłowe dane wejściowe", "Entrée invalide"]) {
      expect(all).not.toContain(foreign);
    }
  });

  it("the first screen's chunks and the first list's carry V8's compile hint on their first line; the lazy chunks do not", () => {
    const initial = new Set([...initialScripts(), ...preloaded(true)]);
    const assets = readdirSync(join(DIST, "assets"))
      .filter((f) => f.endsWith(".js"))
      .map((f) => `assets/${f}`);
    const html = read("taskpane.html");
    // The chunks no page loads at first: what the pane imports dynamically.
    const pages = ["help.html", "outcome.html"].map(read).join("\n");
    const lazy = assets.filter((f) => !initial.has(f) && !pages.includes(f.slice("assets/".length)));
    expect(lazy.length).toBeGreaterThan(5);
    for (const f of initial) expect(read(f).startsWith(`${COMPILE_HINT}\n`), f).toBe(true);
    for (const f of lazy) expect(read(f), f).not.toContain(COMPILE_HINT);
    expect(html).not.toContain(COMPILE_HINT);
  });

  it("the page sets Fluent's light theme as CSS variables; the first script holds no theme", () => {
    const html = read("taskpane.html");
    const style = html.match(/<style data-theme="light">:root \{([^}]*)\}<\/style>/);
    expect(style).not.toBeNull();
    expect(style![1]).toContain("--colorNeutralForeground1: #242424;");
    expect(style![1]).toContain("--colorBrandBackground: #0f6cbd;");
    // Neither the theme's values nor Fluent's palettes they come from are in the first script (its
    // styles name the variables only: `var(--colorBrandBackground)`).
    const first = initialScripts().map(read).join("\n");
    expect(first.toLowerCase()).not.toContain("#0f6cbd");
    expect(first).not.toMatch(/colorBrandBackground["'`]?:/);
  });
});
