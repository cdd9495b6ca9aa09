/**
 * The simulated workbook behaves like Excel where it imitates it: Shift-click and Shift-Arrow keep
 * the active cell where the selection started (and the pane follows the active cell), a mouse drag
 * selects a range, a right-click inside a selection keeps it (the cell menu acts on the active cell)
 * and a right-click outside moves the selection there.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { CONTEXT_COALESCE_MS } from "../../src/hosts/preview/host.js";
import {
  cell,
  type E2eSession,
  paneOf,
  placementItem,
  startSession,
  waitForPlacements,
} from "../support/browser.js";

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

const nameBox = (page: Page) => page.getByRole("textbox", { name: "Name box" });

/** The cell that takes the grid's Tab stop: the active cell. */
const activeCell = (page: Page) =>
  page.getByRole("grid").locator('[role="gridcell"][tabindex="0"]').getAttribute("aria-label");

/**
 * Resolves once the preview has told the pane of the last selection change and the pane has drawn
 * what it heard. The preview reports a selection CONTEXT_COALESCE_MS after it last changed (one
 * timer, set as the change happened); a timer of the same length set in the page after that fires
 * after it (timers of equal delay fire in the order they were set), and a frame after that the pane
 * has rendered. An order of events in the page, not a guess at how long the machine takes.
 */
async function selectionSettled(page: Page) {
  await page.evaluate(
    (ms) =>
      new Promise<void>((resolve) =>
        setTimeout(() => requestAnimationFrame(() => setTimeout(resolve, 0)), ms),
      ),
    CONTEXT_COALESCE_MS,
  );
}

async function expectCurrent(page: Page, where: string) {
  await expect.poll(() => placementItem(page, where).getAttribute("aria-current")).toBe("true");
  await expect.poll(() => paneOf(page).locator('[aria-current="true"]').count()).toBe(1);
}

describe("selecting cells", () => {
  test("Shift-click spans a range; the active cell, and the pane, stay where the selection started", async () => {
    const page = await open();
    await cell(page, "C4").click();
    await expectCurrent(page, "Summary!B2:F8");

    await cell(page, "I5").click({ modifiers: ["Shift"] });
    await expect.poll(() => nameBox(page).inputValue()).toBe("C4:I5");
    expect(await activeCell(page)).toBe("C4");
    expect(await cell(page, "I5").getAttribute("aria-selected")).toBe("true");
    // The pane follows the active cell: C4's report stays current, not the one under I5. The
    // pane hears of a selection once it settles: wait until the page has told it (below).
    await selectionSettled(page);
    await expectCurrent(page, "Summary!B2:F8");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("C4");
  });

  test("Shift-Arrow grows the range from the active cell, which keeps the focus", async () => {
    const page = await open();
    await cell(page, "C4").click();
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Shift+ArrowDown");
    await expect.poll(() => nameBox(page).inputValue()).toBe("C4:E5");
    expect(await activeCell(page)).toBe("C4");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("C4");
    await expectCurrent(page, "Summary!B2:F8");

    // A plain arrow moves on from the active cell and drops the range.
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => nameBox(page).inputValue()).toBe("C5");
    expect(await activeCell(page)).toBe("C5");
  });

  test("Shift-Arrow past the visible rows scrolls the range's far end into view", async () => {
    const page = await open();
    await cell(page, "C4").click();
    for (let i = 0; i < 32; i++) await page.keyboard.press("Shift+ArrowDown");
    await expect.poll(() => nameBox(page).inputValue()).toBe("C4:C36");
    expect(await activeCell(page)).toBe("C4");
    await expect
      .poll(async () => {
        const scroller = await page.locator(".wb-grid-scroll").boundingBox();
        const end = await cell(page, "C36").boundingBox();
        return Boolean(
          scroller && end && end.y >= scroller.y && end.y + end.height <= scroller.y + scroller.height,
        );
      })
      .toBe(true);
  });

  test("a mouse drag selects the range from where the button went down to where it came up", async () => {
    const page = await open();
    const from = await cell(page, "C4").boundingBox();
    const to = await cell(page, "E7").boundingBox();
    if (!from || !to) throw new Error("cells not drawn");
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => nameBox(page).inputValue()).toBe("C4:E7");
    expect(await activeCell(page)).toBe("C4");
    expect(await cell(page, "D6").getAttribute("aria-selected")).toBe("true");

    // Once the button is up, moving the mouse selects nothing more.
    const away = await cell(page, "H10").boundingBox();
    if (!away) throw new Error("cell not drawn");
    await page.mouse.move(away.x + 5, away.y + 5, { steps: 3 });
    expect(await nameBox(page).inputValue()).toBe("C4:E7");
  });

  test("a right-click inside the selection keeps it, and the menu acts on the active cell", async () => {
    const page = await open();
    await cell(page, "C4").click();
    await cell(page, "I5").click({ modifiers: ["Shift"] });
    await expect.poll(() => nameBox(page).inputValue()).toBe("C4:I5");

    await cell(page, "I5").click({ button: "right" });
    const menu = page.getByRole("menu");
    await menu.waitFor();
    expect(await nameBox(page).inputValue()).toBe("C4:I5");
    expect(await activeCell(page)).toBe("C4");

    await menu.getByRole("menuitem", { name: "Disconnect report here" }).click();
    const status = page
      .getByRole("region", { name: "Workbook", exact: true })
      .getByRole("status")
      .filter({ hasText: "Disconnected" });
    await status.waitFor();
    // C4's placement, not the one under the pointer (I5 is in Summary!H2:J12).
    expect(await status.textContent()).toContain("from Summary!B2:F8;");
    await expect.poll(() => placementItem(page, "Summary!B2:F8").count()).toBe(0);
    expect(await placementItem(page, "Summary!H2:J12").count()).toBe(1);
  });

  test("a right-click outside the selection moves the selection there; Escape returns to it", async () => {
    const page = await open();
    await cell(page, "C4").click();
    await cell(page, "E6").click({ modifiers: ["Shift"] });
    await expect.poll(() => nameBox(page).inputValue()).toBe("C4:E6");

    await cell(page, "A10").click({ button: "right" });
    await page.getByRole("menu").waitFor();
    expect(await nameBox(page).inputValue()).toBe("A10");
    expect(await activeCell(page)).toBe("A10");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("menu").count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("A10");
  });
});

describe("the theme", () => {
  test("the light or dark choice survives a reload, and localStorage holds that word alone", async () => {
    const page = await open();
    expect(await page.evaluate(() => document.body.dataset.theme)).toBe("light");
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect.poll(() => page.evaluate(() => document.body.dataset.theme)).toBe("dark");

    await page.reload();
    await waitForPlacements(page);
    expect(await page.evaluate(() => document.body.dataset.theme)).toBe("dark");
    expect(await page.getByRole("button", { name: "Dark theme" }).getAttribute("aria-pressed")).toBe("true");
    expect(await page.evaluate(() => Object.entries(localStorage))).toEqual([["rp-preview:theme", "dark"]]);

    // Back to light, which a reload keeps too (and the next test starts from).
    await page.getByRole("button", { name: "Dark theme" }).click();
    await page.reload();
    await waitForPlacements(page);
    expect(await page.evaluate(() => document.body.dataset.theme)).toBe("light");
  });
});
