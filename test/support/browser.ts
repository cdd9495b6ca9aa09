/**
 * The browser the e2e tests drive: the system's Chromium (Debian package `chromium`) through
 * playwright-core, headless, with a fresh profile per launch. Plus the preview each test file starts.
 *
 * In the browser tier (vite.config.ts) the files share what is slow to make: `launchBrowser()`
 * connects to the one Chromium the tier's global setup runs (browser-setup.ts) instead of launching
 * its own, each worker keeps that connection and one browser context for all of its files
 * (`keptBrowser`), and `startSession()` serves the preview page the setup built once instead of
 * starting a dev server that compiles the pane again. Outside vitest (the bench) both start their
 * own.
 */
import { get } from "node:http";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";
import type { Seed } from "../../src/sandbox/seed.js";
import { type RunningPreview, startPreview } from "../../tooling/preview/server.js";

declare module "vitest" {
  interface ProvidedContext {
    /** The loopback address of the browser tier's shared kit (browser-setup.ts). */
    browserKit: string;
  }
}

export const CHROMIUM_PATH = "/usr/bin/chromium";

/** How every test Chromium runs: headless, no sandbox (containers), nothing fetched in the background. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** What the browser tier's kit shares: `chromium` (a browser server's endpoint), `preview` (the built page's folder). */
export type SharedPart = "chromium" | "preview";

/**
 * The shared `part` from the browser tier's kit, made on first demand; null outside that tier (no
 * kit: the bench, or a vitest project without the setup). Waits for the answer however long the
 * build takes: the hook's time limit is the only one.
 */
export async function sharedPart(part: SharedPart): Promise<string | null> {
  if (!process.env.VITEST) return null;
  const { inject } = await import("vitest");
  const kit = inject("browserKit");
  if (!kit) return null;
  return new Promise((resolve, reject) => {
    // A connection of its own (no keep-alive socket the kit may be closing as it is reused).
    get(`${kit}/${part}`, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () =>
        res.statusCode === 200
          ? resolve(body)
          : reject(new Error(`The browser tier's shared ${part} could not be made: ${body}`)),
      );
      res.on("error", reject);
    }).on("error", reject);
  });
}

export interface LaunchedBrowser {
  browser: Browser;
  /**
   * The context this browser gives a test file for its pages (`tabIn` opens them): in the browser
   * tier, the one its worker keeps for all of its files (`keptBrowser`); else one made on first
   * demand and closed by `close()`. It accepts the development certificate the add-in server's
   * HTTPS uses (Excel's pages).
   */
  context(): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** The viewport every e2e tab starts with. */
const VIEWPORT = { width: 1280, height: 800 };

/**
 * The Excel page's tests' viewport unless they set one: Playwright's default for a new context's
 * pages, which those tests had before they shared one.
 */
export const EXCEL_VIEWPORT = { width: 1280, height: 720 };

const CONTEXT_OPTIONS: BrowserContextOptions = { viewport: VIEWPORT, ignoreHTTPSErrors: true };

/**
 * Playwright refuses `--user-data-dir` in `launch()` (it wants `launchPersistentContext` for that):
 * it starts Chromium with a fresh temporary profile of its own and removes it on close, which is the
 * same thing. `extraArgs` go to Chromium as well (the bench maps Microsoft's Office.js host to a
 * local server with them).
 *
 * In the browser tier, without `extraArgs`, this is the worker's connection to the tier's shared
 * Chromium (`keptBrowser`); `close()` then closes the contexts this file made itself and leaves the
 * kept ones to the worker's next file.
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<LaunchedBrowser> {
  const shared = extraArgs.length === 0 ? await sharedPart("chromium") : null;
  if (shared) return keptBrowser(shared);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...extraArgs, ...CHROMIUM_ARGS],
  });
  let context: Promise<BrowserContext> | null = null;
  return {
    browser,
    context() {
      context ??= browser.newContext(CONTEXT_OPTIONS);
      return context;
    },
    async close() {
      await browser.close();
    },
  };
}

/** What a worker of the browser tier keeps from one test file to the next (on `globalThis`). */
interface Kept {
  browser: Browser;
  context: Promise<BrowserContext> | null;
}

const KEPT = Symbol.for("reporting-platform.test.kept-browser");

/**
 * The browser tier's worker processes run file after file (tooling/test-tiers.ts). Each keeps one
 * connection to the shared Chromium and one context for all of its files, on
 * `globalThis`, which outlives a file's fresh modules: a file's first page is then a new tab in a
 * context that has drawn pages before, not a new context's cold start (measured on the preview: 2.9
 * CPU-s of Chromium a load in a new context, 1.5 in a kept one).
 *
 * Files stay apart as new contexts kept them: each file serves its pages from servers of its own, on
 * ports of their own, so their storage is another origin's; `tabIn` empties the origin's storage
 * before a page loads anyway (a port the system hands out again), and the first tab a file opens
 * closes the last file's.
 */
async function keptBrowser(endpoint: string): Promise<LaunchedBrowser> {
  const global = globalThis as { [KEPT]?: Kept };
  let kept = global[KEPT];
  if (!kept?.browser.isConnected()) {
    kept = { browser: await chromium.connect(endpoint), context: null };
    global[KEPT] = kept;
  }
  const own = kept;
  const { browser } = own;
  return {
    browser,
    context() {
      if (!own.context) {
        const made = browser.newContext(CONTEXT_OPTIONS);
        own.context = made;
        // One that could not be made, or that a test closed, is made again for the next file.
        const forget = () => {
          if (own.context === made) own.context = null;
        };
        made.then((context) => context.once("close", forget), forget);
      }
      return own.context;
    },
    async close() {
      const context = await own.context?.catch(() => null);
      // The file's pages stop: nothing of its routes, listeners or scripts runs during the next file.
      for (const page of context?.pages() ?? []) await retire(page);
      await Promise.all(
        browser
          .contexts()
          .filter((c) => c !== context)
          .map((c) => c.close()),
      );
    },
  };
}

/** The routes and listeners a test set on `page` removed: nothing of that test runs on it any more. */
async function forgetTest(page: Page): Promise<void> {
  await page.unrouteAll({ behavior: "ignoreErrors" });
  page.removeAllListeners();
}

/**
 * A page whose file has ended, left open as a blank tab for the kept context's next page, so the
 * context keeps its renderer (`tabIn`).
 */
async function retire(page: Page): Promise<void> {
  await forgetTest(page);
  await page.goto("about:blank").catch(() => {});
}

/**
 * A new tab in `context`, the context's other tabs closed once it is open: a context left without a
 * tab loses its renderer, and the next tab starts a new one (measured: 2.4 CPU-s a load, against
 * 1.4). With `origin` ("https://127.0.0.1:4321", "file://"), that origin's storage is emptied first,
 * as a new context's would be (local and session storage, cookies, IndexedDB, caches). At the
 * viewport given, the context's 1280 x 800 otherwise.
 */
export async function tabIn(
  context: BrowserContext,
  origin: string | null,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const page = await context.newPage();
  for (const tab of context.pages()) if (tab !== page) await tab.close();
  if (origin !== null) {
    const cdp = await context.newCDPSession(page);
    try {
      await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" });
    } finally {
      await cdp.detach();
    }
  }
  if (viewport) await page.setViewportSize(viewport);
  return page;
}

/** What a test file sets up once: the preview (sandbox + page) and a browser. */
export interface E2eSession {
  preview: RunningPreview;
  browser: Browser;
  /**
   * A fresh start: a new sandbox with the demo data (after the first call) and the page loaded as
   * in a new tab: the last test's tab cleaned (`cleanTab`) when this one prepares nothing before
   * the load, else a new tab (`tabIn`). The tabs share one browser context, so the HTTP cache makes
   * loads fast; the pane's settings start from the demo defaults anyway, because the preview keeps
   * them per sandbox. The preview's storage is emptied before the file's first load.
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
  const built = await sharedPart("preview");
  const preview = await startPreview({
    port: 0,
    logLevel: "silent",
    watch: false,
    ...(built ? { built } : {}),
    ...(options.chatDelayMs !== undefined ? { chatDelayMs: options.chatDelayMs } : {}),
    ...(options.seed ? { seed: options.seed } : {}),
  });
  let launched: LaunchedBrowser;
  let context: BrowserContext;
  try {
    launched = await launchBrowser();
    context = await launched.context();
  } catch (error) {
    await preview.close();
    throw error;
  }
  /** The preview's storage is emptied once, before the file's first tab loads it; its tests share it. */
  let origin: string | null = new URL(preview.url).origin;
  // Over a dev server (the bench; no shared build), one visit before the tests: its first compile
  // of the page takes far longer than a test's time limit, so it happens under the hook's. It only
  // reads, so the sandbox stays fresh. A built page has nothing to compile: the first test's own
  // visit loads it, instead of a whole page drawn for no test in every file.
  if (!built) {
    try {
      const warm = await tabIn(context, origin);
      origin = null;
      await warm.goto(preview.url);
      await waitForPlacements(warm);
    } catch (error) {
      await launched.close();
      await preview.close();
      throw error;
    }
  }
  let fresh = true;
  /** A new sandbox with the demo data, but for the first test, which has the one just started. */
  const restartSandbox = async () => {
    if (!fresh) await preview.restartSandbox();
    fresh = false;
  };
  /** The tab the last test opened, when nothing was set on it before its first load. */
  let reusable: Page | null = null;
  return {
    preview,
    browser: launched.browser,
    async openPreview(query = "", open: OpenOptions = {}) {
      const url = `${preview.url}${query}`;
      const tabs = context.pages();
      // The last test's tab, loaded again from a clean state, when this test sets nothing up
      // before the load: about 0.45 CPU-s a load less than a new tab (Chromium's per-tab start).
      if (!open.prepare && reusable && tabs.length === 1 && tabs[0] === reusable) {
        await cleanTab(reusable, preview.url);
        await restartSandbox();
        await reusable.goto(url);
        return reusable;
      }
      await restartSandbox();
      const page = await tabIn(context, origin);
      origin = null;
      await open.prepare?.(page);
      await page.goto(url);
      // A tab prepared before its load (routes, listeners, init scripts, which cannot be removed)
      // is not loaded again for another test.
      reusable = open.prepare ? null : page;
      return page;
    },
    async close() {
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

/**
 * Leaves `tab` as a new tab would be for the preview at `base`: no routes, no listeners of the last
 * test, the default viewport, and the page's sessionStorage (the pane's kept list) empty. It first
 * leaves the preview for another document of its origin, so the pane's own write of its list as the
 * page is hidden lands before the storage is emptied, and the old page can no longer reach the
 * sandbox once it is restarted.
 */
async function cleanTab(tab: Page, base: string): Promise<void> {
  await forgetTest(tab);
  await tab.setViewportSize(VIEWPORT);
  // A small document the preview's server serves at its origin (the page's own configuration).
  await tab.goto(new URL("/preview-config.json", base).href);
  await tab.evaluate(() => sessionStorage.clear());
}
