/**
 * The preview page in narrow windows: at 700 px and 420 px nothing overlaps (the pane, the
 * workbook's title bar, toolbar, formula bar, grid, sheet tabs and status bar), nothing spills out
 * of its bar or out of the window, and the grid keeps room to show cells (it scrolls, the page
 * stacks the workbook above the pane when both do not fit side by side).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 60_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession();
});

afterAll(async () => {
  await session?.close();
});

interface Box {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The page's parts, by what a person sees; the pane is found as the tests find it. */
const PARTS: Record<string, string> = {
  "title bar": ".wb-titlebar",
  toolbar: '[role="toolbar"]',
  "formula bar": ".wb-formula-bar",
  grid: ".wb-grid-scroll",
  "sheet tabs": ".wb-tabs-bar",
  "status bar": ".wb-statusbar",
};

async function boxes(page: Page): Promise<Box[]> {
  const out: Box[] = [];
  const pane = await paneOf(page).boundingBox();
  if (!pane) throw new Error("the pane is not drawn");
  out.push({
    name: "pane",
    left: pane.x,
    top: pane.y,
    right: pane.x + pane.width,
    bottom: pane.y + pane.height,
  });
  for (const [name, selector] of Object.entries(PARTS)) {
    const box = await page.locator(selector).boundingBox();
    if (!box) throw new Error(`the ${name} is not drawn`);
    out.push({ name, left: box.x, top: box.y, right: box.x + box.width, bottom: box.y + box.height });
  }
  return out;
}

function overlaps(a: Box, b: Box): boolean {
  // Half a pixel of tolerance: borders on fractional positions may touch.
  return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
}

function overlapping(list: Box[]): string[] {
  const found: string[] = [];
  for (const [i, a] of list.entries()) {
    for (const b of list.slice(i + 1)) if (overlaps(a, b)) found.push(`${a.name} / ${b.name}`);
  }
  return found;
}

/** Within each bar: the items that spill out, that overlap each other, or that are squeezed to nothing. */
async function problemsInsideBars(page: Page): Promise<string[]> {
  return page.evaluate(
    (selectors: string[]) => {
      const problems: string[] = [];
      for (const selector of selectors) {
        const bar = document.querySelector<HTMLElement>(selector);
        if (!bar) continue;
        if (bar.scrollWidth > bar.clientWidth + 1) problems.push(`${selector} overflows`);
        const outer = bar.getBoundingClientRect();
        const items = [...bar.children].filter((el) => {
          const r = el.getBoundingClientRect();
          return (
            getComputedStyle(el).display !== "none" && (r.width > 0 || (el.textContent ?? "").trim() !== "")
          );
        });
        const rects = items.map((el) => el.getBoundingClientRect());
        items.forEach((el, i) => {
          const r = rects[i]!;
          const label = `${selector} > ${el.className || el.tagName}`;
          if (r.left < outer.left - 0.5 || r.right > outer.right + 0.5) problems.push(`${label} sticks out`);
          if ((el.textContent ?? "").trim() !== "" && r.width + 1 < Math.min(40, el.scrollWidth)) {
            problems.push(`${label} is squeezed to ${Math.round(r.width)} px`);
          }
          for (let j = i + 1; j < rects.length; j++) {
            const o = rects[j]!;
            if (
              r.left < o.right - 0.5 &&
              o.left < r.right - 0.5 &&
              r.top < o.bottom - 0.5 &&
              o.top < r.bottom - 0.5
            ) {
              problems.push(`${label} overlaps ${items[j]!.className || items[j]!.tagName}`);
            }
          }
        });
      }
      return problems;
    },
    // The grid is left out: it scrolls, by design.
    Object.values(PARTS).filter((selector) => selector !== PARTS.grid),
  );
}

describe.each([
  [700, 800],
  [420, 800],
])("at %i x %i px", (width, height) => {
  test("the pane, the workbook's bars and the grid do not overlap, and all fit the window", async () => {
    const page = await session.openPreview();
    await page.setViewportSize({ width, height });
    await waitForPlacements(page);

    const list = await boxes(page);
    expect(overlapping(list)).toEqual([]);
    for (const box of list) {
      expect(box.left, box.name).toBeGreaterThanOrEqual(0);
      expect(box.right, box.name).toBeLessThanOrEqual(width + 0.5);
    }
    expect(await problemsInsideBars(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The pane keeps at least Google Sheets' sidebar width; the grid keeps room for some cells.
    const pane = list.find((b) => b.name === "pane")!;
    expect(pane.right - pane.left).toBeGreaterThanOrEqual(300);
    const grid = list.find((b) => b.name === "grid")!;
    expect(grid.right - grid.left).toBeGreaterThanOrEqual(250);
    expect(grid.bottom - grid.top).toBeGreaterThanOrEqual(120);
  });
});
