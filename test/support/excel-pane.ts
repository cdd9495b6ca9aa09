/**
 * The built Excel pane (dist/excel) as Excel opens it, for the Chromium tests of whole flows
 * (page.place.test.ts, page.refresh.test.ts): per test, a fresh `--no-cors` sandbox with the demo's
 * data and the add-in server listing it (every call goes through its relay); Office.js is the
 * stand-in with cells held to Excel's rules (excel-cells.ts). `excelPaneHarness()` registers the
 * file's hooks (one browser and one certificate per file, the sandbox and server stopped after each
 * test) and returns `openPane`.
 *
 * The sandbox runs in the test's own process (`startSandbox`, what `npm run sandbox` runs, with the
 * options its `--no-cors` flag sets), and the page reaches it over loopback HTTP only, as it would a
 * spawned one: a process per test cost a Node start and a TypeScript compile of the sandbox each
 * time, and the CLI itself is tested in test/sandbox/cli.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { devCertificate } from "../../src/addin-server/dev-certs.js";
import { type RunningAddinServer, startAddinServer } from "../../src/addin-server/server.js";
import { parseTenantList } from "../../src/addin-server/tenants.js";
import { WORKBOOK_ID_PROPERTY } from "../../src/hosts/excel/host.js";
import { DEMO_AGENT_KEY, DEMO_API_KEY, demoSeed } from "../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../src/sandbox/demo-workbook.js";
import { parseSeed, type Seed } from "../../src/sandbox/seed.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { EXCEL_VIEWPORT, type LaunchedBrowser, launchBrowser, tabIn } from "./browser.js";
import { excelCellsScript, OFFICE_JS, officeStandIn } from "./office-stand-in.js";
import type { SpawnedSandbox } from "./spawn-sandbox.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "dist/excel");

export interface ExcelPane {
  page: Page;
  sandbox: SpawnedSandbox;
  /** Calls the page made to the tenant itself (none: a `--no-cors` tenant refuses them). */
  direct: string[];
  relayed: string[];
  errors: string[];
  /** The scripts of the workers the page started. */
  workers: string[];
}

export interface OpenExcelPane {
  /** The active cell (A1 by default), of `sheet` (Summary by default). */
  cell?: string;
  sheet?: string;
  /** The workbook's document properties (the demo workbook's id by default). */
  custom?: Record<string, string>;
  /** Tabs renamed in Excel since the placements were recorded (old name to new; ids kept). */
  renamed?: Record<string, string>;
  /** The sandbox's data (the demo's by default). */
  seed?: Seed;
  /** What happens to the tenant before the pane opens (a report placed, a query changed). */
  before?: (sandbox: SpawnedSandbox) => Promise<void>;
  /** Requests the page makes, seen (and held, or let through) before they reach the add-in server. */
  intercept?: (route: Route) => Promise<void> | undefined;
}

export function excelPaneHarness(): (options?: OpenExcelPane) => Promise<ExcelPane> {
  let certs: string;
  let tls: Awaited<ReturnType<typeof devCertificate>>;
  let launched: LaunchedBrowser;
  let context: BrowserContext;
  let cells: string;
  /** What each test started, stopped after it. */
  let running: { sandbox: SpawnedSandbox; server: RunningAddinServer } | null = null;

  beforeAll(async () => {
    certs = mkdtempSync(join(tmpdir(), "excel-pane-certs-"));
    [tls, cells] = await Promise.all([devCertificate(certs), excelCellsScript()]);
    launched = await launchBrowser();
    context = await launched.context();
  });

  afterEach(async () => {
    if (!running) return;
    await Promise.all([running.server.close(), running.sandbox.stop()]);
    running = null;
  });

  afterAll(async () => {
    await launched?.close();
    rmSync(certs, { recursive: true, force: true });
  });

  return async (options = {}) => {
    const sandbox = await startNoCorsSandbox(options.seed);
    const server = await startAddinServer({
      distDir: DIST,
      port: 0,
      tenants: parseTenantList([sandbox.url]),
      tls,
    });
    running = { sandbox, server };
    await options.before?.(sandbox);
    // A new tab with the server's origin as a new context would have it; the last test's tab closed.
    const page = await tabIn(context, new URL(server.url).origin, EXCEL_VIEWPORT);
    const pane: ExcelPane = { page, sandbox, direct: [], relayed: [], errors: [], workers: [] };
    const relayHost = new URL(sandbox.url).host;
    page.on("request", (r) => {
      if (r.url().startsWith(`${sandbox.url}/`)) pane.direct.push(`${r.method()} ${r.url()}`);
      if (r.url().includes(`/relay/${relayHost}/`)) pane.relayed.push(`${r.method()} ${r.url()}`);
    });
    page.on("pageerror", (e) => pane.errors.push(e.message));
    page.on("worker", (w) => pane.workers.push(w.url()));
    const standIn = await officeStandIn({
      workbookName: DEMO_WORKBOOK.name,
      custom: options.custom ?? { [WORKBOOK_ID_PROPERTY]: DEMO_WORKBOOK.id },
      sheets: DEMO_WORKBOOK.sheets.map(({ id, name }) => ({ id, name: options.renamed?.[name] ?? name })),
      active: { sheet: options.sheet ?? "Summary", cell: options.cell ?? "A1" },
      storage: {
        "reporting-platform/settings": JSON.stringify({
          tenantUrl: sandbox.url,
          apiKey: DEMO_API_KEY,
          deploymentId: 1,
          chatUrl: `${sandbox.url}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
          agentApiKey: DEMO_AGENT_KEY,
          externalId: "ann@example.com",
        }),
      },
      cells,
    });
    const origin = new URL(server.url).origin;
    await page.route("**/*", async (route) => {
      const target = route.request().url();
      if (target === OFFICE_JS) return route.fulfill({ contentType: "text/javascript", body: standIn });
      const held = options.intercept?.(route);
      if (held) return held;
      if (target.startsWith(origin) || target.startsWith(sandbox.url)) return route.continue();
      return route.abort();
    });
    await page.goto(`${server.url}/taskpane.html`);
    await page.getByRole("heading", { name: /Reports in this workbook/ }).waitFor();
    return pane;
  };
}

/**
 * A sandbox as `npm run sandbox -- --port 0 --quiet --no-cors --chat-delay-ms 5 [--seed file]` starts
 * one (src/sandbox/cli.ts): the seed read as the CLI reads its file (`parseSeed` of its JSON), the
 * demo's data counted back from now without one.
 */
async function startNoCorsSandbox(seed?: Seed): Promise<SpawnedSandbox> {
  const running = await startSandbox({
    port: 0,
    host: "127.0.0.1",
    seed: seed ? parseSeed(JSON.stringify(seed)) : demoSeed(new Date()),
    chatDelayMs: 5,
    cors: false,
  });
  return { url: running.url, stop: () => running.close() };
}
