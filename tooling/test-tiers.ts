/**
 * Which tier a test file runs in (vite.config.ts turns the tiers into vitest projects):
 *
 * - `browser`: drives Chromium. Every file under `test/e2e/`, every `*.browser.test.ts(x)`, and any
 *   other test file that imports the shared browser kit (`test/support/browser.ts`) or
 *   playwright-core itself;
 * - `dom`: runs in jsdom. A file that asks for it in its first comment
 *   (`// @vitest-environment jsdom`), as vitest reads that comment anyway;
 * - `unit`: everything else, in Node.
 *
 * The tier is read from the file (its path, its environment comment, its imports), never from a
 * list kept by hand: a new test file lands in its tier without an edit here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

export type Tier = "unit" | "dom" | "browser";

export const TIERS: readonly Tier[] = ["unit", "dom", "browser"];

/** What a test file is named: `*.test.ts` or `*.test.tsx`. */
export const TEST_FILE = /\.test\.tsx?$/;

/** The environment comment vitest honours, at the top of a file (jsdom or happy-dom). */
const DOM_ENVIRONMENT = /@vitest-environment\s+(jsdom|happy-dom)\b/;

/** A top-level import of the browser kit or of playwright-core (at the start of a line). */
const BROWSER_IMPORT =
  /^import\s[^;]*?\bfrom\s*["'](?:playwright-core|(?:\.{1,2}\/)+(?:[\w.-]+\/)*support\/browser(?:\.[jt]s)?)["']/m;

/**
 * The tier of one test file, from its path (relative to the repository, `/`-separated) and its
 * text.
 */
export function tierOf(path: string, source: string): Tier {
  const posix = path.split(sep).join("/");
  if (posix.startsWith("test/e2e/") || /\.browser\.test\.tsx?$/.test(posix)) return "browser";
  if (BROWSER_IMPORT.test(source)) return "browser";
  // Vitest reads the environment comment from the file's leading comments; so does this.
  if (DOM_ENVIRONMENT.test(leadingComments(source))) return "dom";
  return "unit";
}

/** The comments before a file's first statement. */
function leadingComments(source: string): string {
  const match = /^(?:\s*(?:\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/))*/.exec(source);
  return match?.[0] ?? "";
}

/** Every test file under `dir` (relative to `root`), sorted, with its tier. */
export function testFilesByTier(root: string, dir = "test"): Record<Tier, string[]> {
  const tiers: Record<Tier, string[]> = { unit: [], dom: [], browser: [] };
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(full);
      } else if (TEST_FILE.test(entry.name)) {
        const path = relative(root, full).split(sep).join("/");
        tiers[tierOf(path, readFileSync(full, "utf8"))].push(path);
      }
    }
  };
  walk(join(root, dir));
  for (const tier of TIERS) tiers[tier].sort();
  return tiers;
}
