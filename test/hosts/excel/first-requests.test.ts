/**
 * The Excel pane's first list without a request waterfall: with settings stored, what the first
 * request to the tenant needs (the add-in server's config.json, and every chunk the gateway's code
 * imports) is asked for without waiting for the gateway's own chunk to arrive, and the list itself
 * without waiting for the pane's module. Proved by holding a chunk back: what does not need it must
 * be requested meanwhile. The built pane (dist/excel, `npm run build`) over the add-in server,
 * Office.js replaced by the stand-in.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAddinServer, startAddinServer } from "../../../src/addin-server/server.js";
import { parseTenantList } from "../../../src/addin-server/tenants.js";
import { DEMO_API_KEY } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { EXCEL_VIEWPORT, type LaunchedBrowser, launchBrowser, tabIn } from "../../support/browser.js";
import { OFFICE_JS, officeStandIn } from "../../support/office-stand-in.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../../.."), "dist/excel");
const ASSETS = join(DIST, "assets");
/** Nothing answers there (the discard port): nothing leaves the machine. */
const TENANT = "https://127.0.0.1:9";

let launched: LaunchedBrowser;
/** The file's tabs: each test's is closed by the next test's `openHeld`, the last with the browser. */
let context: BrowserContext;
let server: RunningAddinServer;
/** Relays to TENANT. */
let relaying: RunningAddinServer;

beforeAll(async () => {
  server = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([]) });
  relaying = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([TENANT]) });
  launched = await launchBrowser();
  context = await launched.context();
});

afterAll(async () => {
  await launched?.close();
  await Promise.all([server?.close(), relaying?.close()]);
});

/** The chunks `file` imports statically, transitively, as built ("assets/x.js"), the entry's own left out. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  const text = readFileSync(join(ASSETS, file), "utf8");
  for (const [, name] of text.matchAll(/from\s*["']\.\/([^"']+\.js)["']/g)) {
    if (name!.startsWith("taskpane-") || seen.has(name!)) continue;
    seen.add(name!);
    staticImports(name!, seen);
  }
  return seen;
}

const paths = (urls: string[]) => urls.map((u) => new URL(u).pathname);

describe("the Excel pane's first requests", () => {
  it("asks for config.json and every chunk the gateway imports while the gateway's own chunk is still on its way", async () => {
    const impl = readdirSync(ASSETS).find((f) => /^direct-gateway-impl-.+\.js$/.test(f));
    expect(impl).toBeDefined();
    const needed = [...staticImports(impl!)];
    expect(needed.length).toBeGreaterThan(0);

    const { page, requested, release } = await openHeld(server, `/assets/${impl}`);
    try {
      const wanted = ["/config.json", ...needed.map((n) => `/assets/${n}`)];
      await expect
        .poll(() => wanted.filter((w) => !paths(requested).includes(w)), { timeout: 10_000 })
        .toEqual([]);
      expect(paths(requested)).toContain(`/assets/${impl}`);
      // The tenant's connection is opened meanwhile (a hint; nothing is sent to it yet).
      await page.locator(`link[rel="preconnect"][href="${TENANT}"]`).waitFor({ state: "attached" });
      expect(requested.filter((r) => r.startsWith(TENANT))).toEqual([]);
    } finally {
      release();
    }
  });

  it("asks the tenant for this workbook's reports while the pane's own module is still on its way", async () => {
    const pane = readdirSync(ASSETS).find((f) => /^taskpane-.+\.js$/.test(f));
    expect(pane).toBeDefined();
    const { page, requested, release } = await openHeld(server, `/assets/${pane}`);
    try {
      const listRequest = `${TENANT}/api/v1/deployments/1/reports?externalWorkbookId=${encodeURIComponent(DEMO_WORKBOOK.id)}`;
      await expect
        .poll(() => requested.some((r) => r.startsWith(listRequest)), { timeout: 10_000 })
        .toBe(true);
      // The pane has not rendered: its module is the one held back.
      // No pane yet: #root holds only the page's static explanation for use outside Office.
      expect(await page.locator("#root > :not(#outside)").count()).toBe(0);
    } finally {
      release();
    }
  });

  it("opens no connection to a tenant the add-in server relays", async () => {
    const impl = readdirSync(ASSETS).find((f) => /^direct-gateway-impl-.+\.js$/.test(f))!;
    const { page, requested, release } = await openHeld(relaying, `/assets/${impl}`);
    try {
      await expect.poll(() => paths(requested).includes("/config.json")).toBe(true);
      // Once the pane has its settings and the relay's list, the list request goes through the relay.
      release();
      await expect.poll(() => paths(requested).some((r) => r.startsWith("/relay/127.0.0.1:9/"))).toBe(true);
      expect(await page.locator('link[rel="preconnect"]').count()).toBe(0);
    } finally {
      release();
    }
  });
});

/** The pane's page with settings for TENANT stored, the file at `heldPath` held until `release`. */
async function openHeld(on: RunningAddinServer, heldPath: string) {
  const page = await tabIn(context, new URL(on.url).origin, EXCEL_VIEWPORT);
  const requested: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  const standIn = await officeStandIn({
    workbookName: DEMO_WORKBOOK.name,
    custom: { ReportingPlatformWorkbookId: DEMO_WORKBOOK.id },
    sheets: DEMO_WORKBOOK.sheets.map(({ id, name }) => ({ id, name })),
    active: { sheet: "Summary", cell: "B2" },
    storage: {
      "reporting-platform/settings": JSON.stringify({
        tenantUrl: TENANT,
        apiKey: DEMO_API_KEY,
        deploymentId: 1,
      }),
    },
  });
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  const origin = new URL(on.url).origin;
  await page.route("**/*", async (route) => {
    const target = route.request().url();
    if (target === OFFICE_JS) return route.fulfill({ contentType: "text/javascript", body: standIn });
    if (new URL(target).pathname === heldPath) await held;
    if (target.startsWith(origin)) return route.continue();
    return route.abort();
  });
  await page.goto(`${on.url}/taskpane.html`, { waitUntil: "commit" });
  return { page, requested, release };
}
