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
 *
 * How the files of a tier share a worker (`testProjects`): a worker process loads Node's modules
 * (playwright-core, Vite, the sandbox's libraries) once and runs file after file, instead of a new
 * process per file that loads them all again. Each file still starts from fresh modules of this
 * repository (test/support/fresh-modules.ts). A file that replaces a module (`vi.mock`,
 * `vi.doMock`) runs in a process of its own: vitest undoes a mock only when it starts a new one, and
 * a module loaded before the mock was made would not see it. The DOM tier's files do not share
 * one module graph and window: they leave the DOM, timers and React's roots behind (measured: 29 of
 * its 227 tests failed when they first shared a process, and a shared jsdom document keeps the styles
 * each file inserted). Instead, vite.config.ts runs each of them in a VM context of its own within a
 * shared process (vitest's `vmForks` pool): a window and modules of its own, mocks included, without
 * starting Node again.
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

/** A module replaced by the file itself, at the start of a line: `vi.mock(` or `vi.doMock(`. */
const MOCKS_A_MODULE = /^\s*vi\.(?:mock|doMock)\(/m;

/** Whether a test file replaces a module (and so must not share its worker with other files). */
export function mocksAModule(source: string): boolean {
  return MOCKS_A_MODULE.test(source);
}

/** A vitest project: one tier's files that run the same way. */
export interface TestProject {
  /** `unit`, `dom` or `browser`, or `<tier>-isolated` for a tier's files that replace a module. */
  name: string;
  tier: Tier;
  /** Whether each file gets a worker process of its own (vitest's `isolate`). */
  isolate: boolean;
  include: string[];
}

/** The tiers whose files share a worker process, but for those that replace a module. */
const SHARED_TIERS: ReadonlySet<Tier> = new Set(["unit", "browser"]);

/**
 * The vitest projects of the repository's test files: each tier, its files that replace a module
 * apart (`<tier>-isolated`). A project with no file is left out (vitest refuses an empty one).
 */
export function testProjects(root: string, dir = "test"): TestProject[] {
  const projects: TestProject[] = [];
  for (const [tier, files] of Object.entries(scan(root, dir)) as [Tier, TierFile[]][]) {
    if (!SHARED_TIERS.has(tier)) {
      projects.push({ name: tier, tier, isolate: true, include: files.map((f) => f.path) });
      continue;
    }
    const shared = files.filter((f) => !f.mocks).map((f) => f.path);
    const apart = files.filter((f) => f.mocks).map((f) => f.path);
    if (shared.length) projects.push({ name: tier, tier, isolate: false, include: shared });
    if (apart.length) projects.push({ name: `${tier}-isolated`, tier, isolate: true, include: apart });
  }
  return projects;
}

interface TierFile {
  path: string;
  mocks: boolean;
}

/** Every test file under `dir` (relative to `root`), sorted, with its tier. */
export function testFilesByTier(root: string, dir = "test"): Record<Tier, string[]> {
  const files = scan(root, dir);
  return { unit: paths(files.unit), dom: paths(files.dom), browser: paths(files.browser) };
}

/** Every test file under `dir` by tier, sorted by path, with whether it replaces a module. */
function scan(root: string, dir: string): Record<Tier, TierFile[]> {
  const tiers: Record<Tier, TierFile[]> = { unit: [], dom: [], browser: [] };
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(full);
      } else if (TEST_FILE.test(entry.name)) {
        const path = relative(root, full).split(sep).join("/");
        const source = readFileSync(full, "utf8");
        tiers[tierOf(path, source)].push({ path, mocks: mocksAModule(source) });
      }
    }
  };
  walk(join(root, dir));
  for (const tier of TIERS) tiers[tier].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return tiers;
}

function paths(files: readonly TierFile[]): string[] {
  return files.map((f) => f.path);
}
