/**
 * Refresh in the preview, in a real Chromium against the sandbox's data API (as `npm start` runs
 * them): Refresh from a placement's menu and from the selected-cell card, Refresh all with its
 * count, and the overwrite question answered Cancel. Each test starts from a fresh sandbox.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { DEMO_API_KEY } from "../../src/sandbox/demo.js";
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

async function openMenu(page: Page, where: string) {
  await placementItem(page, where)
    .getByRole("button", { name: /^Actions for/ })
    .click();
}

describe("Refresh", () => {
  test("from a placement's menu: new data in its cells, the row Up to date, the outcome in the pane", async () => {
    const page = await open();
    const where = "Summary!H2:J12";
    expect(await placementItem(page, where).textContent()).toContain("Out of date");
    await openMenu(page, where);
    const item = page.getByRole("menuitem", { name: "Refresh", exact: true });
    await item.click();
    await expect
      .poll(() => placementItem(page, where).textContent(), { timeout: 30_000 })
      .toContain("Up to date");
    expect(await placementItem(page, where).textContent()).toContain("refreshed just now");
    await expect
      .poll(() => paneOf(page).textContent())
      .toContain("Refreshed Top 10 Products at Summary!H2:J12.");
    // The header row written from the data's titles, in the cells the placement covers.
    // The grid draws a cell's value from its data-value attribute.
    await expect.poll(() => cell(page, "H2").getAttribute("data-value")).toBe("Orders Product");
    expect(Number((await cell(page, "I3").getAttribute("data-value"))?.replace(/,/g, ""))).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  });

  test("from the selected-cell card: the placement under the active cell", async () => {
    const page = await open();
    await cell(page, "C5").click();
    const card = paneOf(page).getByTestId("selected-cell-card");
    await expect.poll(() => card.textContent()).toContain("Revenue by Region");
    await card.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect
      .poll(() => paneOf(page).textContent(), { timeout: 30_000 })
      .toContain("Refreshed Revenue by Region at Summary!B2:F8.");
  });

  test("Refresh all: 'N of M refreshed', then every placement it could take is Up to date, the rest say why", async () => {
    const page = await open();
    await paneOf(page).getByRole("button", { name: "Refresh all" }).click();
    await expect
      .poll(
        () =>
          paneOf(page)
            .getByText(/\d+ of \d+ refreshed/)
            .count(),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    await expect
      .poll(() => paneOf(page).textContent(), { timeout: 60_000 })
      .toMatch(/Refreshed \d+ of \d+ placements\./);
    for (const where of ["Summary!B2:F8", "Summary!H2:J12", "Summary!H14:K20", "'Q1 Sales'!B18:F24"]) {
      expect(await placementItem(page, where).textContent(), where).toContain("Up to date");
    }
  });

  test("a result that grows into cells that are not empty asks first; Cancel writes nothing, Overwrite writes", async () => {
    const page = await open();
    // The report's owner changes its query while the pane is open (the sandbox's change-query
    // route): fifteen products, so its result (H2:J17) grows into Refund Requests' cells (H14:K20).
    const changed = await fetch(`${session.preview.sandboxUrl}/sandbox/reports/103/change-query`, {
      method: "POST",
      headers: { Authorization: `Bearer ${DEMO_API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        jsonQuery: JSON.stringify({
          measures: ["orders.revenue", "orders.units"],
          dimensions: ["orders.product"],
          timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
          order: { "orders.revenue": "desc" },
          limit: 15,
        }),
      }),
    });
    expect(changed.status).toBe(200);
    await paneOf(page).getByRole("button", { name: "Reload list" }).click();
    await waitForPlacements(page);
    const before = await cell(page, "H15").getAttribute("data-value");

    await openMenu(page, "Summary!H2:J12");
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    const question = paneOf(page).getByText(/has grown: its new result also covers Summary!H13:J17/);
    await expect.poll(() => question.count(), { timeout: 30_000 }).toBe(1);
    // Focus is on the question's first answer; nothing written before the answer.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent))
      .toBe("Overwrite");
    expect(await cell(page, "H15").getAttribute("data-value")).toBe(before);
    await paneOf(page).getByRole("button", { name: "Cancel" }).click();
    await expect
      .poll(() => paneOf(page).textContent(), { timeout: 10_000 })
      .toContain("Not refreshed: the new result of Top 10 Products would overwrite");
    expect(await cell(page, "H15").getAttribute("data-value")).toBe(before);
    expect(await placementItem(page, "Summary!H2:J12").textContent()).toContain("Out of date");

    await openMenu(page, "Summary!H2:J12");
    await page.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    await expect.poll(() => question.count(), { timeout: 30_000 }).toBe(1);
    await paneOf(page).getByRole("button", { name: "Overwrite" }).click();
    await expect
      .poll(() => paneOf(page).textContent(), { timeout: 30_000 })
      .toContain("Refreshed Top 10 Products at Summary!H2:J17.");
    expect(await cell(page, "H15").getAttribute("data-value")).not.toBe(before);
  });

  test("the report's owner changes its query (the preview's cell menu): the placement turns Out of date, Refresh brings it back", async () => {
    const page = await open();
    const where = "Summary!B2:F8";
    expect(await placementItem(page, where).textContent()).toContain("Up to date");
    await cell(page, "C4").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Change this report's query (sandbox)" }).click();
    await expect
      .poll(() => placementItem(page, where).textContent(), { timeout: 20_000 })
      .toContain("Out of date");
    await cell(page, "C4").click();
    const card = paneOf(page).getByTestId("selected-cell-card");
    await card.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect
      .poll(() => placementItem(page, where).textContent(), { timeout: 30_000 })
      .toContain("Up to date");
  });
});
