/**
 * dist/sheets as `clasp push` uploads it: Code.js, the manifest with the narrowest scopes, a
 * sidebar that is one self-contained HTML file (no CDN, no other URL) holding the first screen's
 * code, and the lazily loaded parts as Apps Script HTML files the server hands the sidebar.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { COMPILE_HINT } from "../../../tooling/compile-hints.js";
import { appsScriptGlobalsFooter } from "../../../tooling/sheets/build.js";
import { CHUNK_GLOBAL } from "../../../tooling/sheets/sidebar-chunks.js";
import { DIST } from "../../support/apps-script.js";

const chunkFiles = () => readdirSync(DIST).filter((f) => f.startsWith("SidebarChunk_"));
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join("\n");

describe("dist/sheets", () => {
  it("holds exactly the Apps Script project: Code.js, Sidebar.html, its chunk files, appsscript.json", () => {
    const chunks = chunkFiles();
    expect(readdirSync(DIST).sort()).toEqual(
      ["Code.js", "Sidebar.html", ...chunks, "appsscript.json"].sort(),
    );
    // The lazy parts of the pane, each in a file of its own (Apps Script names: letters, digits, _).
    for (const part of ["AgentChat", "SettingsPanel", "markdown", "PlacementActions", "darkTheme"]) {
      expect(
        chunks.filter((f) => f.startsWith(`SidebarChunk_${part}_`)),
        part,
      ).toHaveLength(1);
    }
    for (const file of chunks) expect(file).toMatch(/^SidebarChunk_[A-Za-z0-9_]+\.html$/);
  });

  it("each chunk file is one script defining one module of the sidebar's registry", () => {
    for (const file of chunkFiles()) {
      const content = readFileSync(join(DIST, file), "utf8");
      const name = file.slice(0, -".html".length);
      expect(
        content.startsWith(`<script>\n${CHUNK_GLOBAL}.define(${JSON.stringify(name)},function(`),
        file,
      ).toBe(true);
      expect(content.trimEnd().endsWith("</script>"), file).toBe(true);
      // One script element: nothing in the code closes it early.
      expect(content.match(/<\/script/gi), file).toHaveLength(1);
      expect(content).not.toMatch(/\bimport\(|require\(["'`]\.\.?\//);
    }
  });

  it("Sidebar.html's JavaScript is within 115 KB (gzip), headroom under the pane's 120 KB budget; the lazy parts are not in it", () => {
    const html = readFileSync(join(DIST, "Sidebar.html"), "utf8");
    // 115, not 120: headroom under the 120 KB budget, so the next pane features fit.
    expect(gzipSync(inlineScripts(html), { level: 9 }).length).toBeLessThanOrEqual(115_000);
    // Text of the settings form and the agent chat: in their chunk files only.
    const settings = chunkFiles().find((f) => f.startsWith("SidebarChunk_SettingsPanel_"))!;
    expect(readFileSync(join(DIST, settings), "utf8")).toContain("leave empty to keep it");
    expect(html).not.toContain("leave empty to keep it");
    expect(html).not.toContain("New conversation");
  });

  it("the first screen's inline script starts with V8's compile hint; the lazy chunk files do not carry it", () => {
    const html = readFileSync(join(DIST, "Sidebar.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const first = scripts.filter((code) => code.includes(`${CHUNK_GLOBAL}.require(`));
    expect(first).toHaveLength(1);
    expect(first[0]!.startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    for (const file of chunkFiles()) {
      expect(readFileSync(join(DIST, file), "utf8"), file).not.toContain(COMPILE_HINT);
    }
  });

  it("Sidebar.html sets Fluent's light theme as CSS variables; its script holds no theme", () => {
    const html = readFileSync(join(DIST, "Sidebar.html"), "utf8");
    expect(html).toMatch(/<style data-theme="light">:root \{[^}]*--colorBrandBackground: #0f6cbd;/);
    expect(inlineScripts(html).toLowerCase()).not.toContain("#0f6cbd");
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

  it("Sidebar.html is one self-contained file: no external script or stylesheet, no URL, no CDN", () => {
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
    // Nothing is imported from a file at run time: the lazy parts come through the registry.
    expect(html).not.toMatch(/import\(\s*["'`]\.{0,2}\/[^"'`]+\.js["'`]\s*\)/);
    expect(html).not.toMatch(/require\(["'`]\.\.?\//);
    expect(html).toContain(`${CHUNK_GLOBAL}.load(`);
  });

  it("Sidebar.html carries no meta tag HtmlService would drop: no Content-Security-Policy, no viewport", () => {
    // HtmlService ignores meta tags written in the file; the viewport comes from addMetaTag, and a
    // policy here would only pretend to protect the sidebar (docs/google-sheets.md says what does).
    const html = readFileSync(join(DIST, "Sidebar.html"), "utf8");
    const metas = [...html.matchAll(/<meta\b[^>]*>/gi)].map((m) => m[0]);
    expect(
      metas.every((tag) => /^<meta\s+charset=/i.test(tag)),
      metas.join("\n"),
    ).toBe(true);
  });

  it("no server code reaches the sidebar (the bridge imports the server's types only)", () => {
    for (const file of ["Sidebar.html", ...chunkFiles()]) {
      const html = readFileSync(join(DIST, file), "utf8");
      for (const name of ["UrlFetchApp", "PropertiesService", "getUserProperties", "createAddonMenu"]) {
        expect(html, file).not.toContain(name);
      }
    }
  });

  it("Code.js ends with one generated top-level function per export of server/main.ts", () => {
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
