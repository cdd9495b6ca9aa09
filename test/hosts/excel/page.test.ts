/**
 * The built Excel pane (dist/excel) in Chromium, served over HTTPS by the add-in server, against
 * the local Reporting Platform started with `--no-cors` (a tenant that accepts no calls from the
 * add-in's page), with Office.js replaced by a stand-in (office-stand-in.ts). So what these tests
 * prove goes through the relay: listing, disconnecting, the agent's stream; a right-click on a cold
 * runtime; and what the pane says when the add-in server does not list the tenant.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devCertificate } from "../../../src/addin-server/dev-certs.js";
import { type RunningAddinServer, startAddinServer } from "../../../src/addin-server/server.js";
import { parseTenantList } from "../../../src/addin-server/tenants.js";
import { placementsOf } from "../../../src/core/placements.js";
import type { Report } from "../../../src/core/schema.js";
import { TENANT_REFUSES_PAGE_MESSAGE } from "../../../src/hosts/excel/relay-transport.js";
import { DEMO_AGENT_KEY, DEMO_API_KEY } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { EXCEL_VIEWPORT, type LaunchedBrowser, launchBrowser, tabIn } from "../../support/browser.js";
import { attemptInjection, cspViolations, recordCspViolations } from "../../support/csp.js";
import { OFFICE_JS, type OfficeStandInOptions, officeStandIn } from "../../support/office-stand-in.js";
import { type SpawnedSandbox, spawnSandbox } from "../../support/spawn-sandbox.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../../.."), "dist/excel");

let certs: string;
let launched: LaunchedBrowser;
/** The file's tabs: each test's is closed by the next test's `openPane`, the last with the browser. */
let context: BrowserContext;
let sandbox: SpawnedSandbox;
/** Lists the sandbox. */
let server: RunningAddinServer;
/** Lists no tenant. */
let bare: RunningAddinServer;

beforeAll(async () => {
  certs = mkdtempSync(join(tmpdir(), "excel-page-certs-"));
  const tls = await devCertificate(certs);
  sandbox = await spawnSandbox(undefined, { args: ["--no-cors"] });
  server = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([sandbox.url]), tls });
  bare = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([]), tls });
  launched = await launchBrowser();
  context = await launched.context();
});

afterAll(async () => {
  await launched?.close();
  await Promise.all([server?.close(), bare?.close(), sandbox?.stop()]);
  rmSync(certs, { recursive: true, force: true });
});

function savedSettings(tenant: string): Record<string, string> {
  return {
    "reporting-platform/settings": JSON.stringify({
      tenantUrl: tenant,
      apiKey: DEMO_API_KEY,
      deploymentId: 1,
      chatUrl: `${tenant}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
      agentApiKey: DEMO_AGENT_KEY,
      externalId: "ann@example.com",
    }),
  };
}

interface OpenOptions {
  server: RunningAddinServer;
  storage?: Record<string, string>;
  cell?: string;
  /** Holds the pane's module (the page's main script) until it resolves; early.ts is not held. */
  holdPane?: Promise<void>;
  /** More of the Office stand-in's options (its host profile, showAsTaskpane, a hidden pane). */
  office?: Partial<OfficeStandInOptions>;
  /** The page to open (taskpane.html by default). */
  path?: string;
  /** Office.js does not load (blocked by a proxy, or offline). */
  blockOffice?: boolean;
  /** The pane's size (Playwright's default, 1280 x 720, otherwise). */
  viewport?: { width: number; height: number };
  /** A script run in the page before its own, as Playwright's `addInitScript`. */
  initScript?: () => void;
}

/** The pane's page as Excel would open it, with Office.js from the stand-in; nothing leaves the machine. */
async function openPane(options: OpenOptions): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  // A new tab with the server's origin as a new context would have it; the last test's tab closed.
  const page = await tabIn(context, new URL(options.server.url).origin, options.viewport ?? EXCEL_VIEWPORT);
  if (options.initScript) await page.addInitScript(options.initScript);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
  page.on("pageerror", (e) => errors.push(e.message));
  const standIn = await officeStandIn({
    workbookName: DEMO_WORKBOOK.name,
    custom: { ReportingPlatformWorkbookId: DEMO_WORKBOOK.id },
    sheets: DEMO_WORKBOOK.sheets.map(({ id, name }) => ({ id, name })),
    active: { sheet: "Summary", cell: options.cell ?? "B2" },
    storage: options.storage ?? {},
    ...options.office,
  });
  const origin = new URL(options.server.url).origin;
  await page.route("**/*", async (route) => {
    const target = route.request().url();
    if (target === OFFICE_JS && options.blockOffice) return route.abort();
    if (target === OFFICE_JS) return route.fulfill({ contentType: "text/javascript", body: standIn });
    if (/\/assets\/taskpane-[^/]+\.js$/.test(target) && options.holdPane) await options.holdPane;
    if (target.startsWith(origin) || target.startsWith(sandbox.url)) return route.continue();
    return route.abort();
  });
  await recordCspViolations(page);
  // With the pane's module held back the page cannot finish loading: do not wait for it.
  await page.goto(`${options.server.url}/${options.path ?? "taskpane.html"}`, {
    waitUntil: options.holdPane ? "commit" : "load",
  });
  return { page, requests, errors };
}

async function report(id: number): Promise<Report> {
  const res = await fetch(`${sandbox.url}/api/v1/deployments/1/reports/${id}`, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  return (await res.json()) as Report;
}

/** How many placements the workbook holds now (the pane lists each once). */
async function placementsHere(): Promise<number> {
  const res = await fetch(
    `${sandbox.url}/api/v1/deployments/1/reports?externalWorkbookId=${encodeURIComponent(DEMO_WORKBOOK.id)}&first=100`,
    { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } },
  );
  const { items } = (await res.json()) as { items: Report[] };
  return items.flatMap((r) => placementsOf(r).filter((p) => p.workbookId === DEMO_WORKBOOK.id)).length;
}

async function placementIds(): Promise<string[]> {
  const res = await fetch(
    `${sandbox.url}/api/v1/deployments/1/reports?externalWorkbookId=${encodeURIComponent(DEMO_WORKBOOK.id)}&first=100`,
    { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } },
  );
  const { items } = (await res.json()) as { items: Report[] };
  return items.flatMap((r) => placementsOf(r).map((p) => `${r.id}:${p.id ?? ""}:${p.resultLocation}`));
}

describe("the Excel pane through the add-in server, against a tenant that accepts no browser calls", () => {
  it("lists, disconnects the placement under the cell and streams the agent's answer, all through the relay", async () => {
    const { page, requests, errors } = await openPane({ server, storage: savedSettings(sandbox.url) });
    await page.getByRole("heading", { name: /Reports in this workbook/ }).waitFor();
    await page.getByText("Summary!B2:F8").first().waitFor();
    // The mounted pane replaced the page's explanation for use outside Office.
    expect(await page.locator("#outside").count()).toBe(0);

    await page.getByRole("button", { name: "Disconnect report here" }).first().click();
    await page
      .getByText("Disconnected Revenue by Region from Summary!B2:F8; the cells keep their values.")
      .first()
      .waitFor();
    const ids = placementsOf(await report(101)).map((p) => p.id);
    expect(ids).not.toContain("plc-101-summary");
    expect(ids).toContain("plc-101-q1");

    await page.getByRole("tab", { name: "Ask" }).click();
    await page.getByRole("textbox", { name: "Ask the agent" }).fill("What was revenue by region in Q3?");
    await page.getByRole("button", { name: "Send" }).click();
    const answer = page.locator('[data-answer-status="done"]').first();
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.textContent()).toContain("Answered for ann@example.com");

    // The page never called the tenant itself: every call went through the relay on its own origin.
    const relayHost = new URL(sandbox.url).host;
    expect(requests.filter((r) => r.includes(`${sandbox.url}/`))).toEqual([]);
    const relayed = requests.filter((r) => r.includes(`/relay/${relayHost}/`));
    expect(relayed.some((r) => r.startsWith("GET ") && r.includes("/api/v1/deployments/1/reports"))).toBe(
      true,
    );
    expect(relayed.some((r) => r.startsWith("DELETE ") && r.endsWith("/reports/101/connect-workbook"))).toBe(
      true,
    );
    expect(relayed.some((r) => r.startsWith("POST ") && r.endsWith("/chat/stream-chat-state"))).toBe(true);
    expect(errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  it("draws the rows that fit the pane in its first frame (350 x 800), and the rest right after", async () => {
    const { page, errors } = await openPane({
      server,
      storage: savedSettings(sandbox.url),
      viewport: { width: 350, height: 800 },
      initScript: () => {
        // The frame in which the first rows are drawn: what is in the list when it is painted.
        new MutationObserver((_, observer) => {
          if (!document.querySelector("li[data-placement-key]")) return;
          observer.disconnect();
          requestAnimationFrame(() => {
            const rows = [...document.querySelectorAll("li[data-placement-key]")];
            (window as unknown as { firstFrame: unknown }).firstFrame = {
              rows: rows.length,
              bottom: rows[rows.length - 1]!.getBoundingClientRect().bottom,
            };
          });
        }).observe(document, { childList: true, subtree: true });
      },
    });
    const listed = await placementsHere();
    await page.waitForFunction(() => "firstFrame" in window);
    const first = (await page.evaluate(() => (window as unknown as { firstFrame: unknown }).firstFrame)) as {
      rows: number;
      bottom: number;
    };
    // Fewer than the list holds, yet down to the pane's bottom edge: nothing in view is missing.
    await page.waitForFunction(
      (n) => document.querySelectorAll("li[data-placement-key]").length === n,
      listed,
    );
    expect(first.rows).toBeLessThan(listed);
    expect(first.bottom).toBeGreaterThanOrEqual(800);
    expect(errors).toEqual([]);
  });

  it("draws the whole list, and nothing else, when it all fits the pane (350 x 3000)", async () => {
    const { page, errors } = await openPane({
      server,
      storage: savedSettings(sandbox.url),
      viewport: { width: 350, height: 3000 },
    });
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    const listed = await placementsHere();
    await page.waitForFunction(
      (n) => document.querySelectorAll("li[data-placement-key]").length === n,
      listed,
    );
    // The list drawn, not the pane's error screen (a first frame that kept asking for more rows
    // than the list has stopped the pane with "Maximum update depth exceeded").
    expect(await page.getByText("The task pane stopped").count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("draws in Fluent's light theme, whose variables the page's stylesheet sets (the first script carries no theme)", async () => {
    const { page, errors } = await openPane({ server, storage: savedSettings(sandbox.url) });
    await page.getByRole("heading", { name: /Reports in this workbook/ }).waitFor();
    const colours = await page.evaluate(() => ({
      variable: getComputedStyle(document.documentElement).getPropertyValue("--colorBrandBackground").trim(),
      // The pane's title is in the theme's foreground colour (not the browser's black): the
      // variable reached the pane's styles.
      title: getComputedStyle(document.querySelector("h1")!).color,
    }));
    expect(colours.variable).toBe("#0f6cbd");
    expect(colours.title).toBe("rgb(36, 36, 36)");
    expect(errors).toEqual([]);
  });

  it("a right-click on a cold runtime, before the pane's code has loaded, disconnects exactly that placement", async () => {
    const before = await placementIds();
    let release!: () => void;
    const holdPane = new Promise<void>((r) => {
      release = r;
    });
    const { page, errors } = await openPane({
      server,
      storage: savedSettings(sandbox.url),
      cell: "D20",
      holdPane,
    });
    // Office runs the command as soon as it is associated: the pane's module is still held back.
    // The page is only committed here, so the stand-in may not have run yet: poll without throwing.
    await page.waitForFunction(
      () =>
        typeof (window as never as { __office?: { associated?: Record<string, unknown> } }).__office
          ?.associated?.disconnectReportHere === "function",
    );
    const completed = page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const office = (
            window as never as { __office: { associated: Record<string, (e: unknown) => void> } }
          ).__office;
          office.associated.disconnectReportHere!({ completed: () => resolve("completed") });
        }),
    );
    // No pane yet: #root holds only the page's static explanation, still hidden.
    expect(await page.locator("#root > :not(#outside)").count()).toBe(0);
    expect(await page.locator("#outside").isVisible()).toBe(false);
    release();
    expect(await completed).toBe("completed");

    // Summary!D20 lies in Monthly Active Customers (B12:D25): that placement, and only it, is gone.
    const after = await placementIds();
    const gone = before.filter((p) => !after.includes(p));
    expect(gone).toHaveLength(1);
    expect(gone[0]).toMatch(/^102:/);
    expect(after).toHaveLength(before.length - 1);
    expect(after.every((p) => before.includes(p))).toBe(true);
    await page
      .getByText(/Disconnected Monthly Active Customers from Summary!B12:D25/)
      .first()
      .waitFor();
    expect(errors).toEqual([]);
  });

  it("with showAsTaskpane ignored (a Marketplace add-in) and the pane hidden, a right-click's outcome reaches the user in our dialog", async () => {
    const { page, errors } = await openPane({
      server,
      storage: savedSettings(sandbox.url),
      cell: "Z99",
      office: { showAsTaskpane: "ignored", paneHidden: true },
    });
    type StandIn = {
      associated: Record<string, (e: unknown) => void>;
      dialogs: { url: string; closed: boolean }[];
      shown: number;
    };
    await page.waitForFunction(
      () =>
        typeof (window as never as { __office?: StandIn }).__office?.associated?.disconnectReportHere ===
        "function",
    );
    const completed = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const office = (window as never as { __office: StandIn }).__office;
          office.associated.disconnectReportHere!({ completed: () => resolve("completed") });
        }),
    );
    expect(completed).toBe("completed");
    const { dialogs, shown } = await page.evaluate(() => {
      const office = (window as never as { __office: StandIn }).__office;
      return { dialogs: office.dialogs, shown: office.shown };
    });
    expect(shown).toBeGreaterThanOrEqual(1);
    expect(dialogs).toHaveLength(1);
    const url = new URL(dialogs[0]!.url);
    expect(url.pathname).toBe("/outcome.html");
    expect(errors).toEqual([]);

    // The dialog's own page, as Office would open it: the message as text.
    const dialog = await openPane({ server, path: `outcome.html${url.search}` });
    await dialog.page.getByText(/No report is placed at Summary!Z99/).waitFor();
    expect(await dialog.page.locator("#message").getAttribute("data-ok")).toBe("false");
    expect(dialog.errors).toEqual([]);
    expect(await cspViolations(dialog.page)).toEqual([]);
  });

  it("the outcome dialog shows its message as text, never as HTML", async () => {
    const message = '<img src="x" onerror="window.__hit=1"><b>bold</b>';
    const { page, errors } = await openPane({
      server,
      path: `outcome.html?${new URLSearchParams({ ok: "0", message })}`,
    });
    await page.locator("#message").waitFor();
    expect(await page.locator("#message").textContent()).toBe(message);
    expect(await page.locator("#message img, #message b").count()).toBe(0);
    expect(await page.evaluate(() => (window as never as { __hit?: number }).__hit)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it.each([
    ["with Office.js blocked", { blockOffice: true }],
    ["opened outside Office (Office.onReady reports no host)", { office: { host: null } }],
  ] as const)("%s, the page says what it is and what to check, at once", async (_name, how) => {
    const { page } = await openPane({ server, ...how });
    const outside = page.locator("#outside");
    // Shown by early.ts at once (the class), not by the stylesheet's 8-second fallback.
    await page.locator("#outside.addin-outside-now").waitFor({ state: "attached" });
    expect(await outside.isVisible()).toBe(true);
    await page.getByRole("heading", { name: "Reporting Platform for Excel" }).waitFor();
    const text = (await outside.textContent())!.replace(/\s+/g, " ");
    expect(text).toContain("Home > Reports");
    expect(text).toContain("https://appsforoffice.microsoft.com");
    expect(text).toMatch(/proxy/);
    expect(text).toMatch(/Content-Security-Policy/);
    // Accessible: axe finds nothing in it, at any impact level.
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"));
    const violations = await page.evaluate(async () => {
      const axe = (
        window as never as { axe: { run(el: Element): Promise<{ violations: { id: string }[] }> } }
      ).axe;
      return (await axe.run(document.getElementById("outside")!)).violations.map((v) => v.id);
    });
    expect(violations).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  it("under the oldest host the manifest allows (ExcelApi 1.7, SharedRuntime 1.1), the pane lists on its guarded paths", async () => {
    const { page, errors } = await openPane({
      server,
      storage: savedSettings(sandbox.url),
      office: { profile: "oldestAllowed" },
    });
    await page.getByRole("heading", { name: /Reports in this workbook/ }).waitFor();
    // Earlier tests disconnected some placements: any placed report shows the list is there.
    await page.getByRole("button", { name: "Disconnect report here" }).first().waitFor();
    const { checks, handlers } = await page.evaluate(() => {
      const office = (window as never as { __office: { requirementChecks: string[]; handlers: object } })
        .__office;
      return { checks: office.requirementChecks, handlers: Object.keys(office.handlers) };
    });
    // It asked before using the newer events, and so added neither (the stand-in would throw).
    expect(checks).toContain("ExcelApi 1.9");
    expect(handlers).not.toContain("selection");
    expect(handlers).not.toContain("renamed");
    expect(errors).toEqual([]);
  });

  it("says what to do when the add-in server does not list the tenant", async () => {
    const { page } = await openPane({ server: bare, storage: savedSettings(sandbox.url) });
    await page.getByText(TENANT_REFUSES_PAGE_MESSAGE).first().waitFor();
  });

  it("opens on Settings without settings, and the command completes there too", async () => {
    const { page, errors } = await openPane({ server });
    await page.getByText("Tenant URL").first().waitFor();
    const completed = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const office = (
            window as never as { __office: { associated: Record<string, (e: unknown) => void> } }
          ).__office;
          // No deadline of its own: a command that never completes fails at the test's time limit.
          office.associated.disconnectReportHere!({ completed: () => resolve("completed") });
        }),
    );
    expect(completed).toBe("completed");
    expect(errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  it("enforces its Content-Security-Policy: injected inline code does not run, plain HTTP elsewhere is not reached", async () => {
    const { page } = await openPane({ server });
    await page.getByText("Tenant URL").first().waitFor();
    const outcome = await attemptInjection(page, "http://127.0.0.1:9/collect");
    expect(outcome).toEqual({ ran: undefined, fetched: false });
    const directives = (await cspViolations(page)).map((v) => v.directive);
    expect(directives).toContain("script-src-attr");
    expect(directives).toContain("script-src-elem");
    expect(directives).toContain("connect-src");
  });
});
