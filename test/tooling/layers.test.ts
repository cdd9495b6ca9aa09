/**
 * The layers of docs/architecture.md, read from the imports (static, type-only and dynamic ones):
 * - the core imports nothing outside src/core;
 * - the pane (taskpane/) imports of src/ only the core, the host interface (src/hosts/host.ts) and
 *   the first screen's reads (src/hosts/list-cache.ts);
 * - nothing under src/ imports the pane, but the three pages that mount it, each importing
 *   taskpane/mount.tsx alone: a host that reached into the pane's modules would tie the pane's
 *   changes to it (and the Excel page's early scripts to the pane's chunk).
 */
import { describe, expect, it } from "vitest";
import { importGraph } from "../support/import-graph.js";

/** The pages that mount the pane: the one module of taskpane/ each may import. */
const PAGES_MOUNTING_THE_PANE = new Set([
  "src/hosts/excel/main.ts",
  "src/hosts/sheets/sidebar/sidebar.tsx",
  "src/hosts/preview/main.tsx",
]);
const PANE_ENTRY = "taskpane/mount.tsx";
const PANE_MAY_IMPORT = (target: string) =>
  target.startsWith("src/core/") || target === "src/hosts/host.ts" || target === "src/hosts/list-cache.ts";

/** Each import that crosses a layer the wrong way, as "from -> to". */
function violations(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const wrong = from.startsWith("src/core/")
        ? !to.startsWith("src/core/")
        : from.startsWith("taskpane/")
          ? to.startsWith("src/") && !PANE_MAY_IMPORT(to)
          : from.startsWith("src/") &&
            to.startsWith("taskpane/") &&
            !(PAGES_MOUNTING_THE_PANE.has(from) && to === PANE_ENTRY);
      if (wrong) found.push(`${from} -> ${to}`);
    }
  }
  return found.sort();
}

describe("layers", () => {
  it("finds an import that goes the wrong way (the check can fail)", () => {
    const graph = new Map([
      ["src/core/a.ts", ["src/core/b.ts", "src/hosts/host.ts"]],
      ["src/hosts/excel/start.ts", ["taskpane/listCache.ts", "src/hosts/list-cache.ts"]],
      ["src/hosts/excel/main.ts", ["taskpane/mount.tsx", "taskpane/App.tsx"]],
      ["src/hosts/sheets/sidebar/sidebar.tsx", ["taskpane/mount.tsx"]],
      ["taskpane/App.tsx", ["src/core/schema.ts", "src/hosts/host.ts", "src/hosts/excel/host.ts"]],
      ["taskpane/mount.tsx", ["src/hosts/list-cache.ts", "taskpane/App.tsx"]],
    ]);
    expect(violations(graph)).toEqual([
      "src/core/a.ts -> src/hosts/host.ts",
      "src/hosts/excel/main.ts -> taskpane/App.tsx",
      "src/hosts/excel/start.ts -> taskpane/listCache.ts",
      "taskpane/App.tsx -> src/hosts/excel/host.ts",
    ]);
  });

  it("src/ and taskpane/ import each other only as docs/architecture.md says, dynamic imports included", () => {
    const graph = importGraph({ dynamic: true });
    expect(graph.size).toBeGreaterThan(100);
    // The pages do mount the pane: the exception is in use, and the graph reads their imports.
    for (const page of PAGES_MOUNTING_THE_PANE) expect(graph.get(page)).toContain(PANE_ENTRY);
    expect(violations(graph)).toEqual([]);
  });
});
