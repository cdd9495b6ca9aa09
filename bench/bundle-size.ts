/**
 * Task pane JavaScript, gzipped (level 9, each file on its own as a server would send it), of
 * production builds of the current sources (bench/builds.ts):
 * - Excel: what the first screen downloads, i.e. the module script(s) taskpane.html loads and the
 *   chunks it `modulepreload`s (checked against the entry's static imports); the lazily imported
 *   chunks are listed apart. Office.js, loaded from Microsoft's CDN, is not ours and not counted.
 * - Sheets: what the sidebar's first screen runs is the JavaScript inlined in Sidebar.html (the
 *   module registry and the first screen's chunks); the lazy chunks are the `SidebarChunk_*.html`
 *   files the sidebar asks the server for when it first needs them, listed apart.
 * Goal: at most 115 KB of initial JavaScript in each host, headroom under the pane's 120 KB budget
 * so the next features fit; KB here is 1,000 bytes (115,000 bytes).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { FIRST_LIST_ATTRIBUTE, pagePreloads } from "../tooling/excel/first-list.js";
import { builds } from "./builds.js";
import { goalLine } from "./goal.js";

/** The pane's budget for its first screen. */
export const BUDGET_BYTES = 120_000;
/** The goal: the budget less 5 KB of headroom. */
export const HEADROOM_GOAL_BYTES = 115_000;

const gz = (data: string | Uint8Array) => gzipSync(data, { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/** The `./x.js` files a chunk imports statically (`import{..}from"./x.js"`, `import"./x.js"`). */
function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(
    /(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']\.\/([^"']+\.js)["']/g,
  )) {
    out.push(m[1]!);
  }
  return out;
}

/** "react-dom" for ".../node_modules/react-dom/cjs/x.js", "@fluentui/react-button" for scoped ones; "(this add-in)" otherwise. */
function packageOf(id: string): string {
  const at = id.lastIndexOf("node_modules/");
  if (at < 0) return id.startsWith("\0") ? "(vite runtime)" : "(this add-in)";
  const parts = id.slice(at + "node_modules/".length).split("/");
  const name = parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  // Fluent UI is many packages: one line for all of them.
  return name.startsWith("@fluentui/") && name !== "@fluentui/react-icons" ? "@fluentui/react-*" : name;
}

function attr(tag: string, name: string): string | null {
  return new RegExp(`\\s${name}=["']([^"']*)["']`).exec(tag)?.[1] ?? null;
}

export async function run(): Promise<void> {
  const b = await builds();
  console.log(
    `production builds of the current sources (excel, sheets sidebar, preview, bare React) into a temporary folder: ${(b.ms / 1000).toFixed(1)} s`,
  );

  // ---- Excel: the task pane page.
  const html = readFileSync(join(b.excel, "taskpane.html"), "utf8");
  const entries: string[] = [];
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    const src = attr(tag, "src");
    if (src?.startsWith("./") && attr(tag, "type") === "module") entries.push(src.slice(2));
  }
  // The first list's code (the gateway's, marked) is preloaded too, but not part of the first screen.
  const { firstScreen: preloads, firstList } = pagePreloads(html);
  const read = (file: string) => readFileSync(join(b.excel, file));
  // What the entries import statically, transitively: must be what the page preloads.
  const closure = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (closure.has(file)) continue;
    closure.add(file);
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
    for (const dep of staticImports(read(file).toString("utf8"))) queue.push(dir + dep);
  }
  const initial = new Set([...entries, ...preloads, ...closure]);
  const missing = [...closure].filter((f) => !entries.includes(f) && !preloads.includes(f));
  if (missing.length > 0) {
    console.log(`note: imported statically but not preloaded (counted as initial): ${missing.join(", ")}`);
  }
  const rows = [...initial].map((file) => ({ file, raw: read(file).length, gz: gz(read(file)) }));
  rows.sort((x, y) => y.gz - x.gz);
  const initialGz = rows.reduce((s, r) => s + r.gz, 0);
  const initialRaw = rows.reduce((s, r) => s + r.raw, 0);
  const lazy = readdirSync(join(b.excel, "assets"))
    .map((f) => `assets/${f}`)
    .filter((f) => f.endsWith(".js") && !initial.has(f));
  const lazyGz = lazy.reduce((s, f) => s + gz(read(f)), 0);
  const budgetLine = (label: string, bytes: number, detail: string) =>
    goalLine(
      label,
      `${kb(bytes)} gzipped (${detail})${bytes > BUDGET_BYTES ? `, over the ${kb(BUDGET_BYTES)} budget by ${kb(bytes - BUDGET_BYTES)}` : ""}`,
      `at most ${kb(HEADROOM_GOAL_BYTES)} (headroom under the ${kb(BUDGET_BYTES)} budget)`,
      bytes <= HEADROOM_GOAL_BYTES,
    );

  console.log(
    budgetLine(
      "excel task pane initial JavaScript",
      initialGz,
      `${kb(initialRaw)} raw in ${rows.length} files`,
    ),
  );
  for (const r of rows) console.log(`  ${r.file}: ${kb(r.gz)} gz (${kb(r.raw)} raw)`);
  // What fills the initial chunks: rendered (pre-minify) code by package, as a share.
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const file of initial) {
    for (const [id, length] of b.excelModules.get(file) ?? []) {
      byPackage.set(packageOf(id), (byPackage.get(packageOf(id)) ?? 0) + length);
      total += length;
    }
  }
  if (total > 0) {
    const top = [...byPackage].sort((x, y) => y[1] - x[1]).slice(0, 8);
    console.log(
      `  by package (share of the initial chunks' code before minification): ${top.map(([name, n]) => `${name} ${((100 * n) / total).toFixed(0)}%`).join(", ")}`,
    );
  }
  const firstListGz = firstList.reduce((s, f) => s + gz(read(f)), 0);
  console.log(
    `excel first list's code, preloaded by the page beside the first screen (the gateway and transports, ${FIRST_LIST_ATTRIBUTE}): ${firstList.length} files, ${kb(firstListGz)} gzipped`,
  );
  console.log(
    `excel lazily loaded chunks (not in the first screen; the first list's included): ${lazy.length} files, ${kb(lazyGz)} gzipped`,
  );

  // ---- Sheets: Sidebar.html (the first screen, self-contained) and the lazy chunk files.
  const sidebar = readFileSync(join(b.sheets, "Sidebar.html"), "utf8");
  const scriptsOf = (html: string) =>
    [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const scripts = scriptsOf(sidebar);
  const js = scripts.join("\n");
  const jsGz = gz(js);
  console.log(
    budgetLine(
      "sheets sidebar initial JavaScript (inline in Sidebar.html)",
      jsGz,
      `${kb(Buffer.byteLength(js))} raw in ${scripts.length} script(s)`,
    ),
  );
  console.log(
    `sheets Sidebar.html whole file: ${kb(gz(sidebar))} gzipped (${kb(Buffer.byteLength(sidebar))} raw)`,
  );
  const chunkRows = readdirSync(b.sheets)
    .filter((f) => /^SidebarChunk_\w+\.html$/.test(f))
    .map((file) => {
      const code = scriptsOf(readFileSync(join(b.sheets, file), "utf8")).join("\n");
      return { file, raw: Buffer.byteLength(code), gz: gz(code) };
    })
    .sort((x, y) => y.gz - x.gz);
  console.log(
    `sheets lazily loaded chunks (SidebarChunk_*.html, served by loadSidebarChunks when first needed): ${chunkRows.length} files, ${kb(chunkRows.reduce((s, r) => s + r.gz, 0))} gzipped (${kb(chunkRows.reduce((s, r) => s + r.raw, 0))} raw)`,
  );
  for (const r of chunkRows) console.log(`  ${r.file}: ${kb(r.gz)} gz (${kb(r.raw)} raw)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
