/**
 * What the two Chromium sections share: the production preview served with a sandbox on loopback,
 * and "navigation to the frame that first paints N list items", measured in the page itself.
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { PREVIEW_CONFIG_PATH } from "../src/hosts/preview/config.js";
import type { Seed } from "../src/sandbox/seed.js";
import { startSandbox } from "../src/sandbox/server.js";
import { demoPreviewConfig } from "../tooling/preview/server.js";
import { type StaticServer, serveStatic } from "./static-server.js";

export interface ServedPreview {
  url: string;
  close(): Promise<void>;
}

/** The built preview (bench/builds.ts) and a sandbox with `seed`, as `npm start` would pair them. */
export async function servePreview(previewDir: string, seed: Seed): Promise<ServedPreview> {
  const sandbox = await startSandbox({ port: 0, seed });
  let server: StaticServer;
  try {
    server = await serveStatic(previewDir, { [PREVIEW_CONFIG_PATH]: () => demoPreviewConfig(sandbox.url) });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    url: server.url,
    async close() {
      await server.close();
      await sandbox.close();
    },
  };
}

declare global {
  interface Window {
    __listPainted?: number;
  }
}

/**
 * Runs in the page before its scripts: once `count` elements match `selector` and the first has a
 * box, the next animation frame (the one that paints them) records `performance.now()`, which counts
 * from the navigation's start, and a "list-painted" mark, which a trace shows (bench/cpu.ts). Source text, not a function: tsx would add helpers the page lacks.
 */
function watchForList(selector: string, count: number): string {
  return `(() => {
    const selector = ${JSON.stringify(selector)};
    const count = ${count};
    let done = false;
    const observer = new MutationObserver(() => {
      if (done) return;
      const all = document.querySelectorAll(selector);
      if (all.length < count || all[0].getBoundingClientRect().height === 0) return;
      done = true;
      observer.disconnect();
      requestAnimationFrame(() => { window.__listPainted = performance.now(); performance.mark("list-painted"); });
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  })();`;
}

export interface Navigation {
  /** Navigation start to the frame that paints the list, ms. */
  ms: number;
  close(): Promise<void>;
  page: Page;
  /** Navigates the same page to `url` again (same tab: its cache and sessionStorage kept), timed the same way. */
  again(url: string): Promise<number>;
}

export interface NavigateOptions {
  /** The fresh context's options (default: a 1280 × 800 viewport). */
  context?: BrowserContextOptions;
  /** Runs on the new page before it navigates (routes, for instance). */
  prepare?: (page: Page) => Promise<void>;
}

/** Opens `url` in a fresh context (empty cache and storage) and waits for the list. */
export async function navigate(
  browser: Browser,
  url: string,
  selector: string,
  count = 1,
  timeoutMs = 30_000,
  options: NavigateOptions = {},
): Promise<Navigation> {
  const context = await browser.newContext(options.context ?? { viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.addInitScript(watchForList(selector, count));
    await options.prepare?.(page);
    const timed = async (target: string): Promise<number> => {
      errors.length = 0;
      await page.goto(target, { waitUntil: "commit", timeout: timeoutMs });
      const handle = await page
        .waitForFunction(() => window.__listPainted, null, { timeout: timeoutMs, polling: 20 })
        .catch((error: unknown) => {
          throw new Error(
            `${target}: no ${count} × "${selector}" in ${timeoutMs} ms (${errors.join("; ")})`,
            {
              cause: error,
            },
          );
        });
      return (await handle.jsonValue()) as number;
    };
    const ms = await timed(url);
    return { ms, page, close: () => context.close(), again: timed };
  } catch (error) {
    await context.close();
    throw error;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const ms = (n: number) => `${n.toFixed(0)} ms`;

/**
 * Presses a key (Shift: it types nothing) every 50 ms until `done` settles, as a user working
 * during a long task would; resolves with the number of presses once `done` has (its error thrown).
 * The page records how long each press waited for its handler.
 */
export async function pressUntil(page: Page, done: Promise<unknown>): Promise<number> {
  let finished = false;
  const settled = () => {
    finished = true;
  };
  void done.then(settled, settled);
  let presses = 0;
  while (!finished) {
    await page.keyboard.press("Shift");
    presses++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await done;
  return presses;
}
