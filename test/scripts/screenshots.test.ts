/**
 * `npm run screenshots` (scripts/screenshots.ts) without taking a picture: what it refuses to show
 * (an address, a port, a date) and how it checks what it wrote (every view, theme and width once,
 * each as wide as its pane). Taking the pictures is the tool's own run, not the test suite's: the
 * pictures are for the docs, and the browser tests already drive the same views.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  checkScreenshots,
  pngSize,
  revealingText,
  screenshotName,
  THEMES,
  VIEWS,
  WIDTHS,
} from "../../scripts/screenshots.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "screenshots-check-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The start of a PNG (signature and IHDR chunk) of this size: all pngSize reads. */
function pngHeader(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

/** Writes the eight pictures' files as the tool would name them, with their sizes (or `size`'s). */
async function writeAll(size?: (name: string) => [number, number] | undefined): Promise<string[]> {
  const paths: string[] = [];
  for (const view of VIEWS) {
    for (const theme of THEMES) {
      for (const width of WIDTHS) {
        const name = screenshotName(view, theme, width);
        const [w, h] = size?.(name) ?? [width, 800];
        const path = join(dir, name);
        await writeFile(path, pngHeader(w, h));
        paths.push(path);
      }
    }
  }
  return paths;
}

describe("npm run screenshots", () => {
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

  test("reads a PNG's size from its header, and refuses a file that is no PNG", async () => {
    await writeFile(join(dir, "one.png"), pngHeader(350, 800));
    expect(await pngSize(join(dir, "one.png"))).toEqual({ width: 350, height: 800 });
    await writeFile(join(dir, "not.png"), "GIF89a and then some more bytes to read");
    await expect(pngSize(join(dir, "not.png"))).rejects.toThrow("not.png is not a PNG.");
  });

  test("accepts the Reports, Ask, Refresh all, Place, Undo, Edited and Move here views, light and dark, at 300 and 350 px, clipped to the pane", async () => {
    expect(VIEWS).toEqual(["reports", "ask", "refresh", "place", "undo", "edited", "move"]);
    const written = await writeAll();
    expect(written).toHaveLength(28);
    await expect(checkScreenshots(written)).resolves.toBeUndefined();
  });

  test("refuses a missing picture, and one not as wide as its pane or not as tall as the page", async () => {
    const written = await writeAll();
    await expect(checkScreenshots(written.slice(1))).rejects.toThrow(/^Expected the pictures /);
    const wide = await writeAll((name) => (name === "pane-ask-dark-300.png" ? [350, 800] : undefined));
    await expect(checkScreenshots(wide)).rejects.toThrow(
      "pane-ask-dark-300.png is 350x800 px; it should be 300x800.",
    );
    const short = await writeAll((name) => (name === "pane-ask-dark-350.png" ? [350, 600] : undefined));
    await expect(checkScreenshots(short)).rejects.toThrow(
      "pane-ask-dark-350.png is 350x600 px; it should be 350x800.",
    );
  });
});
