/**
 * The pane as a keyboard and screen reader user meets it in a real Chromium (the preview): a focused
 * control is never hidden under the pane's sticky header or Settings' sticky footer, the answer's
 * steps are not drawn under a collapsed disclosure, and the page has one h1.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 90_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession();
});

afterAll(async () => {
  await session?.close();
});

async function open(): Promise<Page> {
  const page = await session.openPreview("?width=300");
  await waitForPlacements(page);
  return page;
}

/**
 * The focused control, when something else is drawn over its top or bottom edge (a sticky header or
 * footer the browser scrolled it under): a description of it; null when it is in sight or unfocused.
 */
function focusedUnderSomething(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    if (!focused || focused === document.body || !focused.closest("main")) return null;
    const r = focused.getBoundingClientRect();
    for (const y of [r.top + 2, r.bottom - 2]) {
      const hit = document.elementFromPoint(r.left + r.width / 2, y);
      if (hit && !focused.contains(hit) && !hit.contains(focused)) {
        const name = focused.getAttribute("aria-label") ?? focused.textContent?.trim().slice(0, 40);
        return `${focused.tagName} "${name}" under ${hit.closest("header, form, footer, div")?.tagName ?? hit.tagName}`;
      }
    }
    return null;
  });
}

describe("focus in sight", () => {
  test("Tab down the Reports view and Shift+Tab back up: no focused control under the sticky header", async () => {
    const page = await open();
    await paneOf(page).getByRole("tab", { name: "Reports" }).focus();
    const hidden: string[] = [];
    for (const key of [...Array(24).fill("Tab"), ...Array(24).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      const under = await focusedUnderSomething(page);
      if (under) hidden.push(`${key}: ${under}`);
    }
    expect(hidden).toEqual([]);
  });

  test("Tab through Settings: no focused field under the sticky Save and Back", async () => {
    const page = await open();
    await paneOf(page).getByRole("button", { name: "Settings" }).click();
    await paneOf(page).getByRole("button", { name: "Back" }).waitFor();
    await paneOf(page).getByRole("button", { name: "Settings" }).focus();
    const hidden: string[] = [];
    for (const key of [...Array(12).fill("Tab"), ...Array(12).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      const under = await focusedUnderSomething(page);
      if (under) hidden.push(`${key}: ${under}`);
    }
    expect(hidden).toEqual([]);
  });
});

describe("the list's Tab stops", () => {
  test("Tab crosses the placement list in two stops (the row and its menu), the arrows move in it", async () => {
    const page = await open();
    const pane = paneOf(page);
    await pane.getByRole("tab", { name: "Reports" }).focus();
    const rowOfFocus = () =>
      page.evaluate(
        () =>
          (document.activeElement as HTMLElement | null)?.closest<HTMLElement>("li[data-placement-key]")
            ?.dataset.placementKey ?? null,
      );
    const inList: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      const row = await rowOfFocus();
      if (row) inList.push(row);
      else if (inList.length > 0) break;
    }
    expect(inList).toHaveLength(2);
    expect(new Set(inList).size).toBe(1);
    // Back on the row's placement: the arrow keys reach the next row.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    const first = await rowOfFocus();
    expect(first).toBe(inList[0]);
    await page.keyboard.press("ArrowDown");
    const next = await rowOfFocus();
    expect(next).not.toBeNull();
    expect(next).not.toBe(first);
  });
});

describe("the answer's steps", () => {
  test("are not drawn while their disclosure is collapsed", async () => {
    const page = await open();
    const pane = paneOf(page);
    await pane.getByRole("tab", { name: "Ask" }).click();
    await pane.getByRole("textbox", { name: "Ask the agent" }).fill("What was revenue by region in Q3?");
    await pane.getByRole("button", { name: "Send" }).click();
    await pane.locator('[data-answer-status="done"]').first().waitFor({ timeout: 30_000 });
    const toggle = pane.getByRole("button", { name: /^\d+ steps?$/ });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    const list = page.locator(`[id="${await toggle.getAttribute("aria-controls")}"]`);
    expect(await list.isVisible()).toBe(false);
    await toggle.click();
    expect(await list.isVisible()).toBe(true);
    await toggle.click();
    expect(await list.isVisible()).toBe(false);
  });
});

describe("headings", () => {
  test("the preview page has one h1 (the pane's), the workbook's title not a second", async () => {
    const page = await open();
    const h1s = await page.locator("h1").allTextContents();
    expect(h1s).toHaveLength(1);
    expect(await paneOf(page).locator("h1").count()).toBe(1);
  });
});
