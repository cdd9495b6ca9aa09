/**
 * The Content-Security-Policy of every built page (security): each page allows only what it
 * needs, and what it loads stays inside its own policy. The preview's served page is checked, and
 * every policy enforced in Chromium, by test/e2e/security.test.ts and test/hosts/excel/page.test.ts.
 * The Sheets sidebar has none: HtmlService ignores meta tags in the file (docs/google-sheets.md).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXCEL_OUT_DIR } from "../../tooling/excel/build.js";
import { SHEETS_OUT_DIR } from "../../tooling/sheets/build.js";
import { cspOf, cspTagCount } from "../support/csp.js";

const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

beforeAll(() => {
  for (const file of [join(EXCEL_OUT_DIR, "taskpane.html"), join(SHEETS_OUT_DIR, "Sidebar.html")]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`npm run build\` first (npm test does).`);
  }
});

/** What every page's policy shares: nothing by default, no plugins, no <base href>, no form posts. */
function expectLockedDown(policy: Map<string, string[]>) {
  expect(policy.get("default-src")).toEqual(["'none'"]);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'none'"]);
  expect(policy.get("form-action")).toEqual(["'none'"]);
  for (const [name, values] of policy) {
    expect(values, name).not.toContain("*");
    expect(values, name).not.toContain("'unsafe-eval'");
    expect(values, name).not.toContain("http:");
  }
  // Styles: Fluent's Griffel injects <style> elements at run time; nothing else is inline-allowed
  // unless the page says so below.
  expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
}

/** The src/href of every element that loads something, and the inline scripts. */
function loads(html: string) {
  const sources = [
    ...html.matchAll(/<(script|link|img|iframe)\b[^>]*\s(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi),
  ].map((m) => m[2] as string);
  const inlineScripts = [...html.matchAll(/<script\b(?![^>]*\ssrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)].filter(
    (m) => (m[1] ?? "").trim() !== "",
  ).length;
  const inlineHandlers = [...html.matchAll(/<[a-z][^>]*\son[a-z]+\s*=/gi)].length;
  return { sources, inlineScripts, inlineHandlers };
}

describe("dist/excel/taskpane.html", () => {
  const html = () => read(EXCEL_OUT_DIR, "taskpane.html");

  it("has one policy: its own scripts and Office.js only, calls to its own origin (the relay) and HTTPS only", () => {
    expect(cspTagCount(html())).toBe(1);
    const policy = cspOf(html())!;
    expect(policy).not.toBeNull();
    expectLockedDown(policy);
    expect(policy.get("script-src")).toEqual(["'self'", "https://appsforoffice.microsoft.com"]);
    expect(policy.get("connect-src")).toEqual(["'self'", "https:"]);
    expect(policy.has("frame-src")).toBe(false); // so default-src 'none' applies: no frames
    // frame-ancestors is ignored in a meta tag; the add-in server sends it as a header.
    expect(policy.has("frame-ancestors")).toBe(false);
  });

  it("loads nothing its policy would block: relative files and Office.js, no inline script or handler", () => {
    const { sources, inlineScripts, inlineHandlers } = loads(html());
    expect(sources.length).toBeGreaterThan(1);
    for (const source of sources) {
      expect(source, source).toMatch(/^(\.\/|https:\/\/appsforoffice\.microsoft\.com\/)/);
    }
    expect(inlineScripts).toBe(0);
    expect(inlineHandlers).toBe(0);
  });

  it("the help page has a policy too: no script at all", () => {
    const help = read(EXCEL_OUT_DIR, "help.html");
    const policy = cspOf(help)!;
    expect(policy.get("default-src")).toEqual(["'none'"]);
    expect(policy.has("script-src")).toBe(false);
    expect(loads(help)).toEqual({ sources: [], inlineScripts: 0, inlineHandlers: 0 });
  });

  it("the outcome dialog's page: its own script and Office.js only, nothing inline, no call elsewhere", () => {
    const page = read(EXCEL_OUT_DIR, "outcome.html");
    expect(cspTagCount(page)).toBe(1);
    const policy = cspOf(page)!;
    expectLockedDown(policy);
    expect(policy.get("script-src")).toEqual(["'self'", "https://appsforoffice.microsoft.com"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    const { sources, inlineScripts, inlineHandlers } = loads(page);
    for (const source of sources) {
      expect(source, source).toMatch(/^(\.\/|https:\/\/appsforoffice\.microsoft\.com\/)/);
    }
    expect([inlineScripts, inlineHandlers]).toEqual([0, 0]);
  });
});

describe("dist/sheets/Sidebar.html", () => {
  const html = () => read(SHEETS_OUT_DIR, "Sidebar.html");

  it("has no policy of its own: HtmlService ignores meta tags in the file, its sandboxed iframe is the boundary", () => {
    // A policy written here would only pretend to protect the sidebar (docs/google-sheets.md).
    expect(cspTagCount(html())).toBe(0);
    expect(cspOf(html())).toBeNull();
  });

  it("loads nothing from anywhere: every script inlined, no external source, no inline handler", () => {
    const { sources, inlineScripts, inlineHandlers } = loads(html());
    expect(sources).toEqual([]);
    expect(inlineScripts).toBeGreaterThan(0);
    expect(inlineHandlers).toBe(0);
  });
});
