/**
 * early.ts, the Excel page's first script:
 * - the right-click command before the pane's core is ready: commands wait, in order, and run once
 *   it is; if the core never loads, each waiting command is still completed (Office otherwise shows
 *   it as running) and the user is told once;
 * - what the script starts on its own (with a stand-in Office and page): the command associated
 *   once Office is ready, the minute's start limit; nothing at all without a page;
 * - the built page (dist/excel, `npm run build` first) loads it on its own, ahead of the pane: an
 *   async module whose whole graph is a few hundred bytes and never reaches the pane's chunk, so a
 *   cold right-click does not wait for the pane's code (page.test.ts shows it working in Chromium).
 *   It is the page's one early script: it also starts the first list's reads, through a dynamic
 *   import of start.ts's chunk, which the page preloads, so they do not wait for the pane's code
 *   either (first-requests.test.ts shows the request going out while the pane's module is held).
 *   The pane's module imports the same chunk for the queue, not a copy of it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createEarlyCommand, DISCONNECT_HERE_ACTION } from "../../../src/hosts/excel/early.js";

function event(name: string, log: string[]) {
  return { name, completed: () => log.push(`completed ${name}`) };
}

describe("the early command", () => {
  it("queues commands that arrive before the core is ready and runs them in order, then runs later ones at once", () => {
    const log: string[] = [];
    const early = createEarlyCommand<ReturnType<typeof event>>();
    early.invoke(event("first", log));
    early.invoke(event("second", log));
    expect(early.waiting).toBe(2);
    expect(early.isReady).toBe(false);
    expect(log).toEqual([]);
    early.ready((e) => log.push(`ran ${e.name}`));
    early.invoke(event("third", log));
    expect(log).toEqual(["ran first", "ran second", "ran third"]);
    expect(early.isReady).toBe(true);
    expect(early.waiting).toBe(0);
  });

  it("completes every waiting command and tells the user once when the core fails to load", () => {
    const log: string[] = [];
    const early = createEarlyCommand<ReturnType<typeof event>>();
    early.invoke(event("first", log));
    early.invoke(event("second", log));
    early.failed(() => log.push("told"));
    early.invoke(event("late", log));
    expect(log).toEqual(["told", "completed first", "completed second", "told", "completed late"]);
  });
});

type Handler = (event: { completed(): void }) => void;

/** A stand-in page (the two elements early.ts writes to) and Office, before early.ts runs again. */
function page() {
  const notice = { textContent: "", dataset: {} as Record<string, string>, hidden: true };
  const outside = { classes: [] as string[], classList: { add: (c: string) => outside.classes.push(c) } };
  vi.stubGlobal("document", {
    getElementById: (id: string) => ({ notice, outside })[id] ?? null,
  });
  const office = {
    ready: null as ((info?: { host?: unknown }) => void) | null,
    associated: new Map<string, Handler>(),
  };
  vi.stubGlobal("Office", {
    onReady: (callback: (info?: { host?: unknown }) => void) => {
      office.ready = callback;
    },
    actions: { associate: (id: string, handler: Handler) => office.associated.set(id, handler) },
  });
  return { notice, outside, office };
}

/** early.ts run afresh, as the page's script runs it. */
async function runEarly() {
  vi.resetModules();
  return import("../../../src/hosts/excel/early.js");
}

describe("what early.ts starts", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("starts nothing without a page (Node: no Office, no document), so the queue can be imported anywhere", async () => {
    vi.useFakeTimers();
    await runEarly();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("associates the command once Office is ready; a minute later what waits is completed and the page says so", async () => {
    vi.useFakeTimers();
    const { notice, office } = page();
    const early = await runEarly();
    expect(office.associated.size).toBe(0);
    office.ready?.({ host: "Excel" });
    const command = office.associated.get(DISCONNECT_HERE_ACTION);
    expect(command).toBeDefined();
    const log: string[] = [];
    command?.(event("right-click", log));
    expect(early.disconnectHereEarly.waiting).toBe(1);
    vi.advanceTimersByTime(59_999);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(["completed right-click"]);
    expect(notice).toMatchObject({
      textContent: "The Reports pane could not start. Close it and open it again.",
      dataset: { ok: "false" },
      hidden: false,
    });
  });

  it("keeps quiet after the minute when the pane's code was ready in time", async () => {
    vi.useFakeTimers();
    const { notice, office } = page();
    const early = await runEarly();
    office.ready?.({ host: "Excel" });
    const log: string[] = [];
    early.disconnectHereEarly.ready((e) => log.push(`ran ${(e as { name?: string }).name}`));
    office.associated.get(DISCONNECT_HERE_ACTION)?.(event("right-click", log));
    vi.advanceTimersByTime(60_000);
    expect(log).toEqual(["ran right-click"]);
    expect(notice.hidden).toBe(true);
  });

  it("shows the page's explanation at once when Office reports no host (the page opened outside Office)", async () => {
    const { outside, office } = page();
    await runEarly();
    expect(outside.classes).toEqual([]);
    office.ready?.({});
    expect(outside.classes).toEqual(["addin-outside-now"]);
    expect(office.associated.size).toBe(0);
  });
});

const DIST = resolve(import.meta.dirname, "../../../dist/excel");

function staticImports(file: string): string[] {
  const code = readFileSync(join(DIST, file), "utf8");
  return [
    ...code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']\.\/([^"']+\.js)["']/g),
  ].map((m) => `assets/${m[1]}`);
}

describe("the early script of dist/excel/taskpane.html", () => {
  // Read in the tests, not here: the tests above need no build.
  let scripts: string[] = [];
  beforeAll(() => {
    const html = readFileSync(join(DIST, "taskpane.html"), "utf8");
    scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  });

  it("comes after Office.js and before the pane's module, as an async module: the page's one early script", () => {
    expect(scripts).toHaveLength(3);
    expect(scripts[0]).toContain('src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"');
    expect(scripts[1]).toMatch(/type="module" async .*src="\.\/assets\/command-early-[\w-]+\.js"/);
    expect(scripts[2]).toMatch(/type="module" .*src="\.\/assets\/taskpane-[\w-]+\.js"/);
    expect(scripts[2]).not.toContain("async");
  });

  const pane = () => /src="\.\/(assets\/taskpane-[\w-]+\.js)"/.exec(scripts[2]!)![1]!;

  it("loads only itself and a tiny shared chunk, never the pane's", () => {
    const graph = graphOf(/src="\.\/(assets\/command-early-[\w-]+\.js)"/.exec(scripts[1]!)![1]!);
    expect(graph.has(pane())).toBe(false);
    const bytes = [...graph].reduce((sum, f) => sum + readFileSync(join(DIST, f)).length, 0);
    expect(bytes).toBeLessThan(2_000);
  });

  it("is the page's one copy of the command's queue: the pane's module imports the early script's chunk", () => {
    const early = /src="\.\/(assets\/command-early-[\w-]+\.js)"/.exec(scripts[1]!)![1]!;
    expect(staticImports(pane())).toContain(early);
    // The queue's code (its `isReady` getter) is in that chunk alone, not copied into another.
    const holders = readdirSync(join(DIST, "assets")).filter(
      (f) => f.endsWith(".js") && readFileSync(join(DIST, "assets", f), "utf8").includes("isReady"),
    );
    expect(holders.map((f) => `assets/${f}`)).toEqual([early]);
  });

  it("starts the first load from start.ts's chunk, which the page preloads and which does not load the pane's", () => {
    const early = /src="\.\/(assets\/command-early-[\w-]+\.js)"/.exec(scripts[1]!)![1]!;
    const code = readFileSync(join(DIST, early), "utf8");
    const started = [...code.matchAll(/import\(\s*[`"']\.\/(start-[\w-]+\.js)[`"']\s*\)/g)].map(
      (m) => `assets/${m[1]}`,
    );
    expect(started).toHaveLength(1);
    const html = readFileSync(join(DIST, "taskpane.html"), "utf8");
    expect(html).toContain(`<link rel="modulepreload" crossorigin href="./${started[0]}">`);
    expect(graphOf(started[0]!).has(pane())).toBe(false);
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
