/**
 * `npm run screenshots`: pictures of the task pane for the docs, taken from the preview exactly as
 * `npm start` serves it (the sandbox with the demo data, on a free port) in the system's Chromium.
 *
 * Writes docs/screenshots/pane-{reports,ask,refresh,place,undo,edited,move}-{light,dark}-{300,350}.png:
 * the pane alone (clipped to it), at Google Sheets' sidebar width (300 px) and Excel's task pane
 * width (350 px), in the light and dark themes, showing the "Reports" view (a placement current),
 * the "Ask" view (the agent chat), a Refresh all in progress ("1 of M refreshed" with Stop, the next
 * placement Refreshing…, the rest Queued), Place a report here's picker at an empty cell, a
 * disconnect's outcome with Undo, a placement Edited by hand (after its refresh, a cell typed over)
 * and a placement Not found after its tab was renamed, its menu open on Move here. When the pane has tabs named "Reports" and "Ask" they are clicked;
 * without them, "Reports" is the pane at its top and "Ask" the pane scrolled to its agent chat
 * section. For the refresh picture the run's second data load is held back until the picture is
 * taken (then Stop is pressed), so the progress is caught at the same point on every machine; the
 * sandbox is started afresh after each theme and width, so no picture shows an earlier run's
 * "refreshed just now".
 *
 * The pictures show no port, address or date: the demo's times are relative ("refreshed 12 minutes
 * ago"), and the pane's text is checked for an address, a port or a date before each picture.
 */
import { mkdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { THEME_KEY, type Theme } from "../src/hosts/preview/theme.js";
import { startPreview } from "../tooling/preview/server.js";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const SCREENSHOTS_DIR = fileURLToPath(new URL("../docs/screenshots/", import.meta.url));

export const VIEWS = ["reports", "ask", "refresh", "place", "undo", "edited", "move"] as const;
export const THEMES: readonly Theme[] = ["light", "dark"];
export const WIDTHS = [300, 350] as const;

export type View = (typeof VIEWS)[number];

/** The data API's load, as the pane calls it (the sandbox: `<base>/data/<deployment>/cubejs-api/v1/load`). */
const DATA_LOAD = "**/cubejs-api/v1/load";

/** The file a picture goes to: `pane-ask-dark-300.png`. */
export function screenshotName(view: View, theme: Theme, width: number): string {
  return `pane-${view}-${theme}-${width}.png`;
}

/** What must never show in a picture: an address or a port, a calendar date, a clock time. */
export function revealingText(text: string, ports: readonly string[]): string[] {
  const found: string[] = [];
  for (const port of ports) if (text.includes(`:${port}`)) found.push(`the port ${port}`);
  for (const pattern of [
    /\b(?:127\.0\.0\.1|localhost)\b/,
    /\b\d{4}-\d{2}-\d{2}\b/,
    /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/,
    /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}\b/,
    /\b\d{1,2}:\d{2}\b/,
  ]) {
    const match = pattern.exec(text);
    if (match) found.push(`"${match[0]}"`);
  }
  return found;
}

const paneOf = (page: Page) => page.locator("#pane-frame");

async function clickTabIfAny(pane: Locator, name: string): Promise<boolean> {
  const tab = pane.getByRole("tab", { name, exact: true });
  if ((await tab.count()) === 0) return false;
  await tab.first().click();
  // The pointer leaves the tab: a picture shows the tab selected, not hovered.
  await pane.page().mouse.move(0, 0);
  return true;
}

/** Scrolls every scrolling box in the pane back to its top. */
async function scrollPaneToTop(page: Page) {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>("#pane-frame, #pane-frame *")) {
      if (el.scrollTop > 0) el.scrollTop = 0;
    }
  });
}

async function showView(page: Page, view: View) {
  const pane = paneOf(page);
  if (view === "refresh") {
    await clickTabIfAny(pane, "Reports");
    await pane.getByRole("button", { name: "Refresh all" }).click();
    // The first placement refreshed, the second one's load held back (picture()), the rest queued.
    await pane
      .getByRole("status")
      .filter({ hasText: /^1 of \d+ refreshed$/ })
      .waitFor({ timeout: 60_000 });
    await pane.getByText("Queued", { exact: true }).first().waitFor();
    await page.mouse.move(0, 0);
    await scrollPaneToTop(page);
    return;
  }
  if (view === "place") {
    await clickTabIfAny(pane, "Reports");
    await page.getByRole("gridcell", { name: "L2", exact: true }).click();
    const card = pane.getByTestId("selected-cell-card");
    await card.getByRole("button", { name: "Place a report here" }).click();
    await card.getByRole("searchbox", { name: "Search reports" }).fill("re");
    await card.getByRole("radio").first().check();
    await page.mouse.move(0, 0);
    await card.evaluate((el) => el.scrollIntoView({ block: "start" }));
    return;
  }
  if (view === "undo") {
    await page.keyboard.press("Escape");
    await page.getByRole("gridcell", { name: "C4", exact: true }).click();
    await pane.getByRole("button", { name: "Disconnect report here" }).click();
    await pane.getByRole("status", { name: "Messages" }).getByRole("button", { name: "Undo" }).waitFor();
    await page.mouse.move(0, 0);
    await scrollPaneToTop(page);
    return;
  }
  if (view === "edited") {
    const item = pane.locator("li[data-placement-key]").filter({ hasText: "Summary!B2:F8" });
    await item.getByRole("button", { name: /^Actions for/ }).click();
    await pane.getByRole("menuitem", { name: "Refresh", exact: true }).click();
    await pane
      .getByRole("status", { name: "Messages" })
      .getByText("Refreshed Revenue by Region at Summary!B2:F8.")
      .waitFor({ timeout: 60_000 });
    await page.getByRole("gridcell", { name: "C4", exact: true }).click();
    await page.keyboard.type("4242");
    await page.keyboard.press("Enter");
    await page.getByRole("gridcell", { name: "L2", exact: true }).click();
    await item.locator('[data-hand-edits="edited"]').waitFor({ timeout: 60_000 });
    await page.mouse.move(0, 0);
    await item.evaluate((el) => el.scrollIntoView({ block: "center" }));
    return;
  }
  if (view === "move") {
    // 'Q1 Sales'!B2:E14 is stored without a sheet id: renamed, its tab cannot be followed.
    await page.getByRole("tab", { name: "Q1 Sales" }).click();
    await page.getByRole("button", { name: "Rename sheet…" }).click();
    await page.getByRole("textbox", { name: "New name for sheet Q1 Sales" }).fill("Q1");
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: "Q1" }).waitFor();
    await page.getByRole("gridcell", { name: "B2", exact: true }).click();
    const item = pane.locator("li[data-placement-key]").filter({ hasText: "'Q1 Sales'!B2:E14" });
    await item.getByText("Not found", { exact: false }).first().waitFor({ timeout: 60_000 });
    await item.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await item.getByRole("button", { name: /^Actions for/ }).click();
    await pane.getByRole("menuitem", { name: "Move here" }).waitFor();
    return;
  }
  if (view === "reports") {
    await clickTabIfAny(pane, "Reports");
    // A placement current: the "Selected cell" card names its report.
    await page.getByRole("gridcell", { name: "C4", exact: true }).click();
    await pane.locator('[aria-current="true"]').first().waitFor();
    await scrollPaneToTop(page);
    return;
  }
  if (await clickTabIfAny(pane, "Ask")) {
    await pane.getByRole("textbox", { name: "Ask the agent" }).waitFor();
    return;
  }
  const heading = pane.getByRole("heading", { name: "Agent chat" });
  await heading.waitFor();
  await heading.evaluate((el) => el.scrollIntoView({ block: "start" }));
}

interface Shot {
  pageUrl: string;
  ports: string[];
  outDir: string;
  theme: Theme;
  width: number;
}

async function picture(browser: Browser, { pageUrl, ports, outDir, theme, width }: Shot) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: theme,
    reducedMotion: "reduce",
  });
  // The preview remembers its theme in localStorage: set it before the page reads it.
  await context.addInitScript(
    `localStorage.setItem(${JSON.stringify(THEME_KEY)}, ${JSON.stringify(theme)});`,
  );
  // A Refresh all's second data load waits until the picture of the run in progress is taken.
  let loads = 0;
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route(DATA_LOAD, async (route) => {
    loads++;
    if (loads === 2) await held;
    // Stop abandons the held load: the page no longer waits for it.
    await route.continue().catch(() => {});
  });
  const page = await context.newPage();
  const written: string[] = [];
  try {
    await page.goto(`${pageUrl}${width === 350 ? "" : `?width=${width}`}`);
    const pane = paneOf(page);
    await pane.getByRole("heading", { name: /Reports in this workbook/ }).waitFor({ timeout: 60_000 });
    await page.evaluate(() => document.fonts.ready.then(() => true));
    for (const view of VIEWS) {
      await showView(page, view);
      const problems = revealingText(await pane.innerText(), ports);
      if (problems.length > 0) {
        throw new Error(`The pane's ${view} view shows ${problems.join(", ")}; no picture taken.`);
      }
      const box = await pane.boundingBox();
      if (!box) throw new Error("The pane is not drawn.");
      const path = join(outDir, screenshotName(view, theme, width));
      await page.screenshot({ path, clip: box, animations: "disabled", caret: "hide" });
      written.push(path);
      if (view === "refresh") {
        await pane.getByRole("button", { name: "Stop" }).click();
        release();
        await pane.getByRole("button", { name: "Refresh all" }).waitFor({ timeout: 60_000 });
      }
      if (view === "undo") {
        await pane.getByRole("status", { name: "Messages" }).getByRole("button", { name: "Undo" }).click();
        await pane
          .getByText(/^Undone: /)
          .first()
          .waitFor({ timeout: 60_000 });
      }
      if (view === "move") await page.keyboard.press("Escape");
    }
  } finally {
    release();
    await context.close();
  }
  return written;
}

export interface ScreenshotOptions {
  /** Where the pictures go: docs/screenshots/ by default. */
  outDir?: string;
  log?: (line: string) => void;
}

/** A PNG's width and height, from its IHDR chunk. */
export async function pngSize(path: string): Promise<{ width: number; height: number }> {
  const bytes = await readFile(path);
  if (
    bytes.subarray(1, 4).toString("latin1") !== "PNG" ||
    bytes.subarray(12, 16).toString("latin1") !== "IHDR"
  ) {
    throw new Error(`${path} is not a PNG.`);
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * What the run must have written: every view, theme and width once, each picture as wide as the
 * pane it shows (300 or 350 px) and as tall as the page (800 px). Throws naming what is wrong.
 */
export async function checkScreenshots(written: readonly string[]): Promise<void> {
  const expected = VIEWS.flatMap((view) =>
    THEMES.flatMap((theme) => WIDTHS.map((width) => screenshotName(view, theme, width))),
  ).sort();
  const names = written.map((path) => basename(path)).sort();
  if (names.join() !== expected.join()) {
    throw new Error(`Expected the pictures ${expected.join(", ")}; wrote ${names.join(", ") || "none"}.`);
  }
  for (const path of written) {
    const { width, height } = await pngSize(path);
    const wanted = path.endsWith("-300.png") ? 300 : 350;
    if (width !== wanted || height !== 800) {
      throw new Error(`${basename(path)} is ${width}x${height} px; it should be ${wanted}x800.`);
    }
  }
}

/** Takes the pictures (every view, theme and width) and checks them (checkScreenshots); returns the files written. */
export async function takeScreenshots(options: ScreenshotOptions = {}): Promise<string[]> {
  const outDir = options.outDir ?? SCREENSHOTS_DIR;
  await mkdir(outDir, { recursive: true });
  const preview = await startPreview({ port: 0, logLevel: "silent", watch: false });
  const written: string[] = [];
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    try {
      for (const theme of THEMES) {
        for (const width of WIDTHS) {
          const ports = [new URL(preview.url).port, new URL(preview.sandboxUrl).port];
          for (const path of await picture(browser, { pageUrl: preview.url, ports, outDir, theme, width })) {
            written.push(path);
            options.log?.(`Wrote ${path}`);
          }
          // The next pictures start from the demo data as it was, not after this Refresh all.
          await preview.restartSandbox();
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    await preview.close();
  }
  await checkScreenshots(written);
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  takeScreenshots({ log: (line) => console.log(line) }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
