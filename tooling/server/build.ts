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
 * The two command-line programs (the add-in server's and the sandbox's) bundled for Node 20 into
 * `outDir` as `<name>.js`, as serverBuild bundles the add-in server: the same bundler, target and
 * externals. The tests spawn these instead of `tsx` over the sources (test/support/cli-bundles.ts):
 * Node on plain JavaScript, and the code as the bundler emits it. `outDir` must sit two folders
 * below the repository (the add-in server finds dist/excel and manifest.xml from its own place).
 */
export function cliBundleBuild(outDir: string, inputs: Record<string, string>): InlineConfig {
  return {
    root: ROOT,
    configFile: false,
    publicDir: false,
    logLevel: "warn",
    ssr: { target: "node", noExternal: [] },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      sourcemap: false,
      rolldownOptions: {
        input: Object.fromEntries(
          Object.entries(inputs).map(([name, source]) => [name, resolve(ROOT, source)]),
        ),
        external: isExternal,
        output: { format: "es", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
      },
    },
  };
}

export function serverBuild(): UserConfig {
  return {
    root: ROOT,
    publicDir: false,
    plugins: [manifestTemplate()],
    ssr: { target: "node", noExternal: [] },
    build: {
      ssr: resolve(ROOT, "src/addin-server/cli.ts"),
      outDir: SERVER_OUT_DIR,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      sourcemap: true,
      rolldownOptions: {
        external: isExternal,
        output: { format: "es", entryFileNames: "main.js", chunkFileNames: "[name]-[hash].js" },
      },
    },
  };
}
