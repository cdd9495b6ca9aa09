/**
 * One Vite config, four targets chosen by `--mode`:
 * - `preview`: the task pane beside the simulated workbook (what `npm start` serves);
 * - `excel`: the task pane page, commands and manifest for Excel (dist/excel/);
 * - `sheets`: the sidebar (one self-contained HTML file, its lazy parts as files the server serves)
 *   and the Apps Script server (dist/sheets/);
 * - `server`: the add-in server bundled for Node (dist/server/main.js).
 * Each target's details live in tooling/<target>/build.ts; this file only dispatches. `test`
 * configures vitest: three tiers (projects), `unit` (Node), `dom` (jsdom) and `browser` (Chromium),
 * each file's tier read from the file itself (tooling/test-tiers.ts; docs/testing.md); a tier's
 * files that replace a module run apart, in `<tier>-isolated`.
 */
import { fileURLToPath } from "node:url";
import type { UserConfig } from "vite";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { excelBuild } from "./tooling/excel/build.js";
import { previewBuild } from "./tooling/preview/build.js";
import { serverBuild } from "./tooling/server/build.js";
import { sheetsBuild } from "./tooling/sheets/build.js";
import { type TestProject, testProjects } from "./tooling/test-tiers.js";

const targets: Record<string, () => UserConfig> = {
  excel: excelBuild,
  sheets: sheetsBuild,
  preview: previewBuild,
  server: serverBuild,
};

const ROOT = fileURLToPath(new URL(".", import.meta.url));

/**
 * What the DOM tier imports from node_modules, bundled once into a file each (vitest's dependency
 * optimizer) instead of loaded as the hundreds of modules they are: Fluent UI alone is most of a DOM
 * test file's import time (measured: the tier's imports 89 s before, 21 s after). react-markdown
 * and its plugins are left out: bundled for the browser, they reach for Node's `util`.
 */
const DOM_BUNDLED_DEPENDENCIES = [
  "@fluentui/react-components",
  "react",
  "react-dom",
  "react-dom/client",
  "@tanstack/react-virtual",
];

/** A vitest project of one tier (tooling/test-tiers.ts). */
function project({ name, tier, isolate, include }: TestProject): TestProjectInlineConfiguration {
  const shared = isolate ? [] : ["test/support/fresh-modules.ts"];
  const base = { name, include, isolate, setupFiles: ["test/support/waits.ts", ...shared] };
  if (tier === "dom") {
    return {
      extends: true,
      test: {
        ...base,
        setupFiles: [...base.setupFiles, "test/support/fresh-dom.ts"],
        environment: "jsdom",
        // Each file in a VM context of its own (its window, its modules, its mocks) within a process
        // that starts once per worker, not once per file (tooling/test-tiers.ts).
        pool: "vmForks",
        deps: { optimizer: { client: { enabled: true, include: DOM_BUNDLED_DEPENDENCIES } } },
      },
    };
  }
  // The unit and browser tiers spawn the CLIs (their bundles: cli-setup.ts); the browser tier also
  // shares one Chromium and one preview build (browser-setup.ts).
  const globalSetup = [
    "test/support/cli-setup.ts",
    ...(tier === "browser" ? ["test/support/browser-setup.ts"] : []),
  ];
  return { extends: true, test: { ...base, environment: "node", globalSetup } };
}

export default defineConfig(({ mode }) => {
  const target = targets[mode];
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
      // A poll ends when what it waits for shows, or with the test's own time limit: no shorter
      // deadline of its own that a busy machine overruns (the default is 1 s).
      expect: { poll: { timeout: 19_000 } },
      projects: testProjects(ROOT).map(project),
    },
  };
});
