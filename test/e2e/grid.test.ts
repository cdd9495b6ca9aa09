/**
 * The preview's grid at a real size and with hand edits, in Chromium: a placement of 50,000 rows
 * (the demo's "Order Lines", placed on Notes for this file) refreshed and scrolled with only the rows
 * in view in the DOM, the headers in place and axe clean; the keyboard across the rows not drawn; a
 * range selected from the pane scrolled into view; typing into a cell (Enter and Tab commit, Escape
 * cancels, F2 edits) read back as the host reads cells.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { RangeTarget } from "../../src/hosts/host.js";
import { demoSeed } from "../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../src/sandbox/demo-workbook.js";
import { cell, type E2eSession, placementItem, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const NOTES = DEMO_WORKBOOK.sheets[4];
/** "Order Lines" (50,000 rows of 8 columns and a header row), placed for this file on Notes. */
const ORDER_LINES = 113;
const BIG = "Notes!F1:M50001";

let session: E2eSession;

beforeAll(async () => {
  session = await startSession({
    seed: () => {
      const seed = demoSeed(new Date());
      const report = seed.reports.find((r) => r.id === ORDER_LINES && r.deploymentId === 1);
      if (!report) throw new Error("the demo has no report 113");
      report.externalWorkbookPlacements = [
        {
          workbookId: DEMO_WORKBOOK.id,
          workbookName: DEMO_WORKBOOK.name,
          host: "EXCEL",
          id: "plc-113",
          sheetId: NOTES.id,
          sheetName: NOTES.name,
          anchorCell: "F1",
          resultLocation: "Notes!F1",
          endResultCell: "M50001",
          queryChecksum: null,
          syncStatus: "UNKNOWN",
        },
      ];
      return seed;
    },
  });
});

afterAll(async () => {
  await session?.close();
});

async function open(): Promise<Page> {
  const page = await session.openPreview();
  await waitForPlacements(page);
  return page;
}

const grid = (page: Page) => page.getByRole("grid");
const scroller = (page: Page) => page.locator(".wb-grid-scroll");
const nameBox = (page: Page) => page.getByRole("textbox", { name: "Name box" });
const drawnRows = (page: Page) => grid(page).locator("tbody tr[aria-rowindex]").count();
const focusedCell = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));

/** The cells of a range as the preview's host reads them back (cells.ts, `readBack`). */
function readRange(page: Page, sheetName: string, range: string): Promise<unknown[][]> {
  const target: RangeTarget = { sheetId: null, sheetName, range };
  return page.evaluate(
    (t) =>
      (window as unknown as { previewReadRange(t: RangeTarget): Promise<unknown[][]> }).previewReadRange(t),
    target,
  );
}

/** axe-core's violations within the workbook's grid, at any impact level. */
async function axeOnGrid(page: Page): Promise<string[]> {
  await page.evaluate(await readFile(AXE_PATH, "utf8"));
  const violations = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run(context: string): Promise<Result> } }).axe;
    return (await axe.run(".wb-sheet-panel")).violations;
  });
  return violations.map((v) => `${v.impact} ${v.id} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** Whether the cell is wholly inside the grid's scrolling area, clear of the sticky headers. */
async function inView(page: Page, address: string): Promise<boolean> {
  const box = await scroller(page).boundingBox();
  const target = await cell(page, address).boundingBox();
  if (!box || !target) return false;
  return (
    target.y >= box.y + 24 - 1 &&
    target.y + target.height <= box.y + box.height + 1 &&
    target.x >= box.x + 44 - 1 &&
    target.x + target.width <= box.x + box.width + 1
  );
}

describe("a placement of 50,000 rows", () => {
  test("refreshed: only the rows in view are drawn, the last row shows its values, the headers stay, axe clean", async () => {
    const page = await open();
    await placementItem(page, BIG)
      .getByRole("button", { name: /^Actions for/ })
      .click();
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    // Polled at expect.poll's own pace: a poll a second let up to a second pass after the row said so.
    await expect
      .poll(() => placementItem(page, BIG).textContent(), { timeout: 200_000 })
      .toContain("Up to date");

    await page.getByRole("tab", { name: "Notes" }).click();
    // The grid says its whole size (header row and column included) though it draws a few rows.
    expect(Number(await grid(page).getAttribute("aria-rowcount"))).toBeGreaterThan(50_001);
    expect(await drawnRows(page)).toBeLessThan(200);
    await expect.poll(() => cell(page, "F2").getAttribute("data-value")).toBeTruthy();

    await scroller(page).evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => cell(page, "F50001").count()).toBe(1);
    expect(await drawnRows(page)).toBeLessThan(200);
    expect(await grid(page).locator('tr[aria-rowindex="50002"]').count()).toBe(1);
    // What the grid shows of the last row is what the host reads back there: all eight columns.
    const [last] = await readRange(page, "Notes", "F50001:M50001");
    expect(last).toHaveLength(8);
    for (const [i, column] of ["F", "G", "H", "I", "J", "K", "L", "M"].entries()) {
      const shown = await cell(page, `${column}50001`).getAttribute("data-value");
      expect(shown, column).toBeTruthy();
      if (typeof last?.[i] === "string") expect(shown).toBe(last[i]);
    }
    expect(await cell(page, "F50002").getAttribute("data-value")).toBeNull();

    // The column headers stay at the top and the row headers at the left while scrolled.
    const area = await scroller(page).boundingBox();
    const columnHead = await grid(page).getByRole("columnheader", { name: "F", exact: true }).boundingBox();
    const rowHead = await grid(page).getByRole("rowheader", { name: "50001", exact: true }).boundingBox();
    expect(Math.abs((columnHead?.y ?? -99) - (area?.y ?? 0))).toBeLessThanOrEqual(1);
    await scroller(page).evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await expect
      .poll(async () =>
        Math.abs(
          ((await grid(page).getByRole("rowheader", { name: "50001", exact: true }).boundingBox())?.x ??
            -99) - (area?.x ?? 0),
        ),
      )
      .toBeLessThanOrEqual(1);
    expect(rowHead).not.toBeNull();

    // The arrow keys go on from the last row, in view, and the grid stays as small in the DOM.
    await cell(page, "F50001").click();
    for (let i = 0; i < 25; i++) await page.keyboard.press("ArrowDown");
    await expect.poll(() => nameBox(page).inputValue()).toBe("F50026");
    expect(await focusedCell(page)).toBe("F50026");
    await expect.poll(() => inView(page, "F50026")).toBe(true);
    expect(await drawnRows(page)).toBeLessThan(200);

    expect(await axeOnGrid(page)).toEqual([]);
  });
});

describe("the virtualised grid", () => {
  test("arrow keys cross the rows not drawn: the active cell keeps the focus and comes into view", async () => {
    const page = await open();
    await cell(page, "A1").click();
    const before = await drawnRows(page);
    for (let i = 0; i < 50; i++) await page.keyboard.press("ArrowDown");
    for (let i = 0; i < 14; i++) await page.keyboard.press("ArrowRight");
    await expect.poll(() => nameBox(page).inputValue()).toBe("O51");
    expect(await focusedCell(page)).toBe("O51");
    await expect.poll(() => inView(page, "O51")).toBe(true);
    // Row 1 is no longer drawn: the rows in the DOM follow the view.
    expect(await cell(page, "A1").count()).toBe(0);
    expect(await drawnRows(page)).toBeLessThanOrEqual(before + 25);
    // Shift-Arrow back up past the drawn rows: the far end is scrolled to, the active cell stays.
    expect(await cell(page, "O11").count()).toBe(0);
    for (let i = 0; i < 40; i++) await page.keyboard.press("Shift+ArrowUp");
    await expect.poll(() => nameBox(page).inputValue()).toBe("O11:O51");
    expect(await focusedCell(page)).toBe("O51");
    await expect.poll(() => inView(page, "O11")).toBe(true);
  });

  test("a range the pane selects is scrolled into view", async () => {
    const page = await open();
    await cell(page, "A1").click();
    // Far enough down that row 2 is no longer drawn.
    await scroller(page).evaluate((el) => {
      el.scrollTop = 60 * 24;
    });
    await expect.poll(() => cell(page, "B2").count()).toBe(0);
    // A list item selects its placement's range in the workbook.
    await placementItem(page, "Summary!B2:F8").getByText("Summary!B2:F8").click();
    await expect.poll(() => nameBox(page).inputValue()).toBe("B2:F8");
    await expect.poll(() => inView(page, "B2")).toBe(true);
    // Scrolled away again, the same range selected again is brought back.
    await scroller(page).evaluate((el) => {
      el.scrollTop = 60 * 24;
    });
    await expect.poll(() => inView(page, "B2")).toBe(false);
    await placementItem(page, "Summary!B2:F8").getByText("Summary!B2:F8").click();
    await expect.poll(() => inView(page, "B2")).toBe(true);
  });
});

describe("selecting with the pointer", () => {
  test("the grid moving under a pressed button selects no range: a drag extends the selection only once the pointer moves", async () => {
    const page = await open();
    await cell(page, "N9").scrollIntoViewIfNeeded();
    const target = await cell(page, "N9").boundingBox();
    if (!target) throw new Error("N9 is not drawn");
    const x = target.x + target.width / 2;
    const y = target.y + target.height / 2;
    // Every cell the browser says the pointer is over from here on.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { cellsOver: string[] }).cellsOver = seen;
      document.addEventListener("mouseover", (e) => {
        const over = (e.target as HTMLElement).closest<HTMLElement>("[data-cell]");
        if (over) seen.push(over.getAttribute("aria-label") ?? "");
      });
    });
    await page.mouse.move(x, y);
    await page.mouse.down();
    await expect.poll(() => nameBox(page).inputValue()).toBe("N9");
    // The grid scrolls two columns on under the still pointer (as a cell revealed at that moment
    // scrolls it); the browser then says the pointer is over another cell, with the button down.
    await scroller(page).evaluate((el) => {
      el.scrollLeft += 2 * 76;
    });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { cellsOver: string[] }).cellsOver.at(-1)))
      .not.toMatch(/^N9\b/);
    await page.mouse.up();
    expect(await nameBox(page).inputValue()).toBe("N9");

    // A real drag still selects the range it crosses.
    const from = await cell(page, "N9").boundingBox();
    if (!from) throw new Error("N9 is not drawn");
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height * 2.5, { steps: 4 });
    await page.mouse.up();
    expect(await nameBox(page).inputValue()).toBe("N9:N11");
  });
});

describe("typing into a cell", () => {
  test("Enter commits (a number as a number, read back by the host) and moves down; Tab moves right", async () => {
    const page = await open();
    await cell(page, "L5").click();
    await page.keyboard.type("1234.5");
    expect(await page.getByRole("textbox", { name: "Edit L5" }).inputValue()).toBe("1234.5");
    expect(await axeOnGrid(page)).toEqual([]);
    await page.keyboard.press("Enter");
    await expect.poll(() => nameBox(page).inputValue()).toBe("L6");
    expect(await focusedCell(page)).toBe("L6");
    expect(await cell(page, "L5").getAttribute("data-value")).toBe("1,234.5");
    expect(await readRange(page, "Summary", "L5")).toEqual([[1234.5]]);

    await page.keyboard.type("Paris");
    await page.keyboard.press("Tab");
    await expect.poll(() => nameBox(page).inputValue()).toBe("M6");
    expect(await readRange(page, "Summary", "L6:M6")).toEqual([["Paris", ""]]);
    expect(await focusedCell(page)).toBe("M6");
  });

  test("Escape cancels: the cell keeps what it held, and keeps the focus", async () => {
    const page = await open();
    // C4 is inside "Revenue by Region" (Summary!B2:F8).
    await cell(page, "C4").click();
    const held = await readRange(page, "Summary", "C4");
    const shown = await cell(page, "C4").getAttribute("data-value");
    await page.keyboard.type("999");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("textbox", { name: "Edit C4" }).count()).toBe(0);
    expect(await readRange(page, "Summary", "C4")).toEqual(held);
    expect(await cell(page, "C4").getAttribute("data-value")).toBe(shown);
    expect(await nameBox(page).inputValue()).toBe("C4");
    expect(await focusedCell(page)).toBe("C4");
  });

  test("F2 and a double click edit from the cell's value; a click on another cell, or outside the grid, commits", async () => {
    const page = await open();
    await cell(page, "L5").click();
    await page.keyboard.type("1,500");
    await page.keyboard.press("Enter");
    await cell(page, "L5").click();
    await page.keyboard.press("F2");
    const editor = page.getByRole("textbox", { name: "Edit L5" });
    expect(await editor.inputValue()).toBe("1500");
    // In an edit started by F2 the arrows move the caret, not the active cell.
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.type("9");
    await page.keyboard.press("Enter");
    expect(await readRange(page, "Summary", "L5")).toEqual([[15090]]);

    await cell(page, "L5").dblclick();
    await page.getByRole("textbox", { name: "Edit L5" }).waitFor();
    await page.keyboard.press("Backspace");
    await page.keyboard.type("1");
    await cell(page, "N9").click();
    await expect.poll(() => nameBox(page).inputValue()).toBe("N9");
    expect(await readRange(page, "Summary", "L5")).toEqual([[15091]]);

    // Leaving the grid commits too, and the focus stays where it went.
    await page.keyboard.type("abc");
    await nameBox(page).click();
    await expect.poll(() => readRange(page, "Summary", "N9")).toEqual([["abc"]]);
    expect(await focusedCell(page)).toBe("Name box");
  });
});
