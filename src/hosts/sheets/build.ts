/**
 * The sheets target (`vite build --mode sheets`): `dist/sheets/` as an Apps Script project that
 * `clasp push` can upload as it is.
 *
 * - `Sidebar.html`: the task pane as one self-contained HTML file (vite-plugin-singlefile: scripts,
 *   styles and lazy chunks inlined), which `HtmlService.createHtmlOutputFromFile("Sidebar")` serves.
 * - `Code.js`: the server (`server.ts`), built by a second, library build once the sidebar is
 *   written: one IIFE that puts the module's exports on one global, followed by a generated
 *   top-level function per export, because Apps Script only calls top-level functions (triggers,
 *   menu items, google.script.run).
 * - `appsscript.json`: the manifest, copied from the repository root.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { build, type Plugin, type UserConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const SHEETS_OUT_DIR = `${repoRoot}dist/sheets`;

/** The global that holds the server module's exports in Code.js. */
export const SERVER_GLOBAL = "ReportingPlatformAddon";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * One top-level function per export of the server module, calling through to the bundle's global:
 * `function onOpen() { return ReportingPlatformAddon.onOpen.apply(this, arguments); }`.
 * Generated from the bundle's export list, so a new export is a new global without more code.
 */
export function appsScriptGlobalsFooter(exportNames: readonly string[], globalName = SERVER_GLOBAL): string {
  const lines = [
    "",
    "// Generated: the top-level functions Apps Script calls (one per export of server.ts).",
  ];
  for (const name of exportNames) {
    if (!IDENTIFIER.test(name) || name === "default") {
      throw new Error(`server.ts exports "${name}", which cannot be an Apps Script function name.`);
    }
    lines.push(`function ${name}() { return ${globalName}.${name}.apply(this, arguments); }`);
  }
  return `${lines.join("\n")}\n`;
}

function appsScriptGlobals(): Plugin {
  return {
    name: "reporting-platform:apps-script-globals",
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === "chunk" && chunk.isEntry) chunk.code += appsScriptGlobalsFooter(chunk.exports);
      }
    },
  };
}

/** Builds `Code.js` from `server.ts` and copies the manifest: the Apps Script half of dist/sheets. */
export async function buildSheetsServer(outDir = SHEETS_OUT_DIR): Promise<void> {
  await build({
    configFile: false,
    root: repoRoot,
    publicDir: false,
    logLevel: "warn",
    plugins: [appsScriptGlobals()],
    build: {
      outDir,
      emptyOutDir: false,
      // Apps Script's V8 runtime reads ES2019 safely; newer syntax (class fields, `??`) is lowered.
      target: "es2019",
      // Readable in the Apps Script editor, where its errors' stack traces point.
      minify: false,
      sourcemap: false,
      copyPublicDir: false,
      lib: {
        entry: `${here}server.ts`,
        formats: ["iife"],
        name: SERVER_GLOBAL,
        fileName: () => "Code.js",
      },
    },
  });
  mkdirSync(outDir, { recursive: true });
  copyFileSync(`${repoRoot}appsscript.json`, `${outDir}/appsscript.json`);
}

function appsScriptServer(): Plugin {
  return {
    name: "reporting-platform:apps-script-server",
    apply: "build",
    // After the sidebar build has emptied and written dist/sheets.
    async closeBundle() {
      // HtmlService.createHtmlOutputFromFile("Sidebar") reads Sidebar.html. (Renamed here: emitting
      // it under the new name from the bundle trips Rolldown's case-insensitive name check.)
      const written = `${SHEETS_OUT_DIR}/sidebar.html`;
      if (existsSync(written)) renameSync(written, `${SHEETS_OUT_DIR}/Sidebar.html`);
      await buildSheetsServer();
    },
  };
}

/** Build settings of the sheets target (see vite.config.ts): the sidebar, then the server. */
export function sheetsBuild(): UserConfig {
  return {
    root: here,
    base: "./",
    publicDir: false,
    plugins: [react(), viteSingleFile({ removeViteModuleLoader: true }), appsScriptServer()],
    build: {
      outDir: SHEETS_OUT_DIR,
      emptyOutDir: true,
      rolldownOptions: { input: `${here}sidebar.html` },
    },
  };
}
