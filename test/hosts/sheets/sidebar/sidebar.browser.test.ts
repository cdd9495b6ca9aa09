/**
 * The whole Sheets add-on without Google: the built Sidebar.html in Chromium, whose
 * `google.script.run` calls the built Code.js (loaded as Apps Script loads it, with the fakes),
 * whose UrlFetchApp reaches the real sandbox. The flows: the pane lists the placement under the
 * active cell, refreshes it, and disconnects it; the lazily loaded parts (settings, agent chat, markdown) come
 * from the server's chunk files when first needed, and work.
 */
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_AGENT_KEY, DEMO_API_KEY } from "../../../../src/sandbox/demo.js";
import { OTHER_WORKBOOK } from "../../../../src/sandbox/demo-workbook.js";
import {
  callOk,
  cloneAcrossScriptRun,
  DIST,
  loadAppsScript,
  type World,
} from "../../../support/apps-script.js";
import { forwardTo } from "../../../support/apps-script-forward.js";
import { type LaunchedBrowser, launchBrowser, tabIn } from "../../../support/browser.js";
import { type SpawnedSandbox, spawnSandbox } from "../../../support/spawn-sandbox.js";

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
let launched: LaunchedBrowser;
/** The file's tabs: each test's is closed by the next test's `openSidebar`, the last with the browser. */
let context: BrowserContext;
let world: World;
const calls: string[] = [];
/** The names each loadSidebarChunks call asked for, one list per call. */
const chunkRequests: string[][] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  sandbox = await spawnSandbox();
  launched = await launchBrowser();
  context = await launched.context();
});

afterAll(async () => {
  await launched?.close();
  await sandbox?.stop();
});

async function openSidebar(settings: Record<string, unknown> = {}, cell = "C3"): Promise<Page> {
  world = loadAppsScript({
    spreadsheetId: OTHER_WORKBOOK.id,
    spreadsheetName: OTHER_WORKBOOK.name,
    sheets: OTHER_WORKBOOK.sheets.map((s) => ({ id: Number(s.id), name: s.name, cell: "A1" })),
    activeSheet: "KPIs",
    fetch: forwardTo(),
  });
  callOk(world, "saveSettings", {
    tenantUrl: sandbox.url,
    deploymentId: 1,
    apiKey: DEMO_API_KEY,
    ...settings,
  });
  world.select("KPIs", cell);
  calls.length = 0;
  chunkRequests.length = 0;
  // A new tab, the file pages' storage emptied as a new context's would be.
  const page = await tabIn(context, "file://", { width: 300, height: 800 });
  await page.exposeFunction("__appsScript", (name: string, args: string) => {
    calls.push(name);
    const parsed = JSON.parse(args);
    if (name === "loadSidebarChunks") chunkRequests.push([...parsed[0]]);
    return JSON.stringify(cloneAcrossScriptRun(world.global[name](...parsed)));
  });
  await page.addInitScript(FAKE_SCRIPT_RUN);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(pathToFileURL(`${DIST}/Sidebar.html`).href);
  return page;
}

describe("Sidebar.html in Chromium over the built Code.js and the sandbox", () => {
  // Before the disconnect below, which removes this placement from the sandbox.
  it("Refresh on the selected cell's card: the server writes the placement's cells from the sandbox's data API and records it; the pane says so", async () => {
    const page = await openSidebar();
    await page
      .getByText(/KPIs!A1:E7/)
      .first()
      .waitFor({ timeout: 15_000 });
    calls.length = 0;
    await page.getByRole("button", { name: "Refresh", exact: true }).first().click();
    await page
      .getByText(/Refreshed Revenue by Region at KPIs!A1:/)
      .first()
      .waitFor({ timeout: 15_000 });
    expect(calls).toContain("refreshPlacementsStep");
    expect(world.valuesOf("KPIs", "A1")[0]![0]).toEqual(expect.any(String));
    expect(world.valuesOf("KPIs", "A1")[0]![0]).not.toBe("");
    expect(world.flushes).toBeGreaterThan(0);
    expect(world.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

  it("Place a report here on an empty cell: the server writes the cells and records the placement; it is listed Up to date, not Edited, until the cells are edited by hand", async () => {
    const page = await openSidebar({}, "H2");
    const card = page.getByTestId("selected-cell-card");
    await card.getByRole("button", { name: "Place a report here" }).waitFor({ timeout: 15_000 });
    calls.length = 0;
    await card.getByRole("button", { name: "Place a report here" }).click();
    await card.getByRole("searchbox", { name: "Search reports" }).fill("forecast");
    await card.getByRole("radio", { name: "Forecast vs Actual" }).check({ timeout: 15_000 });
    await card.getByRole("button", { name: "Place", exact: true }).click();
    await page
      .getByText(/Placed Forecast vs Actual at KPIs!H2:[A-Z]+\d+\./)
      .first()
      .waitFor({ timeout: 15_000 });
    const placed = await page
      .getByText(/Placed Forecast vs Actual at KPIs!H2:[A-Z]+\d+\./)
      .first()
      .textContent();
    const where = /KPIs!H2:[A-Z]+\d+/.exec(placed ?? "")![0];
    // Its row in the list (the placement refreshed above is empty in this test's fresh sheet: Edited).
    const item = page.getByRole("listitem").filter({ hasText: where });
    expect(calls).toContain("listDeploymentReports");
    expect(calls).toContain("placeReportStep");
    expect(world.valuesOf("KPIs", "H2")[0]![0]).not.toBe("");
    const put = world.requests.filter((r) => r.method === "PUT");
    expect(put).toHaveLength(1);
    expect(JSON.parse(put[0]!.payload ?? "{}")).toMatchObject({
      host: "GOOGLE_SHEETS",
      sheetId: "184302216",
      sheetName: "KPIs",
      anchorCell: "H2",
      workbookName: OTHER_WORKBOOK.name,
      resultChecksum: { v: 1 },
    });
    // The pane compares the new placement's cells with its checksum (readCells): not Edited.
    await page.getByRole("button", { name: "Reload list" }).click();
    await page.waitForFunction(() => document.body.textContent?.includes("Up to date"), null, {
      timeout: 15_000,
    });
    await expect.poll(() => calls.includes("readCells"), { timeout: 15_000 }).toBe(true);
    await item.getByText("Up to date").first().waitFor({ timeout: 15_000 });
    expect(await item.getByText("Edited", { exact: true }).count()).toBe(0);
    // A hand edit in the sheet's third row of the result: Edited, with the row.
    world.global.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName("KPIs")
      .getRange("H4")
      .setValues([["typed"]]);
    await page.getByRole("button", { name: "Reload list" }).click();
    await item.getByText("Edited", { exact: true }).first().waitFor({ timeout: 15_000 });
    await item
      .getByText(/row 4 edited/)
      .first()
      .waitFor({ timeout: 15_000 });
    expect(pageErrors).toEqual([]);
  });

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
    // (The toast's code may come from the server too: loadSidebarChunks is not a disconnect call.)
    // (readCells is the pane's hand-edit check of the list's Up to date placements.)
    expect(
      calls.filter((c) => c !== "getActiveContext" && c !== "loadSidebarChunks" && c !== "readCells"),
    ).toEqual(["disconnectPlacement"]);
    expect(world.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    if (process.env.SHEETS_SIDEBAR_SCREENSHOT)
      await page.screenshot({ path: process.env.SHEETS_SIDEBAR_SCREENSHOT });
    expect(pageErrors).toEqual([]);
  });

  it("loads its lazy parts from the server: chat and Settings prefetched once the list has painted, markdown when first needed; each chunk once, and they work", async () => {
    const page = await openSidebar({
      chatUrl: `${sandbox.url}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
      agentApiKey: DEMO_AGENT_KEY,
      externalId: "ann.lee@example.com",
    });
    const requested = () => chunkRequests.flat();
    const named = (part: string) => (name: string) => name.startsWith(`SidebarChunk_${part}_`);
    await page.getByRole("heading", { name: /Reports in this/ }).waitFor({ timeout: 15_000 });
    // Once the first list has painted, the pane prefetches what it may need next when the browser
    // is idle (lazy.tsx): the chat and Settings come through the server then, before any click.
    await expect
      .poll(() => ["AgentChat", "SettingsPanel"].filter((part) => requested().some(named(part))), {
        timeout: 15_000,
      })
      .toEqual(["AgentChat", "SettingsPanel"]);
    // Not prefetched, not yet needed, not yet loaded: markdown (an answer) and the dark theme.
    for (const part of ["markdown", "darkTheme"]) {
      expect(requested().some(named(part)), part).toBe(false);
    }
    const askTab = page.getByRole("tab", { name: "Ask" });
    await askTab.click();
    const ask = page.getByRole("textbox", { name: "Ask the agent" });
    await ask.waitFor({ timeout: 15_000 });

    // Settings: its code is there already (prefetched): no call; the form works.
    let before = chunkRequests.length;
    await page.getByRole("button", { name: "Settings" }).click();
    const tenant = page.getByRole("textbox", { name: "Tenant URL" });
    await tenant.waitFor({ timeout: 15_000 });
    expect(await tenant.inputValue()).toBe(sandbox.url);
    expect(chunkRequests.length).toBe(before);
    await page.getByRole("textbox", { name: "E-mail" }).fill("ann.lee@example.com");
    await page.getByRole("button", { name: "Save" }).click();
    // Saved, the pane goes back to where it was.
    await askTab.click();
    await ask.waitFor({ timeout: 15_000 });
    expect(calls).toContain("saveSettings");
    expect(callOk<{ email: string }>(world, "getSettings").email).toBe("ann.lee@example.com");
    // Opened again: its code is there already.
    before = chunkRequests.length;
    await page.getByRole("button", { name: "Settings" }).click();
    await tenant.waitFor({ timeout: 15_000 });
    expect(chunkRequests.length).toBe(before);
    await page.getByRole("button", { name: "Back" }).click();

    // The agent's answer is markdown (a table): its renderer comes in one more call.
    await ask.fill("What was revenue by region in Q3?");
    before = chunkRequests.length;
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("table").getByText("Region", { exact: true }).waitFor({ timeout: 20_000 });
    expect(calls).toContain("askAgent");
    expect(chunkRequests.slice(before)).toHaveLength(1);
    expect(chunkRequests[before]!.some(named("markdown"))).toBe(true);

    // Every chunk was asked for once, and the server read each one's file once.
    expect(new Set(requested()).size).toBe(requested().length);
    expect([...world.htmlFilesRead].sort()).toEqual([...requested()].sort());
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it("what protects it without a policy of its own: the agent's markup and javascript: links are shown inert", async () => {
    const page = await openSidebar({
      chatUrl: `${sandbox.url}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
      agentApiKey: DEMO_AGENT_KEY,
      externalId: "ann.lee@example.com",
    });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("heading", { name: /Reports in this/ }).waitFor({ timeout: 15_000 });
    // Where the pane puts the agent behind a tab of its own, open it.
    const askTab = page.getByRole("tab", { name: "Ask" });
    if ((await askTab.count()) > 0) await askTab.click();
    const ask = page.getByRole("textbox", { name: "Ask the agent" });
    await ask.waitFor({ timeout: 15_000 });
    const conversation = page.getByRole("region", { name: "Conversation" });
    const askAndWait = async (question: string, done: number) => {
      await ask.fill(question);
      await page.getByRole("button", { name: "Send" }).click();
      await conversation.locator('[data-answer-status="done"]').nth(done).waitFor({ timeout: 20_000 });
    };
    await askAndWait(
      'Revenue <img src=x onerror="window.__xss=1"> [open the report](javascript:window.__xss=2) <script>window.__xss=3</script>',
      0,
    );
    // The scripted agent echoes the earlier question back, as markdown, in a recap.
    await askAndWait("What did I ask so far?", 1);
    await conversation.getByText("open the report").last().waitFor({ timeout: 5_000 });
    expect(await conversation.locator("img, script, [onerror]").count()).toBe(0);
    const hrefs = await conversation
      .locator("a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    for (const href of hrefs) expect(href.trim().toLowerCase()).not.toMatch(/^(javascript|data|vbscript):/);
    await conversation.getByText("open the report").last().click();
    // A javascript: link would run as the click's navigation, queued before this frame and task.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  }, 60_000);
});
