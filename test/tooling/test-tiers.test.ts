/**
 * The test tiers (tooling/test-tiers.ts): a file's tier read from its path, its environment comment
 * and its imports, so a new file lands in its tier with no list to edit; and every test file of the
 * repository in exactly one tier.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { mocksAModule, testFilesByTier, testProjects, tierOf } from "../../tooling/test-tiers.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("a test file's tier", () => {
  test("browser: under test/e2e, named *.browser.test, or importing the browser kit or playwright-core at the top", () => {
    expect(tierOf("test/e2e/new-flow.test.ts", "")).toBe("browser");
    expect(tierOf("test/hosts/sheets/sidebar/menu.browser.test.tsx", "")).toBe("browser");
    expect(
      tierOf(
        "test/hosts/excel/page.refresh.test.ts",
        'import { launchBrowser } from "../../support/browser.js";',
      ),
    ).toBe("browser");
    expect(tierOf("test/x.test.ts", 'import type { Page } from "playwright-core";')).toBe("browser");
    expect(tierOf("test/x.test.ts", 'import {\n  chromium,\n  type Page,\n} from "playwright-core";')).toBe(
      "browser",
    );
    // Other kits whose names begin the same way are not the browser's.
    expect(tierOf("test/x.test.ts", 'import { corsFetch } from "../support/browser-fetch.js";')).toBe("unit");
    // A mention in text is no import.
    expect(tierOf("test/x.test.ts", 'expect(deps).toContain("playwright-core");')).toBe("unit");
    expect(tierOf("test/x.test.ts", "const text = 'import { a } from \"playwright-core\"';")).toBe("unit");
  });

  test("dom: asks for jsdom (or happy-dom) in its leading comments, as vitest reads them", () => {
    expect(tierOf("test/taskpane/New.test.tsx", "// @vitest-environment jsdom\nimport x from 'y';")).toBe(
      "dom",
    );
    expect(
      tierOf("test/core/x.test.ts", "/**\n * @vitest-environment happy-dom\n */\nimport x from 'y';"),
    ).toBe("dom");
    // Below the first statement vitest does not look, and neither does the tier.
    expect(tierOf("test/core/x.test.ts", "import x from 'y';\n// @vitest-environment jsdom\n")).toBe("unit");
    // A browser test that asks for jsdom is still a browser test.
    expect(tierOf("test/e2e/x.test.ts", "// @vitest-environment jsdom\n")).toBe("browser");
  });

  test("unit: everything else", () => {
    expect(tierOf("test/core/new-rule.test.ts", 'import { expect } from "vitest";')).toBe("unit");
  });
});

describe("the repository's test files", () => {
  test("each is in exactly one tier, and each tier has files", () => {
    const tiers = testFilesByTier(ROOT);
    const all = [...tiers.unit, ...tiers.dom, ...tiers.browser];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain("test/tooling/test-tiers.test.ts");
    expect(tiers.unit).toContain("test/core/ndjson.test.ts");
    expect(tiers.dom).toContain("test/taskpane/pane.test.tsx");
    expect(tiers.browser).toContain("test/e2e/placements.test.ts");
    expect(tiers.browser).toContain("test/hosts/excel/page.test.ts");
    expect(all.every((path) => /^test\/.+\.test\.tsx?$/.test(path))).toBe(true);
  });
});

describe("how a tier's files share a worker", () => {
  test("a file that replaces a module (vi.mock, vi.doMock) is one that must run apart", () => {
    expect(mocksAModule('vi.mock("../../src/core/domains.js", () => ({}));')).toBe(true);
    expect(mocksAModule('import { vi } from "vitest";\n  vi.doMock("./x.js");')).toBe(true);
    // A spy, a stubbed global or a mention in a comment replaces no module.
    expect(mocksAModule('vi.spyOn(console, "warn");\nvi.stubGlobal("fetch", f);')).toBe(false);
    expect(mocksAModule("// no vi.mock( here: a comment after code\nconst a = 1;")).toBe(false);
  });

  test("unit and browser files share a worker, but for those that replace a module; DOM files each get their own", () => {
    const projects = testProjects(ROOT);
    const byName = new Map(projects.map((p) => [p.name, p]));
    expect([...byName.keys()].sort()).toEqual(["browser", "dom", "unit", "unit-isolated"]);
    expect(byName.get("unit")?.isolate).toBe(false);
    expect(byName.get("browser")?.isolate).toBe(false);
    expect(byName.get("dom")?.isolate).toBe(true);
    expect(byName.get("unit-isolated")?.isolate).toBe(true);
    // The gateway's test that holds the chat URL check's module back runs apart.
    expect(byName.get("unit-isolated")?.include).toContain("test/hosts/direct-gateway.check-pending.test.ts");
    expect(byName.get("unit")?.include).not.toContain("test/hosts/direct-gateway.check-pending.test.ts");
    // Every file is in exactly one project, and the projects cover the tiers.
    const all = projects.flatMap((p) => p.include);
    expect(new Set(all).size).toBe(all.length);
    const tiers = testFilesByTier(ROOT);
    expect(all.sort()).toEqual([...tiers.unit, ...tiers.dom, ...tiers.browser].sort());
  });

  test("each tier's npm script runs all of its projects, and test:fast runs the unit and DOM tiers' all", () => {
    const scripts: Record<string, string> = JSON.parse(
      readFileSync(resolve(ROOT, "package.json"), "utf8"),
    ).scripts;
    // The projects a script's `--project` filters select (vitest's filters: a name, or a `*` pattern).
    const selected = (script: string) => {
      const filters = [...(scripts[script] ?? "").matchAll(/--project '?([\w*-]+)'?/g)].map(
        (m) => m[1] ?? "",
      );
      const patterns = filters.map((f) => new RegExp(`^${f.replace(/\*/g, ".*")}$`));
      return testProjects(ROOT)
        .filter((p) => patterns.some((r) => r.test(p.name)))
        .map((p) => p.name)
        .sort();
    };
    const byTier = (tier: string) =>
      testProjects(ROOT)
        .filter((p) => p.tier === tier)
        .map((p) => p.name)
        .sort();
    expect(selected("test:unit")).toEqual(byTier("unit"));
    expect(selected("test:dom")).toEqual(byTier("dom"));
    expect(selected("test:browser")).toEqual(byTier("browser"));
    expect(selected("test:fast")).toEqual([...byTier("unit"), ...byTier("dom")].sort());
  });
});
