import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// docs/architecture.md: the core runs unchanged in a browser, in Node and in Apps Script's V8.
const dir = join(import.meta.dirname, "../../src/core");
const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));

describe("the core is pure TypeScript", () => {
  it.each(files)(
    "%s imports only the core and zod/mini (zod.ts its English messages, domains.ts the Public Suffix List, result-checksum.ts SHA-256)",
    (file) => {
      const text = readFileSync(join(dir, file), "utf8");
      const imports = [...text.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);
      // zod/mini, not the full API: the core ships in the task pane (docs/benchmarks.md: the size goal).
      // tldts is pure code and data, kept to domains.ts so the pane's first screen loads without it.
      // @noble/hashes' SHA-256 is pure and synchronous (Apps Script has no crypto.subtle, which is
      // async anyway), kept to result-checksum.ts, and only its sha2 entry.
      const allowed = (spec: string) =>
        spec === "zod/mini" ||
        (file === "zod.ts" && spec === "zod/locales") ||
        spec.startsWith("./") ||
        ((file === "domains.ts" || file === "tldts-min.d.ts") && spec.startsWith("tldts")) ||
        (file === "result-checksum.ts" && spec === "@noble/hashes/sha2.js");
      for (const spec of imports) expect(allowed(spec!), `${file} imports ${spec}`).toBe(true);
    },
  );

  it("only zod.ts imports zod, so every schema is built and parsed with zod jitless (no eval under the pages' policy)", async () => {
    for (const file of files.filter((f) => f !== "zod.ts")) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text, file).not.toMatch(/from\s+"zod/);
    }
    // settings.ts parses while it loads (EMPTY_SETTINGS): zod must be jitless by then.
    const { globalConfig } = await import("zod/v4/core");
    await import("../../src/core/settings.js");
    expect(globalConfig.jitless).toBe(true);
  });

  it("only domains.ts loads the Public Suffix List, and settings.ts takes its check as an argument", () => {
    for (const file of files.filter((f) => !["domains.ts", "tldts-min.d.ts", "index.ts"].includes(f))) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text, file).not.toMatch(/from\s+"(tldts|\.\/domains\.js)"/);
    }
  });

  it.each(files)("%s uses no DOM, Office, Apps Script or Node globals", (file) => {
    const code = readFileSync(join(dir, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    for (const global of [
      "window",
      "document",
      "Office",
      "Excel",
      "google",
      "SpreadsheetApp",
      "UrlFetchApp",
      "process",
      "require",
    ]) {
      expect(code, `${file} uses ${global}`).not.toMatch(new RegExp(`\\b${global}\\s*[.(]`));
    }
  });

  // The core does no I/O of its own (docs/architecture.md). Every request goes through a transport
  // the caller passes in; nothing falls back to the global fetch.
  it.each(files)("%s reaches no global fetch and no globalThis", (file) => {
    const code = readFileSync(join(dir, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    expect(code, `${file} uses globalThis`).not.toMatch(/\bglobalThis\b/);
    // A bare `fetch(` or `fetch.` is the global; `fetchFn(` or `x.fetch(` is one passed in.
    expect(code, `${file} calls the global fetch`).not.toMatch(/(^|[^.\w$])fetch\s*[.(]/m);
    // Nor through a transport built without a fetch function.
    expect(code, `${file} builds a transport over the global fetch`).not.toMatch(/fetchTransport\(\s*\)/);
  });

  // Nor as a value: a default such as `fetchFn ?? fetch` or `fetchTransport(fetch)` is the global too.
  // Only the type `typeof fetch` may name it.
  it.each(files)(
    "%s names the global fetch only as a type, and no other network or storage global",
    (file) => {
      const code = readFileSync(join(dir, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "")
        .replace(/\btypeof fetch\b/g, "");
      for (const global of [
        "fetch",
        "self",
        "XMLHttpRequest",
        "WebSocket",
        "EventSource",
        "navigator",
        "localStorage",
        "sessionStorage",
        "indexedDB",
      ]) {
        expect(code, `${file} names ${global}`).not.toMatch(
          new RegExp(`(^|[^.\\w$])${global}(?![\\w$]|\\s*:)`, "m"),
        );
      }
      expect(code, `${file} loads code at run time`).not.toMatch(/\bimport\s*\(/);
    },
  );
});
