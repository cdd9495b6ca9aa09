/**
 * Navigation to the first rendered placement list in Chromium: the production build of the preview
 * (task pane beside the simulated workbook) over the sandbox with the demo data on loopback, against
 * a bare React 19 page (bench/bare-react: fetches a small list from its server and renders it),
 * served by the same static server in the same run. Median of several navigations each, each in a
 * fresh browser context (empty cache), alternating the two pages.
 *
 * "First rendered placement list" is the animation frame that first paints a placement list item of
 * the pane (`li[data-placement-key]`, PlacementList.tsx); for the bare page, its first `li`.
 */

import { demoSeed } from "../src/sandbox/demo.js";
import { launchBrowser } from "../test/support/browser.js";
import { median, ms, navigate, servePreview } from "./browser-timing.js";
import { builds } from "./builds.js";
import { ratioLine } from "./goal.js";
import { serveStatic } from "./static-server.js";

const RUNS = 5;
export const PANE_ITEM = "#pane-frame li[data-placement-key]";

export async function run(): Promise<void> {
  const b = await builds();
  const preview = await servePreview(b.preview, demoSeed(new Date()));
  const items = Array.from({ length: 12 }, (_, i) => ({
    id: `r${i}`,
    name: `Report ${i + 1}`,
    where: `Summary!B${i * 3 + 2}:E${i * 3 + 3}`,
  }));
  const bare = await serveStatic(b.bare, { "/items.json": () => items });
  const launched = await launchBrowser();
  try {
    const once = async (url: string, selector: string) => {
      const nav = await navigate(launched.browser, url, selector);
      await nav.close();
      return nav.ms;
    };
    // Warm-up (not counted): the browser's own first-start costs.
    await once(preview.url, PANE_ITEM);
    await once(bare.url, "li");
    const pane: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      pane.push(await once(preview.url, PANE_ITEM));
      baseline.push(await once(bare.url, "li"));
    }
    const p = median(pane);
    const q = median(baseline);
    console.log(
      `navigation to the first painted placement list item, preview (production build) over the sandbox: median ${ms(p)} of ${RUNS} [${pane.map((n) => n.toFixed(0)).join(", ")}]`,
    );
    console.log(
      `navigation to the first painted list item, bare React 19 page served the same way: median ${ms(q)} of ${RUNS} [${baseline.map((n) => n.toFixed(0)).join(", ")}]`,
    );
    console.log(ratioLine("first painted placement list vs bare React page", p / q, 1.5));
  } finally {
    await launched.close();
    await bare.close();
    await preview.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
