/**
 * The preview in the widths the pane must fit (300 px: Google Sheets' sidebar; 350 px: Excel's task
 * pane): axe-core finds no violation at any impact level on the whole page, the page has one `main`
 * landmark (the pane's) beside the workbook's labelled region, and a screenshot of the main screen
 * is saved for a person to look at (test/e2e/__screenshots__/, not committed).
 */
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { cell, type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 60_000 });

const SCREENSHOTS = fileURLToPath(new URL("./__screenshots__/", import.meta.url));
const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let session: E2eSession;

beforeAll(async () => {
  session = await startSession();
  await mkdir(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await session?.close();
});

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Every axe-core violation on the page, at any impact level (best practices included). */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated by the test's driver, not added as a <script>: the page's Content-Security-Policy
  // (rightly) refuses inline scripts.
  await page.evaluate(await readFile(AXE_PATH, "utf8"));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations;
  });
  return violations.map(
    (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
}

describe("the preview page", () => {
  test("has one main landmark, the pane's, and the workbook in a labelled region beside it", async () => {
    const page = await session.openPreview();
    await waitForPlacements(page);
    // Exactly one main on the page, and it is the pane's (taskpane/App.tsx renders it).
    expect(await page.getByRole("main").count()).toBe(1);
    expect(await paneOf(page).getByRole("main").count()).toBe(1);
    // The workbook is a labelled region holding the grid and the sheet tabs.
    const workbook = page.getByRole("region", { name: "Workbook", exact: true });
    expect(await workbook.count()).toBe(1);
    expect(await workbook.getByRole("grid").count()).toBe(1);
    expect(await workbook.getByRole("tablist", { name: "Sheets" }).count()).toBe(1);
    // No complementary landmark wraps the pane, and no landmark contains the main.
    expect(await page.getByRole("complementary").count()).toBe(0);
    const landmarkAroundMain = await page.evaluate(() => {
      const main = document.querySelector("main, [role=main]");
      const around = main?.parentElement?.closest(
        "main, aside, nav, section[aria-label], section[aria-labelledby], form[aria-label], [role=region], [role=complementary], [role=navigation], [role=main], [role=banner], [role=contentinfo], [role=search]",
      );
      return around ? around.outerHTML.slice(0, 80) : null;
    });
    expect(landmarkAroundMain).toBeNull();
    // At the narrow, stacked width too, the whole page is clean at every impact level.
    await page.setViewportSize({ width: 420, height: 800 });
    expect(await axeViolations(page)).toEqual([]);
  });

  test("at 300 px, with a placement current, has no axe-core violation at any impact level", async () => {
    const page = await session.openPreview("?width=300");
    await waitForPlacements(page);
    expect((await paneOf(page).boundingBox())?.width).toBe(300);
    await cell(page, "C4").click();
    await expect.poll(() => paneOf(page).locator('[aria-current="true"]').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}main-300.png` });
    expect(await axeViolations(page)).toEqual([]);
  });

  test("in the dark theme, too; and the main screen (350 px) is saved as a screenshot", async () => {
    const page = await session.openPreview();
    await waitForPlacements(page);
    expect((await paneOf(page).boundingBox())?.width).toBe(350);
    await cell(page, "C4").click();
    await expect.poll(() => paneOf(page).locator('[aria-current="true"]').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}main.png` });

    // Light until now; the choice is remembered, so it is the last test's to make.
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect.poll(() => page.evaluate(() => document.body.dataset.theme)).toBe("dark");
    await page.screenshot({ path: `${SCREENSHOTS}main-dark.png` });
    expect(await axeViolations(page)).toEqual([]);
  });
});
