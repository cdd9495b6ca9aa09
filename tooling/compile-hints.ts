/**
 * V8's explicit compile hints: a script whose first line is `//# allFunctionsCalledOnLoad` has all
 * its functions compiled eagerly, on a background thread while it loads, instead of each one on
 * the main thread when it is first called (V8's "Explicit compile hints" feature, Chrome 136; see
 * docs/benchmarks.md). The first screen calls almost every function of its chunks, so they carry
 * the comment, as does the code a page runs for its first list as it loads; the lazy chunks do not
 * (compiling code that may never run would only cost memory).
 * Engines that do not know the comment (Safari's, in Excel on Mac) read it as a comment.
 */
import type { Plugin } from "vite";

/** The magic comment, the first line of every first-screen chunk. */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/** `code` with the hint as its first line (once). */
export function withCompileHint(code: string): string {
  return code.startsWith(`${COMPILE_HINT}\n`) ? code : `${COMPILE_HINT}\n${code}`;
}

export interface ChunkLike {
  type: "chunk";
  fileName: string;
  name: string;
  isEntry: boolean;
  imports: string[];
  code: string;
  moduleIds?: readonly string[];
}

/**
 * The chunks of `entries` (by entry name), the chunks holding a module that one of `modules`
 * matches, and every chunk they import statically, transitively.
 */
export function staticClosure(
  chunks: readonly ChunkLike[],
  entries: readonly string[],
  modules: readonly RegExp[] = [],
): Set<string> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const queue: string[] = [];
  for (const name of entries) {
    const entry = chunks.find((c) => c.isEntry && c.name === name);
    if (!entry) throw new Error(`the ${name} entry is missing from the build`);
    queue.push(entry.fileName);
  }
  for (const test of modules) {
    const holder = chunks.find((c) => c.moduleIds?.some((id) => test.test(id)));
    if (!holder) throw new Error(`no chunk of the build holds ${test}`);
    queue.push(holder.fileName);
  }
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(byFile.get(file)?.imports ?? []));
  }
  return seen;
}

/**
 * The Vite plugin for a page build: writes the hint onto the chunks of `entries`, the chunks of
 * `modules` (code a page runs as it loads without importing it statically: the Excel page's first
 * list), and their static imports. A chunk's source map, when the build writes one, moves down the
 * one line.
 */
export function compileHints(entries: readonly string[], modules: readonly RegExp[] = []): Plugin {
  return {
    name: "reporting-platform:compile-hints",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (c): c is ChunkLike & (typeof bundle)[string] => c.type === "chunk",
      );
      for (const file of staticClosure(chunks as ChunkLike[], entries, modules)) {
        const chunk = bundle[file];
        if (chunk?.type !== "chunk") continue;
        if (chunk.code.startsWith(COMPILE_HINT)) continue;
        chunk.code = withCompileHint(chunk.code);
        // The map is on the chunk, or already written as a file beside it: moved down once either way.
        const before = chunk.map?.mappings;
        if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
        const asset = bundle[`${file}.map`];
        if (asset?.type === "asset") {
          const json = JSON.parse(String(asset.source)) as { mappings: string };
          if (before === undefined || json.mappings === before) {
            json.mappings = `;${json.mappings}`;
            asset.source = JSON.stringify(json);
          }
        }
      }
    },
  };
}
