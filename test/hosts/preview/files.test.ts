/**
 * The team's file size rule for the preview: no file of src/hosts/preview (components, styles, the
 * page) or of its tests over 450 lines; a component that grows past it is split by concern.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MAX_LINES = 450;
const FOLDERS = ["../../../src/hosts/preview/", "./"];

describe("the preview's files", () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const tooLong: string[] = [];
    for (const folder of FOLDERS) {
      const dir = fileURLToPath(new URL(folder, import.meta.url));
      for (const name of readdirSync(dir)) {
        if (!/\.(tsx?|css|html)$/.test(name)) continue;
        const lines = readFileSync(`${dir}${name}`, "utf8").split("\n").length;
        if (lines > MAX_LINES) tooLong.push(`${name}: ${lines} lines`);
      }
    }
    expect(tooLong).toEqual([]);
  });
});
