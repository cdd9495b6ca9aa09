/**
 * Place a report here in the preview, in a real Chromium against the sandbox (as `npm start` runs
 * them): from the selected-cell card at an empty cell, the deployment's reports searched by name,
 * Place, and the new placement listed Up to date as the current one, its cells written.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
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

describe("Place a report here", () => {
  test("choose a report, Place: its cells written, listed Up to date, the current placement", async () => {
    const page = await open();
    await cell(page, "L2").click();
    const card = paneOf(page).getByTestId("selected-cell-card");
    await expect.poll(() => card.textContent()).toContain("Summary!L2");
    await card.getByRole("button", { name: "Place a report here" }).click();
    // Reports placed here already are marked; the search narrows by name.
    const revenue = card.getByRole("radio", { name: "Revenue by Region" });
    await revenue.waitFor();
    expect(await revenue.getAttribute("aria-describedby")).toBeTruthy();
    await card.getByRole("searchbox", { name: "Search reports" }).fill("forecast");
    await expect.poll(() => card.getByRole("radio").count()).toBe(1);
    await card.getByRole("radio", { name: "Forecast vs Actual" }).check();
    await card.getByRole("button", { name: "Place", exact: true }).click();
    await expect
      .poll(() => paneOf(page).textContent(), { timeout: 30_000 })
      .toMatch(/Placed Forecast vs Actual at Summary!L2:[A-Z]+\d+\./);
    const where = (await paneOf(page).textContent())!.match(
      /Placed Forecast vs Actual at (Summary!L2:[A-Z]+\d+)\./,
    )![1]!;
    const item = placementItem(page, where);
    await expect.poll(() => item.textContent()).toContain("Up to date");
    expect(await item.getAttribute("aria-current")).toBe("true");
    await expect.poll(() => card.textContent()).toContain("Forecast vs Actual");
    expect(await card.getByRole("button", { name: "Place a report here" }).count()).toBe(0);
    // The header row, written as a refresh writes it.
    expect(await cell(page, "L2").getAttribute("data-value")).toBeTruthy();
    // Still there after Reload list: the service recorded it.
    await paneOf(page).getByRole("button", { name: "Reload list" }).click();
    await expect.poll(() => placementItem(page, where).textContent()).toContain("Up to date");
  });
});
