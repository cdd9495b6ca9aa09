/** The compile-hint step (tooling/compile-hints.ts): which chunks carry V8's hint, and how. */
import { describe, expect, it } from "vitest";
import { COMPILE_HINT, staticClosure, withCompileHint } from "../../tooling/compile-hints.js";

const chunk = (fileName: string, imports: string[], entry?: string) => ({
  type: "chunk" as const,
  fileName,
  name: entry ?? fileName,
  isEntry: entry !== undefined,
  imports,
  code: "",
});

describe("compile hints", () => {
  it("puts the hint on the first line, once", () => {
    expect(withCompileHint("import x from './a.js';")).toBe(`${COMPILE_HINT}\nimport x from './a.js';`);
    expect(withCompileHint(withCompileHint("f();"))).toBe(`${COMPILE_HINT}\nf();`);
  });

  it("marks the named entries and what they import statically, not what only a dynamic import reaches", () => {
    const chunks = [
      chunk("pane.js", ["react.js", "shared.js"], "taskpane"),
      chunk("early.js", ["tiny.js"], "early"),
      chunk("react.js", []),
      chunk("shared.js", ["react.js"]),
      chunk("tiny.js", []),
      // Imported dynamically only (its own static import too): lazy.
      chunk("chat.js", ["markdown.js", "shared.js"]),
      chunk("markdown.js", []),
      chunk("help.js", ["shared.js"], "help"),
    ];
    expect([...staticClosure(chunks, ["early", "taskpane"])].sort()).toEqual(
      ["early.js", "pane.js", "react.js", "shared.js", "tiny.js"].sort(),
    );
    expect(() => staticClosure(chunks, ["missing"])).toThrow(/the missing entry is missing/);
  });

  it("marks the chunks holding the named modules too (code a page runs as it loads), with their static imports", () => {
    const held = (fileName: string, imports: string[], moduleIds: string[]) => ({
      ...chunk(fileName, imports),
      moduleIds,
    });
    const chunks = [
      chunk("pane.js", ["react.js"], "taskpane"),
      chunk("react.js", []),
      held("gateway.js", ["schema.js"], ["/src/hosts/direct-gateway-impl.ts"]),
      held("schema.js", [], ["/src/core/schema.ts"]),
      held("chat.js", [], ["/taskpane/AgentChat.tsx"]),
    ];
    expect([...staticClosure(chunks, ["taskpane"], [/direct-gateway-impl\.ts$/])].sort()).toEqual(
      ["gateway.js", "pane.js", "react.js", "schema.js"].sort(),
    );
    expect(() => staticClosure(chunks, ["taskpane"], [/nowhere\.ts$/])).toThrow(
      /no chunk of the build holds/,
    );
  });
});
