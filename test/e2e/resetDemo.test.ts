/**
 * The preview tells the truth about its demo: the sandbox keeps a disconnect across reloads while
 * the simulated workbook starts over, the page says so, and Reset demo brings both back.
 */
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

describe("Reset demo", () => {
  test("a disconnect survives a reload; Reset demo brings the demo's placements back", async () => {
    const page = await session.openPreview("?width=350");
    await waitForPlacements(page);
    expect(await page.getByText("this workbook starts over when the page reloads").count()).toBe(1);

    await cell(page, "D5").click();
    await paneOf(page).getByRole("button", { name: "Disconnect report here" }).click();
    await expect.poll(() => placementItem(page, "Summary!B2:F8").count()).toBe(0);
    await page.reload();
    await waitForPlacements(page);
    expect(await placementItem(page, "Summary!B2:F8").count()).toBe(0);

    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Reset demo" }).click();
    await reloaded;
    await waitForPlacements(page);
    expect(await placementItem(page, "Summary!B2:F8").count()).toBe(1);
  });

  test("another site cannot reset the demo", async () => {
    const answer = await fetch(new URL("/preview-reset", session.preview.url), {
      method: "POST",
      headers: { Origin: "https://evil.example" },
    });
    expect(answer.status).toBe(403);
    const get = await fetch(new URL("/preview-reset", session.preview.url));
    expect(get.status).toBe(405);
  });
});
