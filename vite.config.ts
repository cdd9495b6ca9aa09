/**
 * One Vite config, four targets chosen by `--mode`:
 * - `preview`: the task pane beside the simulated workbook (what `npm start` serves);
 * - `excel`: the task pane page, commands and manifest for Excel (dist/excel/);
 * - `sheets`: the sidebar (one self-contained HTML file, its lazy parts as files the server serves)
 *   and the Apps Script server (dist/sheets/);
 * - `server`: the add-in server bundled for Node (dist/server/main.js).
 * Each target's details live in tooling/<target>/build.ts; this file only dispatches. `test`
 * configures vitest: three tiers (projects), `unit` (Node), `dom` (jsdom) and `browser` (Chromium),
 * each file's tier read from the file itself (tooling/test-tiers.ts; docs/testing.md).
 */
import { fileURLToPath } from "node:url";
import type { UserConfig } from "vite";
import { defineConfig } from "vitest/config";
import { excelBuild } from "./tooling/excel/build.js";
import { previewBuild } from "./tooling/preview/build.js";
import { serverBuild } from "./tooling/server/build.js";
import { sheetsBuild } from "./tooling/sheets/build.js";
import { testFilesByTier } from "./tooling/test-tiers.js";

const targets: Record<string, () => UserConfig> = {
  excel: excelBuild,
  sheets: sheetsBuild,
  preview: previewBuild,
  server: serverBuild,
};

const ROOT = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig(({ mode }) => {
  const target = targets[mode];
  const tiers = testFilesByTier(ROOT);
  return {
    ...(target ? target() : previewBuild()),
    test: {
      // The targets set their own roots; tests always run from the repository's.
      root: ROOT,
      environment: "node",
      // Two workers on the two cores this runs on (vitest would take one: cores - 1).
      maxWorkers: 2,
      testTimeout: 20_000,
      hookTimeout: 120_000,
      setupFiles: ["test/support/waits.ts"],
      // A poll ends when what it waits for shows, or with the test's own time limit: no shorter
      // deadline of its own that a busy machine overruns (the default is 1 s).
      expect: { poll: { timeout: 19_000 } },
      projects: [
        {
          extends: true,
          test: { name: "unit", include: tiers.unit, environment: "node" },
        },
        {
          extends: true,
          test: { name: "dom", include: tiers.dom, environment: "jsdom" },
        },
        {
          extends: true,
          test: {
            name: "browser",
            include: tiers.browser,
            environment: "node",
            globalSetup: ["test/support/browser-setup.ts"],
          },
        },
      ],
    },
  };
});
