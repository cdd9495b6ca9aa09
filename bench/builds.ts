/**
 * Production builds of the current sources for the bench, written to a temporary folder (never to
 * dist/, which tests and other tools read while the bench runs): the Excel task pane, the Sheets
 * sidebar (without Code.js, which the figures do not need), the preview page, and the bare React
 * page the preview is compared with. Built once per run, whichever section asks first; removed when
 * the process exits.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { build, type PluginOption, type UserConfig } from "vite";
import { excelBuild } from "../tooling/excel/build.js";
import { PREVIEW_ROOT, previewBuild } from "../tooling/preview/build.js";
import { sheetsBuild } from "../tooling/sheets/build.js";

export interface Builds {
  /** The folder holding the four builds below. */
  dir: string;
  /** taskpane.html, help.html and assets/ as `npm run build:excel` writes them. */
  excel: string;
  /** Sidebar.html and the SidebarChunk_*.html files, as `npm run build:sheets` writes them. */
  sheets: string;
  /** The preview page (`vite build --mode preview`): index.html and assets/. */
  preview: string;
  /** The bare React page (bench/bare-react). */
  bare: string;
  /** Per chunk of the Excel build ("assets/x.js"): its modules' rendered (pre-minify) lengths. */
  excelModules: Map<string, Map<string, number>>;
  /** Wall-clock time of all four builds, in ms. */
  ms: number;
}

const BARE_REACT_ROOT = fileURLToPath(new URL("./bare-react/", import.meta.url));

let pending: Promise<Builds> | null = null;

/** The builds of this run (built on the first call). */
export function builds(): Promise<Builds> {
  pending ??= buildAll();
  return pending;
}

interface ChunkInfo {
  type: string;
  fileName: string;
  modules?: Record<string, { renderedLength: number }>;
}

async function viteBuild(config: UserConfig, outDir: string): Promise<Map<string, Map<string, number>>> {
  const result = await build({
    ...config,
    configFile: false,
    logLevel: "warn",
    build: { ...config.build, outDir, emptyOutDir: true },
  });
  const modules = new Map<string, Map<string, number>>();
  for (const output of Array.isArray(result) ? result : [result]) {
    if (!output || !("output" in output)) continue;
    for (const chunk of output.output as readonly ChunkInfo[]) {
      if (chunk.type !== "chunk" || !chunk.modules) continue;
      const sizes = new Map<string, number>();
      for (const [id, m] of Object.entries(chunk.modules)) sizes.set(id, m.renderedLength);
      modules.set(chunk.fileName, sizes);
    }
  }
  return modules;
}

/** The plugins of a config, without the one named (nested plugin arrays flattened). */
function without(plugins: PluginOption[] | undefined, name: string): PluginOption[] {
  const flat = (plugins ?? []).flat(Infinity as 1) as PluginOption[];
  return flat.filter((p) => !(p && typeof p === "object" && "name" in p && p.name === name));
}

async function buildAll(): Promise<Builds> {
  const dir = mkdtempSync(join(tmpdir(), "rp-bench-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const out = {
    dir,
    excel: join(dir, "excel"),
    sheets: join(dir, "sheets"),
    preview: join(dir, "preview"),
    bare: join(dir, "bare"),
  };
  const t0 = performance.now();
  const excelModules = await viteBuild(excelBuild(), out.excel);
  // The sheets target builds Code.js into dist/sheets after the sidebar: left out here.
  const sheets = sheetsBuild();
  await viteBuild(
    { ...sheets, plugins: without(sheets.plugins, "reporting-platform:apps-script-server") },
    out.sheets,
  );
  await viteBuild({ ...previewBuild(), root: PREVIEW_ROOT }, out.preview);
  await viteBuild({ root: BARE_REACT_ROOT, base: "./", plugins: [react()], build: {} }, out.bare);
  return { ...out, excelModules, ms: performance.now() - t0 };
}
