/**
 * The placements flows in a real Chromium against `startPreview` (the sandbox with the demo data and
 * the preview page, as `npm start` runs them). Each test starts from a fresh sandbox and an empty
 * browser context.
 */
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import {
  cell,
  type E2eSession,
  paneOf,
  placementItem,
  startSession,
  waitForPlacements,
} from "../support/browser.js";

// Each flow loads the page at least once; Vite's dev server and a busy machine make that seconds.
vi.setConfig({ testTimeout: 60_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession();
});

afterAll(async () => {
  await session?.close();
});

async function open(): Promise<Page> {
  const page = await session.openPreview();
  await waitForPlacements(page);
  return page;
}

/** The bodies of the DELETE connect-workbook calls the page makes from now on. */
function recordDisconnects(page: Page): unknown[] {
  const bodies: unknown[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "DELETE" && request.url().endsWith("/connect-workbook")) {
      bodies.push(request.postDataJSON());
    }
  });
  return bodies;
}

async function expectCurrent(page: Page, where: string | null) {
  const current = paneOf(page).locator('[aria-current="true"]');
  if (where === null) await expect.poll(() => current.count()).toBe(0);
  else {
    await expect.poll(() => placementItem(page, where).getAttribute("aria-current")).toBe("true");
    await expect.poll(() => current.count()).toBe(1);
  }
}

describe("the placements list", () => {
  test("shows the demo placements, grouped by sheet, with their sync status", async () => {
    const page = await open();
    const statuses: [string, string][] = [
      ["Summary!B2:F8", "Up to date"],
      ["Summary!H2:J12", "Out of date"],
      ["Summary!H14:K20", "Unknown"],
      ["'Q1 Sales'!B18:F24", "Out of date"],
      ["'Q1 Sales'!B2:E14", "Unknown"],
      ["Regions!B2:G30", "Up to date"],
      ["Pipeline!H1:K8", "Up to date"],
    ];
    for (const [where, status] of statuses) {
      const item = placementItem(page, where);
      await expect.poll(() => item.count(), { message: where }).toBe(1);
      expect(await item.textContent(), where).toContain(status);
    }
    // The same report placed twice here and once in another workbook (shown read-only).
    expect(await placementItem(page, "Summary!B2:F8").textContent()).toContain("Board Pack 2024");
    // The sheet renamed since placing is listed under its name now.
    await expect.poll(() => paneOf(page).getByRole("heading", { name: "Regions" }).count()).toBe(1);
  });

  test("clicking a cell inside a placement marks it current, and the mark follows the selection", async () => {
    const page = await open();
    await cell(page, "C4").click();
    await expectCurrent(page, "Summary!B2:F8");

    await cell(page, "I5").click();
    await expectCurrent(page, "Summary!H2:J12");

    await cell(page, "A1").click();
    await expectCurrent(page, null);
    expect(await paneOf(page).getByRole("button", { name: "Disconnect report here" }).isDisabled()).toBe(
      true,
    );

    // Keyboard: the arrows move the active cell like a spreadsheet's.
    await cell(page, "A2").click();
    await page.keyboard.press("ArrowRight");
    await expectCurrent(page, "Summary!B2:F8");

    // On the renamed sheet, the placement stored under the old name is found by its sheet id and
    // shown under the sheet's new name.
    await page.getByRole("tab", { name: "Regions" }).click();
    await cell(page, "C3").click();
    await expectCurrent(page, "Regions!B2:G30");
  });

  test("clicking a placement in the list selects its range in the workbook", async () => {
    const page = await open();
    await placementItem(page, "'Q1 Sales'!B18:F24").getByRole("button").first().click();
    await expect
      .poll(() =>
        page
          .getByRole("region", { name: "Workbook", exact: true })
          .getByRole("tab", { selected: true })
          .textContent(),
      )
      .toBe("Q1 Sales");
    await expect.poll(() => page.getByRole("textbox", { name: "Name box" }).inputValue()).toBe("B18:F24");
    await expectCurrent(page, "'Q1 Sales'!B18:F24");
  });
});

describe("Disconnect report here", () => {
  test("the pane's button removes exactly the placement under the cell; the others stay, also after a reload", async () => {
    const page = await open();
    const bodies = recordDisconnects(page);
    await cell(page, "D5").click();
    await expectCurrent(page, "Summary!B2:F8");

    await paneOf(page).getByRole("button", { name: "Disconnect report here" }).click();

    await page
      .getByText("Disconnected Revenue by Region from Summary!B2:F8; the cells keep their values.")
      .first()
      .waitFor();
    await expect.poll(() => placementItem(page, "Summary!B2:F8").count()).toBe(0);
    expect(bodies).toEqual([{ placementId: "plc-101-summary" }]);
    // The report's other placement in this workbook stays, and so do the other reports'.
    expect(await placementItem(page, "'Q1 Sales'!B18:F24").count()).toBe(1);
    expect(await placementItem(page, "Summary!H2:J12").count()).toBe(1);
    // The workbook no longer shades the range; the cells keep their values.
    expect(await cell(page, "D5").getAttribute("title")).toBeNull();
    expect(await cell(page, "B3").getAttribute("aria-description")).toBe("North America");
    // The toast leaves the workbook usable (nothing covers it).
    await cell(page, "A1").click({ timeout: 5_000 });

    await page.reload();
    await waitForPlacements(page);
    expect(await placementItem(page, "Summary!B2:F8").count()).toBe(0);
    expect(await placementItem(page, "'Q1 Sales'!B18:F24").count()).toBe(1);
    expect(await placementItem(page, "Summary!H2:J12").count()).toBe(1);
  });

  test("the cell's right-click menu does the same, and reports the outcome in the workbook", async () => {
    const page = await open();
    const bodies = recordDisconnects(page);
    await page.getByRole("tab", { name: "Q1 Sales" }).click();
    await cell(page, "C20").click({ button: "right" });

    const menu = page.getByRole("menu");
    await menu.waitFor();
    await menu.getByRole("menuitem", { name: "Disconnect report here" }).click();

    const status = page
      .getByRole("region", { name: "Workbook", exact: true })
      .getByRole("status")
      .filter({ hasText: "Disconnected" });
    await status.waitFor();
    expect(await status.textContent()).toBe(
      "Disconnected Revenue by Region from 'Q1 Sales'!B18:F24; the cells keep their values.",
    );
    expect(await menu.count()).toBe(0);
    expect(bodies).toEqual([{ placementId: "plc-101-q1" }]);
    await expect.poll(() => placementItem(page, "'Q1 Sales'!B18:F24").count()).toBe(0);
    expect(await placementItem(page, "Summary!B2:F8").count()).toBe(1);
    expect(await placementItem(page, "'Q1 Sales'!B2:E14").count()).toBe(1);

    await page.reload();
    await waitForPlacements(page);
    expect(await placementItem(page, "'Q1 Sales'!B18:F24").count()).toBe(0);
    expect(await placementItem(page, "Summary!B2:F8").count()).toBe(1);
    expect(await placementItem(page, "'Q1 Sales'!B2:E14").count()).toBe(1);
  });

  test("the menu on a cell with no placement says there is nothing to disconnect; Escape closes it", async () => {
    const page = await open();
    const bodies = recordDisconnects(page);
    await cell(page, "A30").click({ button: "right" });
    await page.keyboard.press("Escape");
    expect(await page.getByRole("menu").count()).toBe(0);

    await cell(page, "A30").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Disconnect report here" }).click();
    const status = page
      .getByRole("region", { name: "Workbook", exact: true })
      .getByRole("status")
      .filter({ hasText: "Summary!A30" });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^No report is placed at Summary!A30/);
    expect(bodies).toEqual([]);
  });

  test("the older placement forms (no id, no sheet id, location only) are addressed by sheet name and anchor", async () => {
    const page = await open();
    const bodies = recordDisconnects(page);
    await page.getByRole("tab", { name: "Q1 Sales" }).click();
    await cell(page, "H3").click();
    await expectCurrent(page, "'Q1 Sales'!G2:J9");
    await paneOf(page).getByRole("button", { name: "Disconnect report here" }).click();
    await expect.poll(() => placementItem(page, "'Q1 Sales'!G2:J9").count()).toBe(0);
    expect(bodies).toEqual([
      { externalWorkbookId: "8c1f3a52-6d0e-4b7a-9f21-q3revenue01", sheetName: "Q1 Sales", anchorCell: "G2" },
    ]);
    expect(await placementItem(page, "'Q1 Sales'!B2:E14").count()).toBe(1);
  });
});

describe("sheet ids (disconnect rules 5-7)", () => {
  test("on a tab recreated under the same name, the placement is addressed without the old sheet id and removed", async () => {
    const page = await open();
    const bodies = recordDisconnects(page);
    // The demo's "Pipeline" tab was deleted and recreated after "Open Pipeline" was placed on it.
    await page.getByRole("tab", { name: "Pipeline" }).click();
    const item = placementItem(page, "Pipeline!A1:F20");
    expect(await item.textContent()).toContain("recreated");

    await item.getByRole("button", { name: /^Actions for Open Pipeline/ }).click();
    await page.getByRole("menuitem", { name: "Disconnect this placement" }).click();

    await expect.poll(() => placementItem(page, "Pipeline!A1:F20").count()).toBe(0);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toEqual({
      externalWorkbookId: "8c1f3a52-6d0e-4b7a-9f21-q3revenue01",
      sheetName: "Pipeline",
      anchorCell: "A1",
    });
    expect(await placementItem(page, "Pipeline!H1:K8").count()).toBe(1);

    await page.reload();
    await waitForPlacements(page);
    expect(await placementItem(page, "Pipeline!A1:F20").count()).toBe(0);
    expect(await placementItem(page, "Pipeline!H1:K8").count()).toBe(1);
  });

  test("recreating a tab in the preview gives it a new id; renaming keeps the id", async () => {
    const page = await open();
    const bodies = recordDisconnects(page);
    const sheetId = () => page.locator(".wb-sheet-id code").textContent();

    // Rename: the id stays, the placements stay linked (found by sheet id, disconnect rule 6), shown under the new name.
    await page.getByRole("tab", { name: "Summary" }).click();
    const before = await sheetId();
    await page.getByRole("button", { name: "Rename sheet…" }).click();
    await page.getByRole("textbox", { name: "New name for sheet Summary" }).fill("Overview");
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: "Overview" }).waitFor();
    expect(await sheetId()).toBe(before);
    await cell(page, "C4").click();
    await expectCurrent(page, "Overview!B2:F8");

    // Recreate "Q1 Sales": a new id; the placement that stores the old id is no longer under the
    // cells, and the list says so; it is removed by its placement id (disconnect rule 7).
    await page.getByRole("tab", { name: "Q1 Sales" }).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Delete and recreate tab" }).click();
    await page
      .getByRole("region", { name: "Workbook", exact: true })
      .getByRole("status")
      .filter({ hasText: "Deleted the tab" })
      .waitFor();
    const item = placementItem(page, "'Q1 Sales'!B18:F24");
    await expect.poll(() => item.textContent()).toContain("recreated");
    await item.getByRole("button", { name: /^Actions for Revenue by Region/ }).click();
    await page.getByRole("menuitem", { name: "Disconnect this placement" }).click();
    await expect.poll(() => placementItem(page, "'Q1 Sales'!B18:F24").count()).toBe(0);
    expect(bodies).toEqual([{ placementId: "plc-101-q1" }]);
    // The placements without a sheet id on that tab are still found by name.
    await cell(page, "C3").click();
    await expectCurrent(page, "'Q1 Sales'!B2:E14");
  });
});
