/**
 * The built dist/excel/taskpane.html in Chromium, served over HTTPS by the development server, with
 * Office.js from the CDN replaced by a stand-in (no Office here): the page starts the pane, the
 * right-click command is associated under the manifest's name, and running it completes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticServer, DIST_DIR, ensureDevCertificate } from "../../../src/hosts/excel/dev-server.js";
import { attemptInjection, cspViolations, recordCspViolations } from "../csp.js";

const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

/** Office.js as far as the page uses it, in plain JavaScript; its record is `window.__office`. */
const OFFICE_STAND_IN = `
(() => {
  const state = { syncs: 0, custom: {}, associated: {}, shown: 0, handlers: {}, storage: {} };
  window.__office = state;
  const sheet = { id: "{00000000-0001-0000-0000-000000000000}", name: "Sales" };
  const proxy = (o) => Object.assign(o, { load() { return o; } });
  const events = (name) => ({ add(h) { (state.handlers[name] ??= []).push(h); } });
  const context = {
    workbook: proxy({
      name: "Budget.xlsx",
      worksheets: proxy({
        items: [sheet],
        getActiveWorksheet: () => proxy({ ...sheet }),
        onSelectionChanged: events("selection"), onActivated: events("activated"),
        onAdded: events("added"), onDeleted: events("deleted"), onNameChanged: events("renamed"),
      }),
      getActiveCell: () => proxy({ address: "Sales!H20" }),
      properties: { custom: {
        getItemOrNullObject: (k) => proxy({ isNullObject: !(k in state.custom), value: state.custom[k] }),
        add: (k, v) => { state.custom[k] = v; },
      } },
    }),
    async sync() { state.syncs++; },
  };
  window.Excel = { run: async (batch) => batch(context) };
  window.OfficeRuntime = { storage: {
    async getItem(k) { return k in state.storage ? state.storage[k] : null; },
    async setItem(k, v) { state.storage[k] = v; },
    async removeItem(k) { delete state.storage[k]; },
  } };
  window.Office = {
    onReady(cb) {
      const info = { host: "Excel", platform: "OfficeOnline" };
      setTimeout(() => cb && cb(info));
      return Promise.resolve(info);
    },
    context: {
      requirements: { isSetSupported: (n, v) => n === "ExcelApi" && Number(String(v).split(".")[1]) <= 17 },
      officeTheme: { bodyBackgroundColor: "#FFFFFF" },
      partitionKey: "",
      document: {},
    },
    EventType: { DocumentSelectionChanged: "documentSelectionChanged" },
    addin: { async showAsTaskpane() { state.shown++; } },
    actions: { associate(name, fn) { state.associated[name] = fn; } },
  };
})();
`;

let browser: Browser;
let certs: string;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  certs = mkdtempSync(join(tmpdir(), "excel-page-certs-"));
  const server = createStaticServer(DIST_DIR, ensureDevCertificate(certs));
  await new Promise<void>((r) => server.listen(0, "localhost", r));
  url = `https://localhost:${(server.address() as AddressInfo).port}/taskpane.html`;
  close = () => new Promise((r) => server.close(() => r()));
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await close?.();
  rmSync(certs, { recursive: true, force: true });
});

describe("the built task pane page", () => {
  it("starts the pane, associates disconnectReportHere, and the command completes", async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await serveWithOfficeStandIn(page);
    await recordCspViolations(page);
    await page.goto(url);

    await page.waitForFunction(() => (document.getElementById("root")?.childElementCount ?? 0) > 0);
    await page.waitForFunction(
      () =>
        typeof (window as never as { __office: { associated: Record<string, unknown> } }).__office.associated
          .disconnectReportHere === "function",
    );
    // With no settings yet the pane opens on its Settings form.
    await page.getByText("Tenant URL").first().waitFor();

    const completed = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const office = (
            window as never as { __office: { associated: Record<string, (e: unknown) => void> } }
          ).__office;
          office.associated.disconnectReportHere!({ completed: () => resolve("completed") });
          setTimeout(() => resolve("not completed in 10 s"), 10_000);
        }),
    );
    expect(completed).toBe("completed");
    const record = await page.evaluate(
      () => (window as never as { __office: { shown: number; custom: Record<string, string> } }).__office,
    );
    expect(record.shown).toBeGreaterThanOrEqual(1); // the pane was brought into view for the outcome
    // The command read where the user is, which gave the workbook its id: the one thing it keeps.
    expect(Object.keys(record.custom)).toEqual(["ReportingPlatformWorkbookId"]);
    expect(errors).toEqual([]);
    // The page's Content-Security-Policy allowed everything the start and the command needed.
    expect(await cspViolations(page)).toEqual([]);
    await context.close();
  });

  it("enforces its Content-Security-Policy: injected inline code does not run, plain HTTP is not reached", async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await serveWithOfficeStandIn(page);
    await recordCspViolations(page);
    await page.goto(url);
    await page.getByText("Tenant URL").first().waitFor();

    const outcome = await attemptInjection(page, "http://127.0.0.1:9/collect");
    expect(outcome).toEqual({ ran: undefined, fetched: false });
    const directives = (await cspViolations(page)).map((v) => v.directive);
    expect(directives).toContain("script-src-attr");
    expect(directives).toContain("script-src-elem");
    expect(directives).toContain("connect-src");
    await context.close();
  });
});

/** Office.js from the CDN is the stand-in; the page's own files come from the server; nothing else. */
async function serveWithOfficeStandIn(page: import("playwright-core").Page) {
  await page.route("**/*", (route) => {
    const target = route.request().url();
    if (target === OFFICE_JS) return route.fulfill({ contentType: "text/javascript", body: OFFICE_STAND_IN });
    if (target.startsWith("https://localhost:")) return route.continue();
    return route.abort(); // nothing else leaves the machine
  });
}
