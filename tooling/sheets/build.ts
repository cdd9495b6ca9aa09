/**
 * The sheets target (`vite build --mode sheets`): `dist/sheets/` as an Apps Script project that
 * `clasp push` can upload as it is.
 *
 * - `Sidebar.html`: the task pane's first screen as one self-contained HTML file (its code inlined),
 *   which `HtmlService.createHtmlOutputFromFile("Sidebar")` serves.
 * - `SidebarChunk_*.html`: the lazily loaded parts (agent chat, markdown, settings, menus, toasts),
 *   one Apps Script HTML file per chunk, which the sidebar asks the server for when it first needs
 *   them (`loadSidebarChunks`; see sidebar-chunks.ts beside this file).
 * - `Code.js`: the server (`src/hosts/sheets/server/main.ts`), built by a second, library build once
 *   the sidebar (`src/hosts/sheets/sidebar/`) is written: one IIFE that puts the module's exports on
 *   one global, followed by a generated top-level function per export, because Apps Script only
 *   calls top-level functions (triggers, menu items, google.script.run). It knows the chunk files' names (`__SIDEBAR_CHUNKS__`), and
 *   serves no other file.
 * - `appsscript.json`: the manifest, copied from the repository root.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { build, type Plugin, type UserConfig } from "vite";
import { allowlistFromOrigins } from "../../src/hosts/sheets/server/url-fetch-allowlist.js";
import { fluentTokens } from "../fluent-tokens.js";
import { griffelBuildTimeStyles } from "../griffel.js";
import { CHUNK_FILE_PREFIX, sidebarChunks } from "./sidebar-chunks.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
/**
 * The sidebar's page (a browser page in HtmlService's iframe): its folder holds Sidebar.html, named
 * as HtmlService.createHtmlOutputFromFile("Sidebar") reads it, so the build writes (and logs) it
 * under that name.
 */
const sidebarRoot = `${repoRoot}src/hosts/sheets/sidebar/`;
/** The Apps Script server's entry: its exports are the script's global functions. */
const serverEntry = `${repoRoot}src/hosts/sheets/server/main.ts`;
/** dist/sheets, or env SHEETS_OUT_DIR (the tests build elsewhere so as not to touch dist). */
export const SHEETS_OUT_DIR = process.env.SHEETS_OUT_DIR
  ? resolve(process.env.SHEETS_OUT_DIR)
  : `${repoRoot}dist/sheets`;

/**
 * The organisation's tenant, chat and data origins (env SHEETS_TENANT_ORIGINS, comma-separated;
 * `npm run deploy:sheets -- --tenant <origin>` sets it), as urlFetchWhitelist prefixes; null when
 * none are given. Vite takes no custom flags, so the build reads the environment.
 */
export function urlFetchAllowlist(env: Record<string, string | undefined> = process.env): string[] | null {
  const list = allowlistFromOrigins([env.SHEETS_TENANT_ORIGINS ?? ""]);
  return list.length > 0 ? list : null;
}

/** A path as the log shows it: relative to the repository when inside it, else absolute. */
function shown(path: string): string {
  const rel = relative(repoRoot, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/**
 * appsscript.json for the build: the repository's, with `urlFetchWhitelist` when the build has
 * origins (required for a versioned deployment: developers.google.com/apps-script/manifest/allowlist-url).
 */
export function sheetsManifest(repoManifest: string, allowlist: readonly string[] | null): string {
  const manifest = JSON.parse(repoManifest) as Record<string, unknown>;
  if (allowlist) manifest.urlFetchWhitelist = [...allowlist];
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The global that holds the server module's exports in Code.js. */
const SERVER_GLOBAL = "ReportingPlatformAddon";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * One top-level function per export of the server module, calling through to the bundle's global:
 * `function onOpen() { return ReportingPlatformAddon.onOpen.apply(this, arguments); }`.
 * Generated from the bundle's export list, so a new export is a new global without more code.
 */
export function appsScriptGlobalsFooter(exportNames: readonly string[], globalName = SERVER_GLOBAL): string {
  const lines = [
    "",
    "// Generated: the top-level functions Apps Script calls (one per export of server/main.ts).",
  ];
  for (const name of exportNames) {
    if (!IDENTIFIER.test(name) || name === "default") {
      throw new Error(`server/main.ts exports "${name}", which cannot be an Apps Script function name.`);
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

/** The sidebar's chunk files in a built folder (Apps Script names, without ".html"), sorted. */
function sidebarChunkNames(outDir = SHEETS_OUT_DIR): string[] {
  if (!existsSync(outDir)) return [];
  return readdirSync(outDir)
    .filter((f) => f.startsWith(CHUNK_FILE_PREFIX) && f.endsWith(".html"))
    .map((f) => f.slice(0, -".html".length))
    .sort();
}

/**
 * Builds `Code.js` from `server/main.ts` and copies the manifest: the Apps Script half of dist/sheets.
 * Built after the sidebar: the names of its chunk files are compiled in. The organisation's origins
 * are read from `env` (SHEETS_TENANT_ORIGINS), and the manifest's line goes to `log`.
 */
export async function buildSheetsServer(
  outDir = SHEETS_OUT_DIR,
  env: Record<string, string | undefined> = process.env,
  log: (line: string) => void = (line) => process.stdout.write(line),
): Promise<void> {
  const allowlist = urlFetchAllowlist(env);
  await build({
    configFile: false,
    root: repoRoot,
    publicDir: false,
    logLevel: "warn",
    plugins: [appsScriptGlobals()],
    define: {
      __SIDEBAR_CHUNKS__: JSON.stringify(sidebarChunkNames(outDir)),
      __URL_FETCH_ALLOWLIST__: JSON.stringify(allowlist),
    },
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
        entry: serverEntry,
        formats: ["iife"],
        name: SERVER_GLOBAL,
        fileName: () => "Code.js",
      },
    },
  });
  mkdirSync(outDir, { recursive: true });
  const manifestPath = resolve(outDir, "appsscript.json");
  writeFileSync(manifestPath, sheetsManifest(readFileSync(`${repoRoot}appsscript.json`, "utf8"), allowlist));
  log(
    allowlist
      ? `Wrote ${shown(manifestPath)} with urlFetchWhitelist ${allowlist.join(" ")}\n`
      : `Wrote ${shown(manifestPath)} without urlFetchWhitelist (a test deployment only; for a versioned one set SHEETS_TENANT_ORIGINS: docs/google-sheets.md)\n`,
  );
}

function appsScriptServer(): Plugin {
  return {
    name: "reporting-platform:apps-script-server",
    apply: "build",
    // After the sidebar build has emptied and written dist/sheets.
    async closeBundle() {
      await buildSheetsServer();
    },
  };
}

/** Build settings of the sheets target (see vite.config.ts): the sidebar, then the server. */
export function sheetsBuild(): UserConfig {
  // A bad origin stops the build here, before anything is written, with a message naming it.
  urlFetchAllowlist();
  return {
    root: sidebarRoot,
    base: "./",
    publicDir: false,
    plugins: [react(), griffelBuildTimeStyles(), fluentTokens(), sidebarChunks(), appsScriptServer()],
    build: {
      outDir: SHEETS_OUT_DIR,
      emptyOutDir: true,
      // The lazy chunks are fetched by the registry, not by <link rel="modulepreload">.
      modulePreload: false,
      rolldownOptions: {
        input: `${sidebarRoot}Sidebar.html`,
        // CommonJS chunks: each one becomes a factory of the sidebar's module registry.
        output: { format: "cjs" },
        // Nothing reads import.meta in the sidebar (Vite's import helper names it; CommonJS has none).
        transform: { define: { "import.meta": "{}" } },
      },
    },
  };
}
