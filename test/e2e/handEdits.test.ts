/**
 * Hand edits in the preview, in a real Chromium against the sandbox (as `npm start` runs them): a
 * placement refreshed (so it holds a checksum of this add-in's version), a cell of it typed over in
 * the grid, the range left; its row then shows Edited with the row named and Locate, Locate selects
 * the edited rows, and Refresh asks before it overwrites them (Cancel keeps the edit, Overwrite
 * restores the report's value). A placement whose checksum is of another version reads "cannot
 * tell", never Edited.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { demoSeed } from "../../src/sandbox/demo.js";
import {
  cell,
  type E2eSession,
  paneOf,
  placementItem,
  startSession,
  waitForPlacements,
} from "../support/browser.js";

vi.setConfig({ testTimeout: 120_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession({
    seed: () => {
      const seed = demoSeed();
      // Monthly Active Customers (Summary!B12:D25, Up to date) as placed by an add-in whose checksum
      // is of another version: this one cannot read it.
      for (const r of seed.reports) {
        for (const p of r.externalWorkbookPlacements ?? []) {
          if (p.id === "plc-102") {
            (p as { resultChecksum?: unknown }).resultChecksum = {
              v: 2,
              chunks: [{ from: 0, hash: "0123456789abcdef0123456789abcdef" }],
              payload: "r=14;c=3",
            };
          }
        }
      }
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

const nameBox = (page: Page) => page.getByRole("textbox", { name: "Name box" });
const messages = (page: Page) => paneOf(page).getByRole("status", { name: "Messages" });
const edits = (page: Page, where: string) => placementItem(page, where).locator("[data-hand-edits]");

async function refreshFromMenu(page: Page, where: string): Promise<void> {
  await placementItem(page, where)
    .getByRole("button", { name: /^Actions for/ })
    .click();
  await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
}

describe("hand edits", () => {
  test("a cell typed over: Edited with its row and Locate; Refresh asks, Cancel keeps the edit, Overwrite restores it", async () => {
    const page = await open();
    const where = "Summary!B2:F8";
    // Refreshed, the placement holds a checksum of this add-in's version, compared as recorded.
    await refreshFromMenu(page, where);
    await messages(page)
      .getByText("Refreshed Revenue by Region at Summary!B2:F8.")
      .waitFor({ timeout: 60_000 });
    await expect.poll(() => placementItem(page, where).textContent()).toContain("Up to date");
    const written = await cell(page, "C4").getAttribute("data-value");
    expect(written).toBeTruthy();
    expect(await edits(page, where).count()).toBe(0);

    // Typed over, Enter commits (the active cell moves down, still inside the placement): no check yet.
    await cell(page, "C4").click();
    await page.keyboard.type("4242");
    await page.keyboard.press("Enter");
    await expect.poll(() => nameBox(page).inputValue()).toBe("C5");
    expect(await cell(page, "C4").getAttribute("data-value")).toBe("4,242");
    // Leaving the placement's range compares it again.
    await cell(page, "L2").click();
    const line = placementItem(page, where).locator('[data-hand-edits="edited"]');
    await line.waitFor();
    expect(await line.textContent()).toContain("Edited");
    expect(await line.textContent()).toContain("row 4 edited");
    expect(await placementItem(page, where).textContent()).toContain("Up to date");

    // Locate selects the edited rows across the placement's columns.
    await line.getByRole("button", { name: "Locate" }).click();
    await expect.poll(() => nameBox(page).inputValue()).toBe("B4:F4");
    for (const a of ["B4", "F4"]) expect(await cell(page, a).getAttribute("aria-selected")).toBe("true");
    for (const a of ["B3", "B5", "G4"])
      expect(await cell(page, a).getAttribute("aria-selected")).not.toBe("true");

    // Refresh asks first; Cancel keeps the edit.
    await refreshFromMenu(page, where);
    const question = paneOf(page).getByText(
      "Refresh will overwrite your edits in row 4 of Revenue by Region (Summary!B4:F4).",
    );
    await question.waitFor({ timeout: 30_000 });
    await paneOf(page).getByRole("button", { name: "Cancel" }).click();
    await messages(page)
      .getByText("Not refreshed: your edits in row 4 of Revenue by Region were kept.")
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await cell(page, "C4").getAttribute("data-value")).toBe("4,242");
    expect(await line.count()).toBe(1);

    // Asked again, Overwrite: the report's value is back and the row is Up to date, not Edited.
    await refreshFromMenu(page, where);
    await question.waitFor({ timeout: 30_000 });
    await paneOf(page).getByRole("button", { name: "Overwrite" }).click();
    await messages(page)
      .getByText("Refreshed Revenue by Region at Summary!B2:F8.")
      .first()
      .waitFor({ timeout: 60_000 });
    await expect.poll(() => cell(page, "C4").getAttribute("data-value")).toBe(written);
    await expect.poll(() => edits(page, where).count()).toBe(0);
    expect(await placementItem(page, where).textContent()).toContain("Up to date");
    expect(await placementItem(page, where).textContent()).not.toContain("Edited");
  });

  test("a checksum of another version reads 'cannot tell', never Edited", async () => {
    const page = await open();
    const note = edits(page, "Summary!B12:D25");
    await note.waitFor();
    expect(await note.getAttribute("data-hand-edits")).toBe("cannot-tell");
    expect(await note.textContent()).toBe(
      "Hand edits: cannot tell (its fingerprint is of version 2; this add-in reads version 1).",
    );
    expect(await placementItem(page, "Summary!B12:D25").textContent()).not.toContain("Edited");
  });
});
