/**
 * The browser the e2e tests drive: the system's Chromium (Debian package `chromium`) through
 * playwright-core, headless, with a fresh profile per launch. Plus the preview each test file starts.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { Seed } from "../../src/sandbox/seed.js";
import { type RunningPreview, startPreview } from "../../tooling/preview/server.js";

const CHROMIUM_PATH = "/usr/bin/chromium";

export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Playwright refuses `--user-data-dir` in `launch()` (it wants `launchPersistentContext` for that):
 * it starts Chromium with a fresh temporary profile of its own and removes it on close, which is the
 * same thing. The tests then use one new context (empty storage) per flow. `extraArgs` go to
 * Chromium as well (the bench maps Microsoft's Office.js host to a local server with them).
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...extraArgs,
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** What a test file sets up once: the preview (sandbox + page) and a browser. */
export interface E2eSession {
  preview: RunningPreview;
  browser: Browser;
  /**
   * A fresh start: a new sandbox with the demo data (after the first call) and the page loaded in
   * a new tab. The tabs share one browser context, so the HTTP cache makes loads fast; the pane's
   * settings start from the demo defaults anyway, because the preview keeps them per sandbox.
   */
  openPreview(query?: string, options?: OpenOptions): Promise<Page>;
  close(): Promise<void>;
}

interface OpenOptions {
  /** Runs on the new tab before it navigates: routes, init scripts, listeners. */
  prepare?(page: Page): Promise<void> | void;
}

export async function startSession(
  options: { chatDelayMs?: number; seed?: () => Seed } = {},
): Promise<E2eSession> {
  const preview = await startPreview({
    port: 0,
    logLevel: "silent",
    watch: false,
    ...(options.chatDelayMs !== undefined ? { chatDelayMs: options.chatDelayMs } : {}),
    ...(options.seed ? { seed: options.seed } : {}),
  });
  let launched: LaunchedBrowser;
  let context: BrowserContext;
  try {
    launched = await launchBrowser();
    context = await launched.browser.newContext({ viewport: { width: 1280, height: 800 } });
  } catch (error) {
    await preview.close();
    throw error;
  }
  // One visit before the tests: the dev server's first compile and the browser's cache warm up
  // under the hook's time limit, not the first test's. It only reads, so the sandbox stays fresh.
  try {
    const warm = await context.newPage();
    await warm.goto(preview.url);
    await waitForPlacements(warm);
    await warm.close();
  } catch (error) {
    await launched.close();
    await preview.close();
    throw error;
  }
  let fresh = true;
  return {
    preview,
    browser: launched.browser,
    async openPreview(query = "", open: OpenOptions = {}) {
      if (!fresh) await preview.restartSandbox();
      fresh = false;
      for (const tab of context.pages()) await tab.close();
      const page = await context.newPage();
      await open.prepare?.(page);
      await page.goto(`${preview.url}${query}`);
      return page;
    },
    async close() {
      await context.close().catch(() => {});
      await launched.close();
      await preview.close();
    },
  };
}

/**
 * The task pane beside the workbook: its frame on the preview page. The frame is no landmark of its
 * own; the pane inside renders the page's one main landmark.
 */
export function paneOf(page: Page) {
  return page.locator("#pane-frame");
}

/** A cell of the active sheet by its A1 address (exact: "B2" is not "B20"). */
export function cell(page: Page, address: string) {
  return page.getByRole("gridcell", { name: address, exact: true });
}

/** The pane's list item of the placement shown at `where` ("Summary!B2:F8"). */
export function placementItem(page: Page, where: string) {
  return paneOf(page)
    .getByRole("listitem")
    .filter({ has: page.getByText(new RegExp(`^${escapeRegExp(where)}( ·|$)`)) });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Waits until the pane lists this workbook's placements. */
export async function waitForPlacements(page: Page): Promise<void> {
  await paneOf(page)
    .getByRole("heading", { name: /Reports in this workbook/ })
    .waitFor();
  await placementItem(page, "Summary!B2:F8").or(placementItem(page, "'Q1 Sales'!B2:E14")).first().waitFor();
}
