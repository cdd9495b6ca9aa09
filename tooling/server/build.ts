/**
 * The server target (`vite build --mode server`, see vite.config.ts): the add-in server bundled for
 * Node 20 as dist/server/main.js (src/addin-server/cli.ts, same flags and environment), with its
 * dependencies left as imports (hono, @hono/node-server: production dependencies), so it runs with
 * `npm ci --omit=dev` and no TypeScript loader. office-addin-dev-certs is imported only behind
 * `--dev-certs`, in a chunk of its own that production never loads. Beside it goes the manifest
 * template the server renders /manifest.xml and /manifest.json from at start (manifests.ts).
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { InlineConfig, Plugin, UserConfig } from "vite";
import { BUNDLED_TEMPLATE_NAME } from "../../src/addin-server/manifests.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export const SERVER_OUT_DIR = resolve(ROOT, "dist/server");

/** The bare imports left to node_modules: every package, and Node's own modules. */
function isExternal(id: string): boolean {
  if (id.startsWith("node:") || builtinModules.includes(id)) return true;
  return !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0");
}

function manifestTemplate(): Plugin {
  return {
    name: "addin-server-manifest-template",
    apply: "build",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: BUNDLED_TEMPLATE_NAME,
        source: readFileSync(resolve(ROOT, "manifest.xml"), "utf8"),
      });
    },
  };
}

/**
 * A bundle for Node 20 of `entry` (one source, or named sources) into `outDir`: ES modules, not
 * minified, every package and Node's own modules left as imports. The add-in server's production
 * build and the tests' CLI bundles are both made this way, so the tests run what production runs.
 */
function nodeBundle(
  outDir: string,
  entry: string | Record<string, string>,
  entryFileNames: string,
  sourcemap: boolean,
): UserConfig {
  const named = typeof entry === "string" ? null : entry;
  return {
    root: ROOT,
    publicDir: false,
    ssr: { target: "node", noExternal: [] },
    build: {
      ssr: typeof entry === "string" ? resolve(ROOT, entry) : true,
      outDir,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      sourcemap,
      rolldownOptions: {
        ...(named
          ? {
              input: Object.fromEntries(
                Object.entries(named).map(([name, source]) => [name, resolve(ROOT, source)]),
              ),
            }
          : {}),
        external: isExternal,
        output: { format: "es", entryFileNames, chunkFileNames: "[name]-[hash].js" },
      },
    },
  };
}

/**
 * The two command-line programs (the add-in server's and the sandbox's) bundled into `outDir` as
 * `<name>.js`, as serverBuild bundles the add-in server (nodeBundle). The tests spawn these instead
 * of `tsx` over the sources (test/support/cli-bundles.ts): Node on plain JavaScript, and the code as
 * the bundler emits it. `outDir` must sit two folders below the repository (the add-in server finds
 * dist/excel and manifest.xml from its own place).
 */
export function cliBundleBuild(outDir: string, inputs: Record<string, string>): InlineConfig {
  return { ...nodeBundle(outDir, inputs, "[name].js", false), configFile: false, logLevel: "warn" };
}

export function serverBuild(): UserConfig {
  return {
    ...nodeBundle(SERVER_OUT_DIR, "src/addin-server/cli.ts", "main.js", true),
    plugins: [manifestTemplate()],
  };
}
