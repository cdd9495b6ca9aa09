/**
 * One Vite config, four targets chosen by `--mode`:
 * - `preview`: the task pane beside the simulated workbook (what `npm start` serves);
 * - `excel`: the task pane page, commands and manifest for Excel (dist/excel/);
 * - `sheets`: the sidebar (one self-contained HTML file, its lazy parts as files the server serves)
 *   and the Apps Script server (dist/sheets/);
 * - `server`: the add-in server bundled for Node (dist/server/main.js).
 * Each target's details live in tooling/<target>/build.ts; this file only dispatches. `test`
 * configures vitest.
 */
import { fileURLToPath } from "node:url";
import type { UserConfig } from "vite";
import { defineConfig } from "vitest/config";
import { excelBuild } from "./tooling/excel/build.js";
import { previewBuild } from "./tooling/preview/build.js";
import { serverBuild } from "./tooling/server/build.js";
import { sheetsBuild } from "./tooling/sheets/build.js";

const targets: Record<string, () => UserConfig> = {
  excel: excelBuild,
  sheets: sheetsBuild,
  preview: previewBuild,
  server: serverBuild,
};

export default defineConfig(({ mode }) => {
  const target = targets[mode];
  return {
    ...(target ? target() : previewBuild()),
    test: {
      // The targets set their own roots; tests always run from the repository's.
      root: fileURLToPath(new URL(".", import.meta.url)),
      include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
      environment: "node",
      testTimeout: 20_000,
      hookTimeout: 120_000,
    },
  };
});
