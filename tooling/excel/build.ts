/**
 * The excel target (`vite build --mode excel`, see vite.config.ts): dist/excel/ holds the task pane
 * page (which is also the shared runtime's FunctionFile, so the right-click command lives in it,
 * associated by its own small first script, early.ts),
 * a help page, the icons (committed PNG files in public/assets/, copied as they are), and
 * manifest.xml with every URL built from one base URL (env ADDIN_BASE_URL, default
 * https://localhost:3000).
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { zipSync } from "fflate";
import type { Plugin, UserConfig } from "vite";
import { type ChunkLike, compileHints, staticClosure } from "../compile-hints.js";
import { fluentTokens } from "../fluent-tokens.js";
import { griffelBuildTimeStyles } from "../griffel.js";
import { FIRST_LIST_ATTRIBUTE } from "./first-list.js";
import {
  addinBaseUrl,
  readManifestValues,
  renderManifest,
  renderUnifiedManifest,
  UNIFIED_ICONS,
} from "./manifest.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The task pane's pages and icons (the runtime this target builds). */
const HERE = resolve(ROOT, "src/hosts/excel");

export const EXCEL_OUT_DIR = resolve(ROOT, "dist/excel");

/** A fixed date for the package's entries, so the same sources give the same zip. */
const PACKAGE_MTIME = new Date("2026-01-01T00:00:00Z");

/**
 * Emits the filled-in manifests next to the pages: manifest.xml (the add-in only manifest) and
 * manifest.json (the unified manifest, from the XML's values), and manifest-package.zip, the app
 * package an admin uploads for the unified manifest: manifest.json and its two icons, at the paths
 * the JSON names.
 */
function addinFiles(): Plugin {
  return {
    name: "excel-addin-files",
    apply: "build",
    generateBundle() {
      const template = readFileSync(resolve(ROOT, "manifest.xml"), "utf8");
      const { version } = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as {
        version: string;
      };
      const baseUrl = addinBaseUrl();
      const xml = renderManifest(template, { baseUrl, version });
      this.emitFile({ type: "asset", fileName: "manifest.xml", source: xml });
      const json = `${JSON.stringify(renderUnifiedManifest(readManifestValues(xml), { version }), null, 2)}\n`;
      this.emitFile({ type: "asset", fileName: "manifest.json", source: json });
      const files: Record<string, Uint8Array> = { "manifest.json": new TextEncoder().encode(json) };
      for (const icon of Object.values(UNIFIED_ICONS)) {
        files[icon] = new Uint8Array(readFileSync(resolve(HERE, "public", icon)));
      }
      this.emitFile({
        type: "asset",
        fileName: "manifest-package.zip",
        source: zipSync(files, { mtime: PACKAGE_MTIME }),
      });
    },
  };
}

/**
 * Loads early.ts, built as an entry of its own, ahead of the pane's module script in taskpane.html.
 * Vite turns the module scripts of one page into one entry, which runs only once its whole module
 * graph has loaded; an async module script runs as soon as its own small graph has, so the
 * right-click command is associated, and the first list's reads are on their way (early.ts imports
 * start.ts, whose chunk the page's `modulepreload` links have already asked for), before the pane's
 * code arrives. Office.js, a classic script earlier in the page, has run by then.
 */
/**
 * Vite wraps each dynamic import in a helper that preloads the chunk's dependencies and reports a
 * failed preload as an event. With `build.modulePreload` off (earlyScript() preloads the entry's
 * chunks; a lazy chunk's own imports load with it), the helper only calls the import, yet its code
 * (about 1 KB gzipped) sat on the first screen: this replaces it with that call.
 */
function plainDynamicImports(): Plugin {
  const helper = "\0vite/preload-helper.js";
  return {
    name: "plain-dynamic-imports",
    enforce: "pre",
    resolveId: (id) => (id === helper ? helper : null),
    load: (id) => (id === helper ? "export const __vitePreload = (load) => load();" : null),
  };
}

function earlyScript(): Plugin {
  return {
    name: "excel-early-script",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        if (!ctx.filename.endsWith("taskpane.html") || !ctx.bundle) return html;
        const tags = EARLY_ENTRIES.map((name) => {
          const chunk = Object.values(ctx.bundle!).find(
            (c) => c.type === "chunk" && c.isEntry && c.name === name,
          );
          if (!chunk) throw new Error(`the ${name} entry is missing from the excel build`);
          // async: it runs as soon as it has loaded, not in turn after the pane's deferred module.
          return `<script type="module" async crossorigin src="./${chunk.fileName}"></script>\n    `;
        });
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error("taskpane.html has no module script to load the early scripts before");
        return `${html.slice(0, at)}${tags.join("")}${preloads(ctx.bundle)}${html.slice(at)}`;
      },
    },
  };
}

const EARLY_ENTRY = "command-early";
/** The async script ahead of the pane's module: one per page. */
const EARLY_ENTRIES = [EARLY_ENTRY];
const PANE_ENTRY = "taskpane";

/**
 * The modules the first list's request needs beyond the first screen, which start.ts imports
 * dynamically when the page starts: the gateway's implementation (client, settings rules, schemas,
 * zod) and the transports. Their chunks, with what those import statically, are preloaded by the
 * page too (`FIRST_LIST_ATTRIBUTE`), so the browser asks for them as it reads the page, in one wave
 * with the pane's own, rather than when start.ts has run.
 */
const FIRST_LIST_MODULES = [
  /src[\\/]hosts[\\/]direct-gateway-impl\.ts$/,
  /src[\\/]hosts[\\/]excel[\\/]relay-transport\.ts$/,
  /src[\\/]core[\\/]transport\.ts$/,
];

/**
 * `<link rel="modulepreload">` for every chunk the pane's entry imports statically, transitively,
 * so the browser fetches them alongside the entry instead of after parsing it; then the first
 * list's chunks (FIRST_LIST_MODULES), marked. Written here rather than by Vite
 * (`build.modulePreload` is off): Vite's way also puts a preloading helper and its polyfill into
 * the entry, for the lazy chunks, which load in the background anyway.
 */
function preloads(bundle: Record<string, { type: string }>): string {
  const chunks = Object.values(bundle).filter((c) => c.type === "chunk") as unknown as ChunkLike[];
  const entry = chunks.find((c) => c.isEntry && c.name === PANE_ENTRY);
  if (!entry) throw new Error(`the ${PANE_ENTRY} entry is missing from the excel build`);
  // What the entry imports statically, transitively (the entry itself is the page's script).
  const screen = staticClosure(chunks, [PANE_ENTRY]);
  const firstScreen = [...screen].filter((f) => f !== entry.fileName);
  const firstList = [...staticClosure(chunks, [], FIRST_LIST_MODULES)].filter((f) => !screen.has(f));
  return [
    ...firstScreen.map((file) => `<link rel="modulepreload" crossorigin href="./${file}">\n    `),
    ...firstList.map(
      (file) => `<link rel="modulepreload" crossorigin href="./${file}" ${FIRST_LIST_ATTRIBUTE}>\n    `,
    ),
  ].join("");
}

/** Build settings of the excel target (see vite.config.ts). */
export function excelBuild(): UserConfig {
  return {
    root: HERE,
    // The pages are served from wherever ADDIN_BASE_URL points, possibly a sub-path.
    base: "./",
    // The icons: static PNG files, copied to dist/excel/assets/ as they are.
    publicDir: resolve(HERE, "public"),
    plugins: [
      plainDynamicImports(),
      react(),
      griffelBuildTimeStyles(),
      fluentTokens(),
      addinFiles(),
      earlyScript(),
      // The first screen: the early script, the pane's entry and what they import statically; and
      // the first list's code, which the page preloads and runs as it loads (FIRST_LIST_MODULES).
      compileHints([...EARLY_ENTRIES, PANE_ENTRY], FIRST_LIST_MODULES),
    ],
    // The refresh worker (src/hosts/refresh-worker.ts), started with `{ type: "module" }`, is built
    // as ES modules; it loads with the first refresh, never with the first screen.
    worker: { format: "es" },
    build: {
      outDir: EXCEL_OUT_DIR,
      emptyOutDir: true,
      // Office's webviews on Windows are Edge WebView2 (Chromium); Safari WebKit on Mac.
      target: "es2022",
      // The entry's imports are preloaded by earlyScript() (preloads); lazy chunks need no helper.
      modulePreload: false,
      rolldownOptions: {
        input: {
          taskpane: resolve(HERE, "taskpane.html"),
          help: resolve(HERE, "help.html"),
          // The right-click command's outcome dialog (outcome-dialog.ts).
          outcome: resolve(HERE, "outcome.html"),
          [EARLY_ENTRY]: resolve(HERE, "early.ts"),
        },
        output: {
          // The core modules the pane's first screen and its lazy parts share go in one chunk, not
          // one file each: every file the first screen loads costs its own gzip overhead.
          codeSplitting: {
            groups: [
              {
                name: "core-shared",
                test: /src[\\/]core[\\/](limits|errors|location|display|placements|placement-fields|placement-view|once)\.ts$/,
              },
              // "Disconnect report here" (its plan, flow and outcome words, one module), a lazy chunk
              // of its own: the pane loads it when it first disconnects; the right-click command and
              // Undo share it.
              { name: "disconnect-flow", test: /src[\\/]core[\\/]disconnect-flow\.ts$/ },
              // Vite's dynamic-import helper (plainDynamicImports: one line), a chunk of its own: the
              // early script imports start.ts dynamically and so needs it, and must not wait for a
              // larger shared chunk to load before it can associate the right-click command.
              { name: "import-helper", test: /preload-helper/ },
              // Small library modules the first screen and lazy parts share (Fluent's icon factory
              // and event callback, Griffel's reset styles, key names, the ARIA props of Fluent's
              // buttons): one file instead of five, each with its own gzip overhead.
              {
                name: "lib-shared",
                test: /(createFluentIcon|useEventCallback|__resetStyles|keyboard-keys|useARIAButtonProps)/,
              },
            ],
          },
        },
      },
    },
  };
}
