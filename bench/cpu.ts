/**
 * What a cold open costs the page's main thread: the renderer main thread's CPU time from the
 * navigation to the frame that first paints the list, from Chromium traces (each task's thread
 * time, `tdur`, summed), median of RUNS navigations each, alternating the pages, each in a fresh
 * browser context at Excel's pane size (350 × 800):
 *
 * - the bare React page (bench/bare-react): React 19 renders a list it fetches from its server;
 * - "bare Office": the same page, plus the same Office.js stand-in the pane loads (from the same
 *   URL, mapped to loopback) and the pane's first request to the tenant (HTTPS, the list of the
 *   workbook's reports), both done before the list is fetched;
 * - the Excel pane cold (production build, settings stored; bench/excel-pane.ts);
 * - the same pane reopened in the same tab (the list kept for the workbook painted at once).
 *
 * CPU time is steady on a shared machine where wall-clock time is not (another process's work
 * delays the page without adding to its thread time): the goals are on CPU; the wall-clock ratios
 * are printed beside them, with the load average, and not judged.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { CDPSession, Page } from "playwright-core";
import { DEMO_API_KEY, DEMO_DEPLOYMENTS, demoSeed } from "../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../src/sandbox/demo-workbook.js";
import { launchBrowser } from "../test/support/browser.js";
import { OFFICE_JS } from "../test/support/office-stand-in.js";
import { pagePreloads } from "../tooling/excel/first-list.js";
import { median, navigate } from "./browser-timing.js";
import { builds } from "./builds.js";
import { EXCEL_PANE_ITEM, listKept, serveExcelPane } from "./excel-pane.js";
import { ratioLine } from "./goal.js";
import { OFFICE_FILES, serveOfficeJs } from "./office-js.js";
import { serveStatic } from "./static-server.js";

const RUNS = 7;

import { eventCpuMs, mainThreadCpuMs, PRODUCE_CODE_CACHE, type TraceEvent } from "./trace.js";

const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"];

/** Starts a trace on the page's session; the returned function ends it and gives its events. */
async function startTrace(cdp: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  const onData = (e: { value: object[] }) => {
    events.push(...(e.value as TraceEvent[]));
  };
  cdp.on("Tracing.dataCollected", onData);
  await cdp.send("Tracing.start", {
    traceConfig: { includedCategories: CATEGORIES },
    transferMode: "ReportEvents",
  });
  return async () => {
    const complete = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
    await cdp.send("Tracing.end");
    await complete;
    cdp.off("Tracing.dataCollected", onData);
    return events;
  };
}

/** The "bare Office" page: the bare page's build with Office.js and the pane's first request ahead of its list. */
function writeBareOfficePage(bareDir: string, tenantUrl: string): string {
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <link rel="icon" href="data:," />
    <title>Bare React list with Office.js and the tenant's first request (bench baseline)</title>
    <script src="${OFFICE_JS}"></script>
    <script>
      window.__beforeList = Office.onReady().then(() =>
        fetch(${JSON.stringify(
          `${tenantUrl}/api/v1/deployments/${DEMO_DEPLOYMENTS[0].id}/reports?externalWorkbookId=${encodeURIComponent(DEMO_WORKBOOK.id)}&first=100`,
        )}, { headers: { Authorization: ${JSON.stringify(`Bearer ${DEMO_API_KEY}`)} } }).then((r) => r.json()),
      );
    </script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;
  // The bare page's own module script, as its index.html loads it.
  const index = readFileSync(join(bareDir, "index.html"), "utf8");
  const tag = index.match(/<script type="module"[^>]*><\/script>/);
  if (!tag) throw new Error("the bare page's index.html has no module script");
  writeFileSync(join(bareDir, "office.html"), html.replace("</body>", `  ${tag[0]}\n  </body>`));
  return "office.html";
}

/** The Excel pane's first screen, gzipped (the rule of bench/bundle-size.ts and the dist test). */
function firstScreenGzBytes(excelDir: string): number {
  const read = (f: string) => readFileSync(join(excelDir, f), "utf8");
  const html = read("taskpane.html");
  const queue = [
    ...[...html.matchAll(/<script type="module"[^>]*\ssrc="\.\/([^"]+)"/g)].map((m) => m[1]!),
    // The first list's preloads (marked) are not the first screen's.
    ...pagePreloads(html).firstScreen,
  ];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const f = queue.shift()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const m of read(f).matchAll(
      /(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']\.\/([^"']+\.js)["']/g,
    )) {
      queue.push(`assets/${m[1]}`);
    }
  }
  return [...seen].reduce((sum, f) => sum + gzipSync(read(f), { level: 9 }).length, 0);
}

interface Sample {
  cpu: number;
  wall: number;
  /** Of `cpu`, V8 producing the code cache of the page's module scripts. */
  codeCache: number;
}

function sampleOf(events: readonly TraceEvent[], wall: number): Sample {
  return { cpu: mainThreadCpuMs(events), wall, codeCache: eventCpuMs(events, PRODUCE_CODE_CACHE) };
}

export async function run(): Promise<void> {
  const b = await builds();
  const excel = await serveExcelPane(b.excel, demoSeed(new Date()));
  const items = Array.from({ length: 12 }, (_, i) => ({
    id: `r${i}`,
    name: `Report ${i + 1}`,
    where: `Summary!B${i * 3 + 2}:E${i * 3 + 3}`,
  }));
  const officePage = writeBareOfficePage(b.bare, excel.tenantUrl);
  const bare = await serveStatic(b.bare, { "/items.json": () => items });
  const launched = await launchBrowser(excel.browserArgs);
  const officeJs = await serveOfficeJs();
  /** The real Office.js page, cold: main-thread CPU to its scripts evaluated, and the page's errors. */
  const officeCold = async (): Promise<{ cpu: number; errors: number }> => {
    const context = await launched.browser.newContext(excel.navigation.context);
    try {
      const page = await context.newPage();
      let errors = 0;
      page.on("pageerror", () => errors++);
      const cdp = await context.newCDPSession(page);
      const end = await startTrace(cdp);
      await page.goto(officeJs.url, { waitUntil: "load" });
      return { cpu: mainThreadCpuMs(await end(), "office-evaluated"), errors };
    } finally {
      await context.close();
    }
  };
  const traced = async (page: Page, go: () => Promise<number>): Promise<Sample> => {
    const cdp = await page.context().newCDPSession(page);
    try {
      const end = await startTrace(cdp);
      const wall = await go();
      return sampleOf(await end(), wall);
    } finally {
      await cdp.detach();
    }
  };
  /** A page opened cold in a fresh context, traced. */
  const cold = async (url: string, selector: string): Promise<Sample> => {
    let traceEnd: (() => Promise<TraceEvent[]>) | null = null;
    let cdp: CDPSession | null = null;
    const nav = await navigate(launched.browser, url, selector, 1, 30_000, {
      ...excel.navigation,
      prepare: async (page) => {
        cdp = await page.context().newCDPSession(page);
        traceEnd = await startTrace(cdp);
      },
    });
    try {
      return sampleOf(await traceEnd!(), nav.ms);
    } finally {
      await (cdp as CDPSession | null)?.detach();
      await nav.close();
    }
  };
  /** A page opened cold, then again in the same tab (its scripts from the cache): the second traced. */
  const coldThenAgain = async (url: string, selector: string): Promise<Sample> => {
    const nav = await navigate(launched.browser, url, selector, 1, 30_000, excel.navigation);
    try {
      return await traced(nav.page, () => nav.again(url));
    } finally {
      await nav.close();
    }
  };
  /** The Excel pane cold, then (once it has kept its list) reopened in the same tab: both traced. */
  const excelTwice = async (): Promise<[Sample, Sample]> => {
    let traceEnd: (() => Promise<TraceEvent[]>) | null = null;
    let cdp: CDPSession | null = null;
    const nav = await navigate(launched.browser, excel.url, EXCEL_PANE_ITEM, 1, 30_000, {
      ...excel.navigation,
      prepare: async (page) => {
        cdp = await page.context().newCDPSession(page);
        traceEnd = await startTrace(cdp);
      },
    });
    try {
      const first = sampleOf(await traceEnd!(), nav.ms);
      await (cdp as CDPSession | null)?.detach();
      await nav.page.waitForFunction(
        () => Object.keys(sessionStorage).some((k) => k.startsWith("reporting-platform:last-list:")),
        null,
        { timeout: 10_000, polling: 20 },
      );
      if (!(await listKept(nav.page))) throw new Error("the Excel pane kept no list");
      const again = await traced(nav.page, () => nav.again(excel.url));
      return [first, again];
    } finally {
      await nav.close();
    }
  };
  try {
    // Warm-up (not counted): the browser's own first-start costs.
    await excelTwice();
    await cold(bare.url, "li");
    await cold(bare.url + officePage, "li");
    await coldThenAgain(bare.url, "li");
    await officeCold();
    const real: { cpu: number; errors: number }[] = [];
    const s = {
      bare: [] as Sample[],
      bareAgain: [] as Sample[],
      office: [] as Sample[],
      pane: [] as Sample[],
      reopened: [] as Sample[],
    };
    for (let i = 0; i < RUNS; i++) {
      real.push(await officeCold());
      s.bare.push(await cold(bare.url, "li"));
      s.bareAgain.push(await coldThenAgain(bare.url, "li"));
      s.office.push(await cold(bare.url + officePage, "li"));
      const [pane, reopened] = await excelTwice();
      s.pane.push(pane);
      s.reopened.push(reopened);
    }
    const cpu = (xs: Sample[]) => median(xs.map((x) => x.cpu));
    const wall = (xs: Sample[]) => median(xs.map((x) => x.wall));
    const list = (xs: Sample[], k: keyof Sample) => xs.map((x) => x[k].toFixed(0)).join(", ");
    const line = (label: string, xs: Sample[]) =>
      `${label}: main-thread CPU median ${cpu(xs).toFixed(0)} ms [${list(xs, "cpu")}] · wall median ${wall(xs).toFixed(0)} ms [${list(xs, "wall")}]`;
    console.log(
      `load average (1, 5, 15 min): ${loadavg()
        .map((n) => n.toFixed(2))
        .join(", ")}`,
    );
    console.log(line("bare React page", s.bare));
    console.log(
      line(
        "bare Office page (bare React + Office.js stand-in + the tenant's first request, HTTPS)",
        s.office,
      ),
    );
    console.log(line("Excel pane, cold (production build, settings stored)", s.pane));
    console.log(line("Excel pane, reopened in the same tab (the kept list)", s.reopened));
    console.log(line("bare React page, reopened in the same tab", s.bareAgain));
    const codeCache = (xs: Sample[]) => `${median(xs.map((x) => x.codeCache)).toFixed(0)} ms`;
    console.log(
      `of which V8 producing its code cache (${PRODUCE_CODE_CACHE}, Chromium's on a kept script's second run), median: bare React page ${codeCache(s.bare)}, Excel pane cold ${codeCache(s.pane)}, Excel pane reopened ${codeCache(s.reopened)}, bare React page reopened ${codeCache(s.bareAgain)}`,
    );
    const q = cpu(s.bare);
    const w = wall(s.bare);
    const wallRatio = (xs: Sample[]) => `wall-clock ratio ${(wall(xs) / w).toFixed(2)}, not judged`;
    console.log(
      `bare Office vs bare React: CPU ratio ${(cpu(s.office) / q).toFixed(2)} · ${wallRatio(s.office)}`,
    );
    console.log(
      ratioLine(
        "main-thread CPU to the first painted list, Excel pane cold vs bare React page",
        cpu(s.pane) / q,
        1.8,
        wallRatio(s.pane),
      ),
    );
    console.log(
      ratioLine(
        "main-thread CPU to the first painted list, Excel pane reopened vs bare React page",
        cpu(s.reopened) / q,
        1.0,
        wallRatio(s.reopened),
      ),
    );
    console.log(
      `main-thread CPU, Excel pane reopened vs bare React page reopened (like for like: both second runs of cached scripts): ratio ${(cpu(s.reopened) / cpu(s.bareAgain)).toFixed(2)} (no goal)`,
    );
    // Office.js beside the pane's own: what a cold open in Excel on Windows also downloads and runs.
    const realCpu = median(real.map((r) => r.cpu));
    const paneGz = firstScreenGzBytes(b.excel);
    console.log(
      `Office.js ${officeJs.version} from @microsoft/office-js (${OFFICE_FILES.join(" + ")}): ${(officeJs.gzBytes / 1000).toFixed(1)} KB gzipped; main-thread CPU to both evaluated (a page of their own, outside Office${real[0]?.errors ? `, ${real[0].errors} page error(s) from finding no host` : ""}) median ${realCpu.toFixed(0)} ms [${real.map((r) => r.cpu.toFixed(0)).join(", ")}]`,
    );
    console.log(
      `the pane's own: ${(paneGz / 1000).toFixed(1)} KB gzipped first screen, main-thread CPU to the first list ${cpu(s.pane).toFixed(0)} ms (the Office.js stand-in's share included); the pane's share of a cold open: ${((100 * paneGz) / (paneGz + officeJs.gzBytes)).toFixed(0)}% of the bytes, ${((100 * cpu(s.pane)) / (cpu(s.pane) + realCpu)).toFixed(0)}% of the main-thread CPU`,
    );
  } finally {
    await officeJs.close();
    await launched.close();
    await bare.close();
    await excel.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
