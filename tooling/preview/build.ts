import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import type { UserConfig } from "vite";
import { fluentTokens } from "../fluent-tokens.js";
import { griffelBuildTimeStyles } from "../griffel.js";

/** The folder of the preview page (its index.html): src/hosts/preview/. */
export const PREVIEW_ROOT = fileURLToPath(new URL("../../src/hosts/preview/", import.meta.url));

/**
 * Build settings of the preview target (see vite.config.ts): the page in src/hosts/preview/ with
 * React. `npm start` serves it through `startPreview` (server.ts beside this file), which adds the sandbox's address.
 *
 * Under vitest the root stays the project's: vite.config.ts falls back to this target for every
 * mode, and a root there would hide the test files from vitest.
 */
export function previewBuild(): UserConfig {
  const underVitest = Boolean(process.env.VITEST);
  return {
    ...(underVitest ? {} : { root: PREVIEW_ROOT }),
    base: "./",
    plugins: [react(), griffelBuildTimeStyles(), fluentTokens()],
    // The refresh worker (src/hosts/refresh-worker.ts) is a module worker: its chunks as ES modules.
    worker: { format: "es" },
    build: {
      outDir: fileURLToPath(new URL("../../dist/preview", import.meta.url)),
      emptyOutDir: true,
    },
  };
}
