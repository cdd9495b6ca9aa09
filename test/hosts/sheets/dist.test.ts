/**
 * dist/sheets as `clasp push` uploads it: three files, the manifest with the narrowest scopes, and
 * a sidebar that is one self-contained HTML file (HtmlService serves one file; no CDN).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appsScriptGlobalsFooter } from "../../../src/hosts/sheets/build.js";
import { DIST } from "./apps-script.js";

describe("dist/sheets", () => {
  it("holds exactly the Apps Script project: Code.js, Sidebar.html, appsscript.json", () => {
    expect(readdirSync(DIST).sort()).toEqual(["Code.js", "Sidebar.html", "appsscript.json"]);
  });

  it("appsscript.json: V8 and exactly the narrowest OAuth scopes that work", () => {
    const manifest = JSON.parse(readFileSync(join(DIST, "appsscript.json"), "utf8"));
    expect(manifest.runtimeVersion).toBe("V8");
    expect(manifest.oauthScopes).toEqual([
      "https://www.googleapis.com/auth/spreadsheets.currentonly",
      "https://www.googleapis.com/auth/script.external_request",
      "https://www.googleapis.com/auth/script.container.ui",
    ]);
  });

  it("Sidebar.html is one self-contained file: no external script or stylesheet, no CDN", () => {
    const html = readFileSync(join(DIST, "Sidebar.html"), "utf8");
    expect(html).toMatch(/<div id="root">/);
    // The pane's code is inlined.
    expect(html).toMatch(/<script[^>]*>[\s\S]{10000,}<\/script>/);
    expect(html).not.toMatch(/<script[^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/<link[^>]*rel\s*=\s*["']?(stylesheet|modulepreload|preload)/i);
    expect(html).not.toMatch(/\s(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\//i);
    expect(html).not.toMatch(
      /\b(unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com|fonts\.googleapis\.com|esm\.sh|skypack\.dev)\b/,
    );
    // Lazy chunks are inlined too: nothing is imported from a file at run time.
    expect(html).not.toMatch(/import\(\s*["'`]\.{0,2}\/[^"'`]+\.js["'`]\s*\)/);
  });

  it("no server code reaches the sidebar (the bridge imports the server's types only)", () => {
    const html = readFileSync(join(DIST, "Sidebar.html"), "utf8");
    for (const name of ["UrlFetchApp", "PropertiesService", "getUserProperties", "createAddonMenu"]) {
      expect(html).not.toContain(name);
    }
  });

  it("Code.js ends with one generated top-level function per export of server.ts", () => {
    const code = readFileSync(join(DIST, "Code.js"), "utf8");
    const footer = code.slice(code.lastIndexOf("// Generated:"));
    const names = [...footer.matchAll(/^function (\w+)\(\)/gm)].map((m) => m[1]);
    expect(names).toContain("onOpen");
    expect(names).toContain("refreshPane");
    expect(footer).toBe(`${appsScriptGlobalsFooter(names as string[]).trimStart()}`);
  });

  it("the footer refuses an export that cannot be an Apps Script function", () => {
    expect(appsScriptGlobalsFooter(["onOpen"], "G")).toContain(
      "function onOpen() { return G.onOpen.apply(this, arguments); }",
    );
    expect(() => appsScriptGlobalsFooter(["default"])).toThrow(/cannot be an Apps Script function/);
  });
});
