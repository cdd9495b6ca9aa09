import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { placementsOf } from "../../../src/core/placements.js";
import type { Report, ReportPlacement } from "../../../src/core/schema.js";
import { WORKBOOK_ID_PROPERTY } from "../../../src/hosts/excel/host.js";
import { DEMO_API_KEY, demoSeed } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { excelPaneHarness } from "../../support/excel-pane.js";
import type { SpawnedSandbox } from "../../support/spawn-sandbox.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const SHEET = Object.fromEntries(DEMO_WORKBOOK.sheets.map((s) => [s.name, s.id])) as Record<string, string>;
/** "Churn Watchlist": a small demo report, placed once in the demo workbook (at Summary!B28). */
const CHURN = 110;

const openPane = excelPaneHarness();

type Office = {
  __office: {
    custom: Record<string, string>;
    active: { sheet: string; cell: string };
    handlers: Record<string, (() => unknown)[]>;
    cells: { value(s: string, a: string): unknown; type(s: string, a: string, v: unknown[][]): void };
  };
};

/** The list's row of the placement shown at `where` ("Summary!B2:F8"). */
function row(page: Page, where: string) {
  const escaped = where.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page.getByRole("listitem").filter({ has: page.getByText(new RegExp(`^${escaped}( ·|$)`)) });
}

const messages = (page: Page) => page.getByRole("status", { name: "Messages" });

/** The workbook's id property as the stand-in holds it. */
function storedWorkbookId(page: Page): Promise<string | undefined> {
  return page.evaluate((key) => (window as never as Office).__office.custom[key], WORKBOOK_ID_PROPERTY);
}

/** Values of several cells of Summary in the stand-in's workbook, in one round trip. */
function summaryValues(page: Page, addresses: string[]): Promise<unknown[]> {
  return page.evaluate(
    ([id, list]) => {
      const c = (window as never as Office).__office.cells;
      return (list as string[]).map((a) => c.value(id as string, a) ?? null);
    },
    [SHEET.Summary, addresses] as const,
  );
}

/** The service's placements of report `id` in workbook `workbookId`. */
async function records(sandbox: SpawnedSandbox, id: number, workbookId: string): Promise<ReportPlacement[]> {
  const res = await fetch(`${sandbox.url}/api/v1/deployments/1/reports/${id}`, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  expect(res.status).toBe(200);
  return placementsOf((await res.json()) as Report).filter((p) => p.workbookId === workbookId);
}

/** Place a report here from the selected-cell card: the picker, a search, Place. Returns where it went. */
async function placeChurn(page: Page, at: string): Promise<string> {
  const card = page.getByTestId("selected-cell-card");
  await expect.poll(() => card.textContent()).toContain(`Summary!${at}`);
  await card.getByRole("button", { name: "Place a report here" }).click();
  await card.getByRole("searchbox", { name: "Search reports" }).fill("churn");
  await expect.poll(() => card.getByRole("radio").count()).toBe(1);
  await card.getByRole("radio", { name: "Churn Watchlist" }).check();
  await card.getByRole("button", { name: "Place", exact: true }).click();
  const placed = messages(page).getByText(
    new RegExp(`^Placed Churn Watchlist at Summary!${at}:[A-Z]+\\d+\\.`),
  );
  await placed.first().waitFor({ timeout: 60_000 });
  return /at (Summary![A-Z]+\d+:[A-Z]+\d+)\./.exec((await placed.first().textContent())!)![1]!;
}

describe("Place a report here in the Excel pane, through the add-in server's relay", () => {
  it("in a workbook without its id: the id property added, the cells written, listed Up to date and current; Disconnect, then Undo brings the same placement back", async () => {
    const pane = await openPane({ cell: "B2", custom: {} });
    const { page, sandbox } = pane;
    const where = await placeChurn(page, "B2");

    // The workbook holds its id now, and the service recorded the placement under it.
    const id = await storedWorkbookId(page);
    expect(id).toEqual(expect.any(String));
    expect(id).not.toBe(DEMO_WORKBOOK.id);
    const [recorded, ...others] = await records(sandbox, CHURN, id!);
    expect(others).toEqual([]);
    expect(recorded).toMatchObject({
      host: "EXCEL",
      sheetId: SHEET.Summary,
      sheetName: "Summary",
      anchorCell: "B2",
      endResultCell: where.split(":")[1],
      workbookName: DEMO_WORKBOOK.name,
      syncStatus: "UP_TO_DATE",
    });
    expect((recorded as { resultChecksum?: { v?: number } }).resultChecksum?.v).toBe(1);
    // The cells: the header row from the data's titles, and the last row written.
    const [header, last] = await summaryValues(page, ["B2", where.split(":")[1]!]);
    expect(header).toEqual(expect.any(String));
    expect(last).not.toBeNull();
    // Listed Up to date, as the current placement (the active cell is in it).
    const item = row(page, where);
    await expect.poll(() => item.textContent()).toContain("Up to date");
    expect(await item.getAttribute("aria-current")).toBe("true");
    expect(await item.locator("[data-hand-edits]").count()).toBe(0);

    // Disconnect, then Undo: the same placement (address and checksum) recorded again.
    const card = page.getByTestId("selected-cell-card");
    await card.getByRole("button", { name: "Disconnect report here" }).click();
    await messages(page).getByText(`Disconnected Churn Watchlist from ${where}`).waitFor({ timeout: 30_000 });
    await expect.poll(() => row(page, where).count()).toBe(0);
    expect(await records(sandbox, CHURN, id!)).toEqual([]);
    await messages(page).getByRole("button", { name: "Undo" }).click();
    await messages(page)
      .getByText(`Undone: Churn Watchlist is placed at ${where} again.`)
      .waitFor({ timeout: 30_000 });
    await expect.poll(() => row(page, where).count()).toBe(1);
    expect(await row(page, where).textContent()).toContain("Up to date");
    const [restored, ...more] = await records(sandbox, CHURN, id!);
    expect(more).toEqual([]);
    const address = (p: ReportPlacement) => ({
      sheetId: p.sheetId,
      sheetName: p.sheetName,
      anchorCell: p.anchorCell,
      resultLocation: p.resultLocation,
      endResultCell: p.endResultCell,
      resultChecksum: (p as { resultChecksum?: unknown }).resultChecksum,
    });
    expect(address(restored!)).toEqual(address(recorded!));
    // The cells were never touched.
    expect(await summaryValues(page, ["B2"])).toEqual([header]);
    expect(pane.direct).toEqual([]);
    expect(
      pane.relayed.some((r) => r.startsWith("PUT ") && r.endsWith(`/reports/${CHURN}/connect-workbook`)),
    ).toBe(true);
    expect(pane.errors).toEqual([]);
  });
});

describe("Hand edits in the Excel pane", () => {
  it("a cell typed over in Excel shows Edited after Reload list, and when the user leaves the range; Refresh asks, Overwrite clears it", async () => {
    const pane = await openPane({ cell: "L2" });
    const { page } = pane;
    const where = await placeChurn(page, "L2");
    const item = row(page, where);
    await expect.poll(() => item.textContent()).toContain("Up to date");
    expect(await item.locator("[data-hand-edits]").count()).toBe(0);

    // The user types over M4 in Excel (the stand-in's cells, as typing puts them).
    await page.evaluate(
      ([id]) => (window as never as Office).__office.cells.type(id!, "M4", [[424242]]),
      [SHEET.Summary],
    );
    await page.getByRole("button", { name: "Reload list" }).click();
    const line = item.locator('[data-hand-edits="edited"]');
    await line.waitFor({ timeout: 30_000 });
    expect(await line.textContent()).toContain("row 4 edited");
    expect(await line.getByRole("button", { name: "Locate" }).count()).toBe(1);

    // Another edit, then the user moves out of the placement (Excel's selection event): read again.
    await page.evaluate(
      ([id]) => (window as never as Office).__office.cells.type(id!, "M6", [["typed"]]),
      [SHEET.Summary],
    );
    await page.evaluate(() => {
      const o = (window as never as Office).__office;
      o.active = { sheet: "Summary", cell: "A1" };
      for (const h of o.handlers.selection ?? []) void h();
    });
    await expect.poll(() => line.textContent(), { timeout: 30_000 }).toContain("rows 4 and 6 edited");

    // Refresh asks first; Overwrite writes the report's values back, and Edited goes.
    await item.getByRole("button", { name: /^Actions for/ }).click();
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    await page
      .getByText(
        /Refresh will overwrite your edits in rows 4 and 6 of Churn Watchlist \(Summary!L4:[A-Z]+6\)\./,
      )
      .waitFor({ timeout: 30_000 });
    expect(await summaryValues(page, ["M4", "M6"])).toEqual([424242, "typed"]);
    await page.getByRole("button", { name: "Overwrite" }).click();
    await messages(page)
      .getByText(`Refreshed Churn Watchlist at ${where}.`)
      .first()
      .waitFor({ timeout: 60_000 });
    await expect.poll(() => item.locator("[data-hand-edits]").count(), { timeout: 30_000 }).toBe(0);
    const [m4, m6] = await summaryValues(page, ["M4", "M6"]);
    expect(m4).not.toBe(424242);
    expect(m6).not.toBe("typed");
    expect(await item.textContent()).toContain("Up to date");
    expect(pane.direct).toEqual([]);
    expect(pane.errors).toEqual([]);
  });
});

describe("Renamed tabs in the Excel pane, through the add-in server's relay", () => {
  it("a placement stored with its sheet id is corrected once with addressOnly; one stored without is Not found, and Move here records it at the active cell", async () => {
    // "Q1 Sales" renamed "Q1" in Excel; the active cell is Q1!B2.
    // The demo's placement stored without a sheet id ('Q1 Sales'!B2:E14) gets a placement id, as
    // one placed after ids but before sheet ids existed: Move here needs one.
    const seed = demoSeed();
    for (const r of seed.reports) {
      for (const p of r.externalWorkbookPlacements ?? []) {
        if (r.id === 104 && !p.sheetId && p.anchorCell === "B2") p.id = "plc-104-q1";
      }
    }
    const pane = await openPane({ cell: "B2", sheet: "Q1", renamed: { "Q1 Sales": "Q1" }, seed });
    const { page, sandbox } = pane;

    // Revenue by Region's placement on that tab (stored with its sheet id): its record follows it
    // (the pane says so; the message may have given way to a later one by now).
    await expect
      .poll(
        async () =>
          (await records(sandbox, 101, DEMO_WORKBOOK.id)).find((p) => p.id === "plc-101-q1")?.sheetName,
      )
      .toBe("Q1");

    // Q1 Sales by Rep (stored without a sheet id) cannot be followed: Not found, with Move here.
    const item = row(page, "'Q1 Sales'!B2:E14");
    await expect.poll(() => item.textContent(), { timeout: 30_000 }).toContain("Not found");
    await item.getByRole("button", { name: /^Actions for/ }).click();
    await page.getByRole("menuitem", { name: "Move here" }).click();
    await messages(page)
      .getByText(/is now recorded at 'Q1'!B2:E14\./)
      .waitFor({ timeout: 30_000 });
    const [moved, ...others] = await records(sandbox, 104, DEMO_WORKBOOK.id);
    expect(others).toEqual([]);
    expect(moved).toMatchObject({
      sheetId: SHEET["Q1 Sales"],
      sheetName: "Q1",
      anchorCell: "B2",
      endResultCell: "E14",
    });
    await expect.poll(() => row(page, "'Q1'!B2:E14").count()).toBe(1);
    expect(await row(page, "'Q1'!B2:E14").textContent()).not.toContain("Not found");
    expect(pane.direct).toEqual([]);
    // Revenue by Region's record corrected once (not again on each list load), Move here once.
    const puts = (id: number) =>
      pane.relayed.filter((r) => r.startsWith("PUT ") && r.endsWith(`/reports/${id}/connect-workbook`));
    expect(puts(101)).toHaveLength(1);
    expect(puts(104)).toHaveLength(1);
    expect(pane.errors).toEqual([]);
  });
});
