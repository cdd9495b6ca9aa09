/**
 * The pane's shell in a real Chromium (the preview, as `npm start` serves it): the Ask view keeps
 * its question box in sight at the bottom while answers pile up above it, the newest answer in
 * view; an outcome shows inside the pane's box, not over the workbook; focus stays on Refresh.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { cell, type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 90_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession();
});

afterAll(async () => {
  await session?.close();
});

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** Every axe-core violation on the page (colour contrast included), at any impact level. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(await readFile(AXE_PATH, "utf8"));
  return page.evaluate(async () => {
    type Found = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Found[] }> } }).axe;
    const { violations } = await axe.run();
    return violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

async function open(): Promise<Page> {
  const page = await session.openPreview();
  await waitForPlacements(page);
  return page;
}

/** The part of the pane's scrolling body that is on screen. */
async function paneViewport(page: Page) {
  const box = await page.locator("#pane").boundingBox();
  if (!box) throw new Error("the pane is not drawn");
  return { top: box.y, bottom: box.y + box.height, left: box.x, right: box.x + box.width };
}

/**
 * Where `locator` is drawn, once it is: a part the pane loads on first use can hide what is already
 * shown for a moment (React's Suspense), so a box is waited for, not read once.
 */
async function boxOf(locator: Locator) {
  let box: Awaited<ReturnType<Locator["boundingBox"]>> = null;
  await expect.poll(async () => (box = await locator.boundingBox()), { message: "not drawn" }).not.toBeNull();
  const { x, y, width, height } = box!;
  return { top: y, bottom: y + height, left: x, right: x + width };
}

describe("the Ask view", () => {
  test("keeps the question box pinned at the bottom and the newest answer in view", async () => {
    const page = await open();
    const pane = paneOf(page);
    await pane.getByRole("tab", { name: "Ask" }).click();
    const box = pane.getByRole("textbox", { name: "Ask the agent" });
    await box.waitFor();
    const view = await paneViewport(page);
    // With no conversation yet, the box already sits at the bottom of the view.
    expect(view.bottom - (await boxOf(pane.locator("form").last())).bottom).toBeLessThan(40);

    for (const question of ["Which region grew fastest?", "And the slowest?", "Show revenue by region."]) {
      const done = await pane.locator('[data-answer-status="done"]').count();
      await box.fill(question);
      await pane.getByRole("button", { name: "Send" }).click();
      await pane.locator('[data-answer-status="done"]').nth(done).waitFor({ timeout: 30_000 });
    }
    const composer = await boxOf(box);
    expect(composer.top).toBeGreaterThanOrEqual(view.top);
    expect(composer.bottom).toBeLessThanOrEqual(view.bottom);
    // The newest answer is on screen above the question box.
    const last = await boxOf(pane.locator('[data-answer-status="done"]').last());
    expect(last.bottom).toBeGreaterThan(view.top);
    expect(last.top).toBeLessThan(composer.top);
    expect(await axeViolations(page)).toEqual([]);
  });

  test("at 300 px in the dark theme: the tabs by keyboard, and nothing for axe to find", async () => {
    const page = await session.openPreview("?width=300");
    await waitForPlacements(page);
    await page.getByRole("button", { name: "Dark theme" }).click();
    const pane = paneOf(page);
    await pane.getByRole("tab", { name: "Reports" }).focus();
    await page.keyboard.press("ArrowRight");
    await pane.getByRole("textbox", { name: "Ask the agent" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Ask");
    expect(await pane.getByRole("heading", { name: /Reports in this workbook/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    // The choice is remembered: back to light for the tests after this one.
    await page.getByRole("button", { name: "Dark theme" }).click();
  });
});

describe("messages", () => {
  test("an outcome shows inside the pane, at the top of its main area", async () => {
    const page = await open();
    const pane = paneOf(page);
    await cell(page, "D5").click();
    await pane.getByRole("button", { name: "Disconnect report here" }).click();
    const message = pane.getByRole("status", { name: "Messages" }).getByText(/^Disconnected /);
    await message.waitFor();
    const shown = await boxOf(message);
    const frame = await boxOf(pane);
    expect(shown.left).toBeGreaterThanOrEqual(frame.left);
    expect(shown.right).toBeLessThanOrEqual(frame.right);
    // Focus rests on the selected-cell card, never on the page's body.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "selected-cell-card",
    );
    // The newest message is the disconnect's (the demo's renamed tab may have said so first).
    await pane
      .getByRole("status", { name: "Messages" })
      .getByRole("button", { name: "Dismiss" })
      .last()
      .click();
    expect(await message.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  });

  test("Reload list keeps focus while it runs and after", async () => {
    const page = await open();
    const refresh = paneOf(page).getByRole("button", { name: "Reload list", exact: true });
    await refresh.focus();
    await page.keyboard.press("Enter");
    await waitForPlacements(page);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Reload list");
  });
});
