/**
 * Previewing the agent as another user, from the keyboard in a real Chromium: Add attribute lands in
 * the new attribute's name, Remove attribute on the row that took its place (then Add attribute),
 * and Back to me in the question box. Focus never falls to the page.
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

/** The focused element's accessible name as far as the DOM tells, or "BODY". */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "BODY";
    const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
    return el.getAttribute("aria-label") ?? label ?? el.textContent?.trim() ?? "";
  });
}

describe("the agent's identity from the keyboard", () => {
  test("Add attribute, Remove attribute and Back to me leave focus on a control", async () => {
    const page = await session.openPreview("?width=350");
    await waitForPlacements(page);
    const pane = paneOf(page);
    await pane.getByRole("tab", { name: "Ask" }).click();
    await pane.getByRole("button", { name: "See the agent as another user" }).click();

    await pane.getByRole("button", { name: "Add attribute" }).press("Enter");
    await expect.poll(() => focused(page)).toBe("Attribute 1 name");
    await pane.getByRole("button", { name: "Add attribute" }).press("Enter");
    await expect.poll(() => focused(page)).toBe("Attribute 2 name");

    await pane.getByRole("button", { name: "Remove attribute 1" }).press("Enter");
    await expect.poll(() => focused(page)).toBe("Remove attribute 1");
    await page.keyboard.press("Enter");
    await expect.poll(() => focused(page)).toBe("Add attribute");

    // Pick another user, then Back to me.
    await pane.getByRole("combobox", { name: "User" }).click();
    await pane.getByRole("option").first().click();
    const back = pane.getByRole("button", { name: "Back to me" });
    await back.press("Enter");
    await back.waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toBe("Ask the agent");
  });
});
