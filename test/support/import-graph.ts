/**
 * The imports of src/ and taskpane/, read from the source text (no bundler): each relative
 * `import ... from` or `export ... from` (type-only ones included) and, when asked, each relative
 * dynamic `import("...")`, resolved to its file. Paths are relative to the project's root.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const STATIC = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["'](\.[^"']+)["']\s*\)/g;

/** The relative imports of one file's text, resolved from `file` (an absolute path). */
export function importsOf(file: string, text: string, dynamic = false): string[] {
  const targets = new Set<string>();
  const found = [...text.matchAll(STATIC), ...(dynamic ? text.matchAll(DYNAMIC) : [])];
  for (const m of found) {
    const base = resolve(dirname(file), m[1]!).replace(/\.js$/, "");
    const target = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((f) => existsSync(f));
    if (target) targets.add(relative(ROOT, target));
  }
  return [...targets];
}

/** Every module of src/ and taskpane/ with the modules it imports. */
export function importGraph(options: { dynamic?: boolean } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of ["src", "taskpane"].flatMap((d) => sourceFiles(join(ROOT, d)))) {
    graph.set(relative(ROOT, file), importsOf(file, readFileSync(file, "utf8"), options.dynamic));
  }
  return graph;
}
