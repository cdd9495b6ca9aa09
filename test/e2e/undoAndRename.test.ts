/**
 * Undo of a disconnect, a renamed tab's address corrected, and Move here, in a real Chromium
 * against the preview (the sandbox with the demo data, as `npm start` runs it).
 */
import type { Page, Request } from "playwright-core";
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

vi.setConfig({ testTimeout: 90_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession({
    seed: () => {
      const seed = demoSeed();
      // The demo's placement stored without a sheet id ('Q1 Sales'!B2:E14) gets a placement id, as
      // one placed after ids but before sheet ids existed: Move here needs one.
      for (const r of seed.reports) {
        for (const p of r.externalWorkbookPlacements ?? []) {
          if (r.id === 104 && !p.sheetId && p.anchorCell === "B2") p.id = "plc-104-q1";
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

/** The bodies of the PUT connect-workbook calls the page makes from now on. */
function recordConnects(page: Page): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "PUT" && request.url().endsWith("/connect-workbook")) {
      bodies.push(request.postDataJSON());
    }
  });
  return bodies;
}

const messages = (page: Page) => paneOf(page).getByRole("status", { name: "Messages" });

async function renameTab(page: Page, from: string, to: string): Promise<void> {
  await page.getByRole("tab", { name: from }).click();
  await page.getByRole("button", { name: "Rename sheet…" }).click();
  await page.getByRole("textbox", { name: `New name for sheet ${from}` }).fill(to);
  await page.keyboard.press("Enter");
  await page.getByRole("tab", { name: to }).waitFor();
}

describe("Undo of a disconnect", () => {
  test("disconnect, Undo: the same placement is back in the list and in the workbook's shading", async () => {
    const page = await open();
    const connects = recordConnects(page);
    await cell(page, "D5").click();
    await paneOf(page).getByRole("button", { name: "Disconnect report here" }).click();
    await messages(page).getByText("Disconnected Revenue by Region from Summary!B2:F8").waitFor();
    await expect.poll(() => placementItem(page, "Summary!B2:F8").count()).toBe(0);

    await messages(page).getByRole("button", { name: "Undo" }).click();
    await messages(page).getByText("Undone: Revenue by Region is placed at Summary!B2:F8 again.").waitFor();
    await expect.poll(() => placementItem(page, "Summary!B2:F8").count()).toBe(1);
    const restore = connects.find((b) => !("addressOnly" in b));
    expect(restore).toMatchObject({
      resultLocation: expect.any(String),
      anchorCell: "B2",
      endResultCell: "F8",
    });
    expect(restore).not.toHaveProperty("placementId");
    // Focus is on the restored placement's row.
    await expect
      .poll(() =>
        placementItem(page, "Summary!B2:F8")
          .locator("[data-placement-select]")
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    // The workbook shades the range again, and the placement survives a reload of the page.
    await expect.poll(() => cell(page, "D5").getAttribute("title")).not.toBeNull();
    await page.reload();
    await waitForPlacements(page);
    expect(await placementItem(page, "Summary!B2:F8").count()).toBe(1);
  });
});

describe("renamed tabs", () => {
  test("a tab renamed in the preview: the placement's address is corrected once, with addressOnly", async () => {
    const page = await open();
    const connects = recordConnects(page);
    await renameTab(page, "Summary", "Overview");
    await messages(page).getByText("moved with its sheet, now on Overview").first().waitFor();
    const corrections = connects.filter((b) => b.addressOnly === true && b.sheetName === "Overview");
    expect(corrections.length).toBeGreaterThanOrEqual(1);
    for (const body of corrections) expect(body.placementId).toEqual(expect.any(String));
    // Recorded under the new name: no "renamed" note, and each placement corrected once.
    await expect
      .poll(() => placementItem(page, "Overview!B2:F8").textContent())
      .not.toContain("Sheet renamed");
    const ids = connects.filter((b) => b.addressOnly === true).map((b) => b.placementId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a placement stored without a sheet id whose tab was renamed is Not found; Move here records it at the active cell", async () => {
    const page = await open();
    const connects = recordConnects(page);
    await renameTab(page, "Q1 Sales", "Q1");
    // 'Q1 Sales'!B2:E14 is stored without a sheet id: it cannot be followed. ("Q1" is also a cell's
    // name, so the new sheet's name is quoted.)
    const item = placementItem(page, "'Q1 Sales'!B2:E14");
    await expect.poll(() => item.textContent()).toContain("Not found: no sheet is named 'Q1 Sales' now.");
    await cell(page, "B2").click();
    await item.getByRole("button", { name: /^Actions for / }).click();
    await paneOf(page).getByRole("menuitem", { name: "Move here" }).click();
    await messages(page)
      .getByText(/is now recorded at 'Q1'!B2:E14\./)
      .waitFor();
    expect(connects.at(-1)).toMatchObject({
      sheetName: "Q1",
      anchorCell: "B2",
      endResultCell: "E14",
      addressOnly: true,
    });
    await expect.poll(() => placementItem(page, "'Q1'!B2:E14").count()).toBe(1);
    expect(await placementItem(page, "'Q1'!B2:E14").textContent()).not.toContain("Not found");
  });
});
