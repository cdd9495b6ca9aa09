import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { formatCell, parseCell } from "../../../src/core/location.js";
import { placementsOf } from "../../../src/core/placements.js";
import type { Report, ReportPlacement } from "../../../src/core/schema.js";
import { DEMO_API_KEY } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { EXCEL_PAYLOAD_LIMIT_BYTES } from "../../support/excel-cells.js";
import { type ExcelPane, excelPaneHarness, type OpenExcelPane } from "../../support/excel-pane.js";
import type { SpawnedSandbox } from "../../support/spawn-sandbox.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const SHEET = Object.fromEntries(DEMO_WORKBOOK.sheets.map((s) => [s.name, s.id])) as Record<string, string>;

const openExcelPane = excelPaneHarness();

type Pane = ExcelPane;

/** The pane opened (as `excelPaneHarness` does), once the demo's first placement is listed. */
async function openPane(options: OpenExcelPane = {}): Promise<Pane> {
  const pane = await openExcelPane(options);
  await row(pane.page, "Summary!B2:F8").waitFor();
  return pane;
}

/** The list's row of the placement shown at `where` ("Summary!B2:F8"). */
function row(page: Page, where: string) {
  const escaped = where.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page.getByRole("listitem").filter({ has: page.getByText(new RegExp(`^${escaped}( ·|$)`)) });
}

/** A cell of the stand-in's workbook, as the page holds it. */
function cellValue(page: Page, sheet: string, address: string): Promise<unknown> {
  return page.evaluate(
    ([id, a]) =>
      (
        window as never as { __office: { cells: { value(s: string, c: string): unknown } } }
      ).__office.cells.value(id!, a!),
    [SHEET[sheet], address],
  );
}

interface CellsRecord {
  writeSyncs: number[];
  failedSyncs: string[];
}

function cellsRecord(page: Page): Promise<CellsRecord> {
  return page.evaluate(() => {
    const c = (window as never as { __office: { cells: CellsRecord } }).__office.cells;
    return { writeSyncs: [...c.writeSyncs], failedSyncs: [...c.failedSyncs] };
  });
}

async function report(sandbox: SpawnedSandbox, id: number): Promise<Report> {
  const res = await fetch(`${sandbox.url}/api/v1/deployments/1/reports/${id}`, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Report;
}

/** The service's record of report `id`'s placement in this workbook on `sheet`. */
async function record(sandbox: SpawnedSandbox, id: number, sheet: string): Promise<ReportPlacement> {
  const found = placementsOf(await report(sandbox, id)).find(
    (p) =>
      p.workbookId === DEMO_WORKBOOK.id &&
      (p.sheetName === sheet || p.resultLocation.startsWith(`${sheet}!`)),
  );
  if (!found) throw new Error(`report ${id} has no placement on ${sheet}`);
  return found;
}

/** Values of several cells of one sheet in the stand-in's workbook, in one round trip. */
function cellValues(page: Page, sheet: string, addresses: string[]): Promise<unknown[]> {
  return page.evaluate(
    ([id, list]) => {
      const c = (window as never as { __office: { cells: { value(s: string, a: string): unknown } } })
        .__office.cells;
      return (list as string[]).map((a) => c.value(id as string, a) ?? null);
    },
    [SHEET[sheet], addresses] as const,
  );
}

/** Every placement of this workbook the service lists: report, where, and its record. */
async function workbookPlacements(
  sandbox: SpawnedSandbox,
): Promise<{ report: Report; placement: ReportPlacement }[]> {
  const res = await fetch(
    `${sandbox.url}/api/v1/deployments/1/reports?externalWorkbookId=${encodeURIComponent(DEMO_WORKBOOK.id)}&first=100`,
    { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } },
  );
  const { items } = (await res.json()) as { items: Report[] };
  return items.flatMap((r) =>
    placementsOf(r)
      .filter((p) => p.workbookId === DEMO_WORKBOOK.id)
      .map((p) => ({ report: r, placement: p })),
  );
}

/** The service changes report `id`'s query (the sandbox's change-query route). */
async function changeQuery(sandbox: SpawnedSandbox, id: number, query: object): Promise<void> {
  const res = await fetch(`${sandbox.url}/sandbox/reports/${id}/change-query`, {
    method: "POST",
    headers: { Authorization: `Bearer ${DEMO_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ jsonQuery: JSON.stringify(query) }),
  });
  expect(res.status).toBe(200);
}

/**
 * "Order Lines" (report 113: 50,000 rows of 8 columns, more than one 5 MB sync holds) placed on
 * Notes at F2, as a report placed there earlier with a one-cell result.
 */
async function placeOrderLines(sandbox: SpawnedSandbox): Promise<void> {
  const res = await fetch(`${sandbox.url}/api/v1/deployments/1/reports/113/connect-workbook`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${DEMO_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      externalWorkbookId: DEMO_WORKBOOK.id,
      resultLocation: "Notes!F2",
      sheetId: SHEET.Notes,
      endResultCell: "F2",
      workbookName: DEMO_WORKBOOK.name,
      host: "EXCEL",
    }),
  });
  expect(res.status).toBe(200);
}

async function openMenu(page: Page, where: string) {
  await row(page, where)
    .getByRole("button", { name: /^Actions for/ })
    .click();
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el && el !== document.body ? (el.getAttribute("aria-label") ?? el.textContent ?? "") : null;
  });

describe("Refresh in the Excel pane, through the add-in server's relay", () => {
  it("from the selected-cell card: the placement's cells written, the record made, the row Up to date, focus kept", async () => {
    const pane = await openPane({ cell: "C5" });
    const { page, sandbox } = pane;
    const before = await record(sandbox, 101, "Summary");
    const card = page.getByTestId("selected-cell-card");
    await expect.poll(() => card.textContent()).toContain("Revenue by Region");
    const button = card.getByRole("button", { name: "Refresh", exact: true });
    await button.click();
    await page
      .getByText("Refreshed Revenue by Region at Summary!B2:F8.")
      .first()
      .waitFor({ timeout: 60_000 });

    // The cells: the header row bold from the data's titles, numbers as numbers.
    expect(await cellValue(page, "Summary", "B2")).toEqual(expect.any(String));
    expect(await cellValue(page, "Summary", "C3")).toEqual(expect.any(Number));
    await expect.poll(() => row(page, "Summary!B2:F8").textContent()).toContain("Up to date");
    expect(await row(page, "Summary!B2:F8").textContent()).toContain("refreshed just now");
    // The service's record: a new time, the extent and the checksum of what was written.
    const after = await record(sandbox, 101, "Summary");
    expect(after.refreshedAt).not.toBe(before.refreshedAt);
    expect(after.endResultCell).toBe("F8");
    expect(after.resultChecksum?.v).toBe(1);
    // Focus stays on the button the user pressed.
    expect(await focused(page)).toBe("Refresh");
    expect(pane.direct).toEqual([]);
    expect(pane.relayed.some((r) => r.startsWith("POST ") && r.endsWith("/data/1/cubejs-api/v1/load"))).toBe(
      true,
    );
    expect(pane.relayed.some((r) => r.startsWith("PUT ") && r.endsWith("/reports/101/refresh"))).toBe(true);
    expect(pane.errors).toEqual([]);
  });

  it("Refresh report (a placement's menu): every placement of that report in this workbook, sheet by sheet", async () => {
    const pane = await openPane();
    const { page, sandbox } = pane;
    const before = [await record(sandbox, 101, "Summary"), await record(sandbox, 101, "Q1 Sales")];
    await openMenu(page, "Summary!B2:F8");
    await page.getByRole("menuitem", { name: "Refresh report", exact: true }).click();
    await page.getByText("Refreshed 2 of 2 placements.").first().waitFor({ timeout: 60_000 });

    for (const where of ["Summary!B2:F8", "'Q1 Sales'!B18:F24"]) {
      await expect.poll(() => row(page, where).textContent(), { message: where }).toContain("Up to date");
    }
    expect(await cellValue(page, "Summary", "B2")).toEqual(expect.any(String));
    expect(await cellValue(page, "Q1 Sales", "B18")).toBe(await cellValue(page, "Summary", "B2"));
    const after = [await record(sandbox, 101, "Summary"), await record(sandbox, 101, "Q1 Sales")];
    for (const [i, p] of after.entries()) {
      expect(p.refreshedAt).not.toBe(before[i]!.refreshedAt);
      expect(p.syncStatus).toBe("UP_TO_DATE");
      expect(p.resultChecksum?.v).toBe(1);
    }
    expect(after.map((p) => p.endResultCell)).toEqual(["F8", "F24"]);
    // The menu gave focus back to its button, and it stays there.
    expect(await focused(page)).toMatch(/^Actions for Revenue by Region/);
    expect(pane.direct).toEqual([]);
    expect(pane.errors).toEqual([]);
  });

  it("Refresh all, stopped in the middle: 'N of M refreshed' with Stop, rows Queued / Refreshing… / stopped, no placement half written", async () => {
    // The second data load is held until Stop: the run is certainly in the middle when it is pressed.
    let loads = 0;
    let releaseHeld!: () => void;
    const held = new Promise<void>((r) => {
      releaseHeld = r;
    });
    const pane = await openPane({
      intercept: (route) => {
        if (!route.request().url().endsWith("/data/1/cubejs-api/v1/load")) return undefined;
        loads++;
        if (loads !== 2) return undefined;
        return held.then(() => route.continue().catch(() => {}));
      },
    });
    const { page, sandbox } = pane;
    const before = await workbookPlacements(sandbox);
    await page.getByRole("button", { name: "Refresh all" }).click();
    const progress = page.getByRole("status").filter({ hasText: /^1 of \d+ refreshed$/ });
    await progress.waitFor({ timeout: 60_000 });
    const total = Number(/of (\d+)/.exec((await progress.textContent())!)![1]);
    expect(total).toBeGreaterThan(2);
    // Refresh all gave its place to the progress: focus is on Stop, never on the page.
    expect(await focused(page)).toBe("Stop");
    // While it runs: the one being loaded says Refreshing…, the ones after it Queued.
    const statuses = () =>
      page.locator("[data-refresh-status]").evaluateAll((els) => els.map((e) => e.textContent ?? ""));
    await expect.poll(statuses).toContain("Queued");
    expect((await statuses()).some((t) => t.startsWith("Refreshing…"))).toBe(true);

    const stop = page.getByRole("button", { name: "Stop" });
    await stop.click();
    releaseHeld();
    await page
      .getByText(/^Refreshed 1 of \d+ placements\. Stopped: \d+ not started\./)
      .first()
      .waitFor({
        timeout: 60_000,
      });
    const after = await statuses();
    expect(after.filter((t) => /stopped before/.test(t)).length).toBe(total - 1);
    expect(after).not.toContain("Queued");
    expect(after.some((t) => t.startsWith("Refreshing…"))).toBe(false);
    // Stop went with the run: focus moved to Refresh all, not to the page.
    expect(await focused(page)).toBe("Refresh all");

    // No placement half written: each is either refreshed whole and recorded, or untouched.
    const now = await workbookPlacements(sandbox);
    let refreshed = 0;
    for (const { report: r, placement: p } of now) {
      const old = before.find((b) => b.report.id === r.id && b.placement.id === p.id)!.placement;
      const sheet = p.sheetName ?? p.resultLocation.split("!")[0]!.replace(/^'|'$/g, "");
      if (!(sheet in SHEET)) continue;
      const anchor = p.anchorCell ?? p.resultLocation.split("!")[1]!;
      const [top] = await cellValues(page, sheet, [anchor]);
      if (p.refreshedAt !== old.refreshedAt) {
        refreshed++;
        expect(top, `${r.name} refreshed: its header written`).toEqual(expect.any(String));
        const end = parseCell(p.endResultCell!)!;
        const start = parseCell(anchor)!;
        const lastRow = Array.from({ length: end.col - start.col + 1 }, (_, i) =>
          formatCell({ row: end.row, col: start.col + i }),
        );
        expect(
          (await cellValues(page, sheet, lastRow)).some((v) => v !== null),
          `${r.name} refreshed: its last row written`,
        ).toBe(true);
      } else {
        expect(top, `${r.name} not refreshed: nothing written`).toBeNull();
        expect(p.resultChecksum ?? null).toEqual(old.resultChecksum ?? null);
      }
    }
    expect(refreshed).toBe(1);
    expect(pane.direct).toEqual([]);
    expect(pane.errors).toEqual([]);
  });

  it("a result that grows into cells that are not empty asks first; Cancel writes and records nothing, Overwrite writes", async () => {
    // The chunk of the pane's occasional parts (lazy.tsx: message bars, spinners) is held back until
    // the question has focus, as on a slow network: its arrival must not take the focus away.
    let releaseLater!: () => void;
    const laterHeld = new Promise<void>((r) => {
      releaseLater = r;
    });
    const pane = await openPane({
      intercept: (route) =>
        /\/assets\/later-[^/]+\.js$/.test(route.request().url())
          ? laterHeld.then(() => route.continue())
          : undefined,
      // Fifteen products: Top 10 Products' result (H2:J12) grows to H2:J17, into Refund Requests' cells.
      before: (sandbox) =>
        changeQuery(sandbox, 103, {
          measures: ["orders.revenue", "orders.units"],
          dimensions: ["orders.product"],
          timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
          order: { "orders.revenue": "desc" },
          limit: 15,
        }),
    });
    const { page, sandbox } = pane;
    // Refund Requests' cells (H14:K20) hold its old values.
    await page.evaluate(
      ([id]) =>
        (
          window as never as { __office: { cells: { type(s: string, a: string, v: unknown[][]): void } } }
        ).__office.cells.type(id!, "H14", [
          ["Refund reason", "Count"],
          ["Damaged", 12],
        ]),
      [SHEET.Summary],
    );
    const before = await record(sandbox, 103, "Summary");

    await openMenu(page, "Summary!H2:J12");
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    await page
      .getByText(/has grown: its new result also covers Summary!H13:J17/)
      .waitFor({ timeout: 60_000 });
    // Focus is on the question's first answer; nothing is written before the answer.
    await expect.poll(() => focused(page)).toBe("Overwrite");
    const laterServed = page.waitForResponse((r) => /\/assets\/later-[^/]+\.js$/.test(r.url()));
    releaseLater();
    await laterServed;
    // The question is Fluent's own message bar (a stand-in would be swapped for it now), focus still in it.
    await page.locator(".fui-MessageBar", { hasText: "has grown" }).waitFor();
    expect(await focused(page)).toBe("Overwrite");
    expect(await cellValues(page, "Summary", ["H2", "H14", "H15"])).toEqual([
      null,
      "Refund reason",
      "Damaged",
    ]);
    expect((await cellsRecord(page)).writeSyncs).toEqual([]);

    await page.getByRole("button", { name: "Cancel" }).click();
    await page
      .getByText(/^Not refreshed: the new result of Top 10 Products would overwrite Summary!H13:J17/)
      .first()
      .waitFor({ timeout: 30_000 });
    // Focus went back to where the user was: the placement's menu button.
    expect(await focused(page)).toMatch(/^Actions for Top 10 Products/);
    expect(await cellValues(page, "Summary", ["H2", "H14", "H15"])).toEqual([
      null,
      "Refund reason",
      "Damaged",
    ]);
    expect((await cellsRecord(page)).writeSyncs).toEqual([]);
    const cancelled = await record(sandbox, 103, "Summary");
    expect(cancelled.refreshedAt).toBe(before.refreshedAt);
    expect(cancelled.endResultCell).toBe("J12");
    expect(await row(page, "Summary!H2:J12").textContent()).toContain("Out of date");

    await openMenu(page, "Summary!H2:J12");
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    await page
      .getByText(/has grown: its new result also covers Summary!H13:J17/)
      .waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Overwrite" }).click();
    await page.getByText("Refreshed Top 10 Products at Summary!H2:J17.").first().waitFor({ timeout: 60_000 });
    const [h2, h14, h17] = await cellValues(page, "Summary", ["H2", "H14", "H17"]);
    expect(h2).toEqual(expect.any(String));
    expect(h14).not.toBe("Refund reason");
    expect(h17).toEqual(expect.any(String));
    const written = await record(sandbox, 103, "Summary");
    expect(written.endResultCell).toBe("J17");
    expect(written.refreshedAt).not.toBe(before.refreshedAt);
    expect(written.resultChecksum?.v).toBe(1);
    expect(pane.direct).toEqual([]);
    expect(pane.errors).toEqual([]);
  });

  it("50,000 rows x 8 (more than Excel on the web's 5 MB): written in several syncs, none over the limit, then recorded", async () => {
    const pane = await openPane({ before: placeOrderLines });
    const { page, sandbox } = pane;
    await openMenu(page, "Notes!F2");
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    await page.getByText("Refreshed Order Lines at Notes!F2:M50002.").first().waitFor({ timeout: 120_000 });

    const { writeSyncs, failedSyncs } = await cellsRecord(page);
    expect(failedSyncs).toEqual([]);
    expect(writeSyncs.length).toBeGreaterThan(1);
    for (const bytes of writeSyncs) expect(bytes).toBeLessThanOrEqual(EXCEL_PAYLOAD_LIMIT_BYTES);
    const [header, first, last, lastRevenue, below] = await cellValues(page, "Notes", [
      "F2",
      "F3",
      "F50002",
      "M50002",
      "F50003",
    ]);
    expect(header).toEqual(expect.any(String));
    expect(first).not.toBeNull();
    expect(last).not.toBeNull();
    expect(lastRevenue).toEqual(expect.any(Number));
    expect(below).toBeNull();
    const recorded = await record(sandbox, 113, "Notes");
    expect(recorded.endResultCell).toBe("M50002");
    expect(recorded.resultChecksum?.v).toBe(1);
    // Parsed, laid out and hashed in the refresh worker (docs/architecture.md), its script the
    // add-in's own, loaded with the refresh; the data still reached through the relay.
    expect(pane.workers).toEqual([expect.stringMatching(/\/assets\/refresh-worker-[\w-]+\.js$/)]);
    expect(pane.relayed.some((r) => r.includes("/cubejs-api/v1/load"))).toBe(true);
    expect(pane.errors).toEqual([]);
    expect(recorded.syncStatus).toBe("UP_TO_DATE");
    // The page's Excel does refuse a sync over 5 MB, as Excel on the web does: the limit was real.
    const refused = await page.evaluate(() =>
      (window as never as { Excel: { run(b: (c: never) => Promise<unknown>): Promise<unknown> } }).Excel.run(
        async (context: {
          workbook: { worksheets: { getItem(n: string): { getRange(a: string): { values: unknown } } } };
          sync(): Promise<void>;
        }) => {
          const big = "x".repeat(3 * 1024 * 1024);
          context.workbook.worksheets.getItem("Notes").getRange("A1:A2").values = [[big], [big]];
          return context.sync().then(
            () => "written",
            (e: { code?: string }) => e.code,
          );
        },
      ),
    );
    expect(refused).toBe("RequestPayloadSizeLimitExceeded");
    expect(pane.direct).toEqual([]);
    expect(pane.errors).toEqual([]);
  });

  it("a write that fails half way: the row says which rows are already new, and nothing is recorded", async () => {
    const pane = await openPane({ before: placeOrderLines });
    const { page, sandbox } = pane;
    const before = await record(sandbox, 113, "Notes");
    // Excel takes the first block, then fails the next.
    await page.evaluate(() =>
      (
        window as never as { __office: { cells: { failWritesAfter(n: number): void } } }
      ).__office.cells.failWritesAfter(1),
    );
    await openMenu(page, "Notes!F2");
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    const status = row(page, "Notes!F2").locator('[data-refresh-status="not-refreshed"]');
    await status.waitFor({ timeout: 120_000 });
    const text = (await status.textContent()) ?? "";
    expect(text).toMatch(/^Not refreshed: writing Order Lines at Notes!F2:M50002 failed \(/);
    const rows = /Rows 2-(\d+) already hold the new result; the rest still shows the old one\./.exec(text);
    expect(rows, text).not.toBeNull();
    const lastNew = Number(rows![1]);
    expect(text).toContain("Nothing was recorded: refresh it again.");
    // The pane's message says the same.
    await page.getByText(text).first().waitFor();

    // The cells: the rows named are new, the ones after them are not.
    const { writeSyncs, failedSyncs } = await cellsRecord(page);
    expect(writeSyncs).toHaveLength(1);
    expect(failedSyncs).toEqual(["GeneralException"]);
    const [header, lastWritten, firstNot] = await cellValues(page, "Notes", [
      "F2",
      `F${lastNew}`,
      `F${lastNew + 1}`,
    ]);
    expect(header).toEqual(expect.any(String));
    expect(lastWritten).not.toBeNull();
    expect(firstNot).toBeNull();
    // The service: nothing recorded.
    const after = await record(sandbox, 113, "Notes");
    expect(after.refreshedAt).toBe(before.refreshedAt);
    expect(after.endResultCell).toBe("F2");
    expect(after.resultChecksum ?? null).toEqual(before.resultChecksum ?? null);
    expect(pane.relayed.some((r) => r.startsWith("PUT ") && r.endsWith("/reports/113/refresh"))).toBe(false);
    expect(pane.errors).toEqual([]);
  });
});
