/**
 * The built page loads the right-click command's script on its own, ahead of the pane: an async
 * module whose whole graph is a few hundred bytes and never reaches the pane's chunk, so a cold
 * right-click does not wait for the pane's code (page.test.ts shows it working in Chromium). The
 * first list's reads start from a second async module, which does not wait for the pane's code
 * either (first-requests.test.ts shows the request going out while the pane's module is held).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const DIST = resolve(import.meta.dirname, "../../../dist/excel");

function staticImports(file: string): string[] {
  const code = readFileSync(join(DIST, file), "utf8");
  return [
    ...code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']\.\/([^"']+\.js)["']/g),
  ].map((m) => `assets/${m[1]}`);
}

describe("the early script of dist/excel/taskpane.html", () => {
  const html = readFileSync(join(DIST, "taskpane.html"), "utf8");
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);

  it("comes after Office.js and before the pane's module, as an async module, as does the first load's", () => {
    expect(scripts).toHaveLength(4);
    expect(scripts[0]).toContain('src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"');
    expect(scripts[1]).toMatch(/type="module" async .*src="\.\/assets\/command-early-[\w-]+\.js"/);
    expect(scripts[2]).toMatch(/type="module" async .*src="\.\/assets\/first-load-[\w-]+\.js"/);
    expect(scripts[3]).toMatch(/type="module" .*src="\.\/assets\/taskpane-[\w-]+\.js"/);
    expect(scripts[3]).not.toContain("async");
  });

  const pane = () => /src="\.\/(assets\/taskpane-[\w-]+\.js)"/.exec(scripts[3]!)![1]!;

  it("loads only itself and a tiny shared chunk, never the pane's", () => {
    const graph = graphOf(/src="\.\/(assets\/command-early-[\w-]+\.js)"/.exec(scripts[1]!)![1]!);
    expect(graph.has(pane())).toBe(false);
    const bytes = [...graph].reduce((sum, f) => sum + readFileSync(join(DIST, f)).length, 0);
    expect(bytes).toBeLessThan(2_000);
  });

  it("starts the first load without the pane's chunk", () => {
    const graph = graphOf(/src="\.\/(assets\/first-load-[\w-]+\.js)"/.exec(scripts[2]!)![1]!);
    expect(graph.has(pane())).toBe(false);
    expect([...graph].some((f) => /^assets\/start-[\w-]+\.js$/.test(f))).toBe(true);
  });
});

/** `entry` and every chunk it imports statically, transitively. */
function graphOf(entry: string): Set<string> {
  const graph = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    graph.add(file);
    queue.push(...staticImports(file));
  }
  return graph;
}
