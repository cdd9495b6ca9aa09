/**
 * `npm run screenshots` (scripts/screenshots.ts): the twelve pictures of the pane, each clipped to the
 * pane at its width, and none showing an address, a port or a date. Written to a temporary folder
 * here, so the committed docs/screenshots/ stay as they are.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { revealingText, takeScreenshots } from "../../scripts/screenshots.js";

vi.setConfig({ testTimeout: 120_000 });

let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "pane-screenshots-"));
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

/** A PNG's width and height, from its IHDR chunk. */
async function pngSize(path: string): Promise<{ width: number; height: number }> {
  const bytes = await readFile(path);
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("npm run screenshots", () => {
  test("writes the Reports and Ask views and a Refresh all in progress, light and dark, at 300 and 350 px, clipped to the pane", async () => {
    const written = await takeScreenshots({ outDir });
    expect(written.map((p) => basename(p)).sort()).toEqual(
      [
        "pane-ask-dark-300.png",
        "pane-ask-dark-350.png",
        "pane-ask-light-300.png",
        "pane-ask-light-350.png",
        "pane-reports-dark-300.png",
        "pane-reports-dark-350.png",
        "pane-reports-light-300.png",
        "pane-reports-light-350.png",
        "pane-refresh-dark-300.png",
        "pane-refresh-dark-350.png",
        "pane-refresh-light-300.png",
        "pane-refresh-light-350.png",
      ].sort(),
    );
    for (const path of written) {
      const size = await pngSize(path);
      expect(size.width, path).toBe(path.endsWith("-300.png") ? 300 : 350);
      expect(size.height, path).toBe(800);
    }
  });

  test("refuses a pane that shows an address, a port or a date", () => {
    expect(revealingText("Tenant http://127.0.0.1:41234 · refreshed 12 minutes ago", ["41234"])).toEqual([
      "the port 41234",
      '"127.0.0.1"',
    ]);
    expect(revealingText("Refreshed 2026-11-25", [])).toEqual(['"2026-11-25"']);
    expect(revealingText("Refreshed Nov 25 at 06:36", [])).toEqual(['"Nov 25"', '"06:36"']);
    // Relative times and a workbook named after a year are fine.
    expect(revealingText("Also in Board Pack 2024 · refreshed 3 hours ago", ["41234"])).toEqual([]);
  });
});
