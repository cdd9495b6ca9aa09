/**
 * The preview in the widths the pane must fit (300 px: Google Sheets' sidebar; 350 px: Excel's task
 * pane): axe-core finds no serious or critical violation, and a screenshot of the main screen is
 * saved for a person to look at (test/e2e/__screenshots__/, not committed).
 */
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { cell, type E2eSession, paneOf, startSession, waitForPlacements } from "./browser.js";

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

async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated by the test's driver, not added as a <script>: the page's Content-Security-Policy
  // (rightly) refuses inline scripts.
  await page.evaluate(await readFile(AXE_PATH, "utf8"));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

describe("the preview page", () => {
  test("at 300 px, with a placement current, has no serious or critical axe-core violations", async () => {
    const page = await session.openPreview("?width=300");
    await waitForPlacements(page);
    expect((await paneOf(page).boundingBox())?.width).toBe(300);
    await cell(page, "C4").click();
    await expect.poll(() => paneOf(page).locator('[aria-current="true"]').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}main-300.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("in the dark theme, too; and the main screen (350 px) is saved as a screenshot", async () => {
    const page = await session.openPreview();
    await waitForPlacements(page);
    expect((await paneOf(page).boundingBox())?.width).toBe(350);
    await cell(page, "C4").click();
    await expect.poll(() => paneOf(page).locator('[aria-current="true"]').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}main.png` });

    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect.poll(() => page.evaluate(() => document.body.dataset.theme)).toBe("dark");
    await page.screenshot({ path: `${SCREENSHOTS}main-dark.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
