/**
 * Who may frame the add-in's pages (`frame-ancestors`): a default that does not break Excel on the
 * web wherever a customer runs it (Microsoft 365, Teams, the US government and China clouds), and
 * an option of the server (`--frame-ancestors`, env FRAME_ANCESTORS) whose every source is checked.
 * frame-ancestors is checked against EVERY ancestor of the frame (CSP Level 2/3), so the host
 * around Excel on the web (SharePoint, OneDrive, office.com, Teams) must be listed as well as the
 * Office frame (officeapps.live.com) itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAddinApp } from "../../src/addin-server/app.js";
import {
  DEFAULT_FRAME_ANCESTORS,
  FrameAncestorsError,
  parseFrameAncestors,
} from "../../src/addin-server/security-headers.js";
import { parseTenantList } from "../../src/addin-server/tenants.js";
import { runAddinServer, spawnAddinServer } from "../support/spawn-addin-server.js";

/** Does CSP's host-source `source` match `origin`? (`*.` matches one or more labels, not the bare host.) */
function matches(source: string, origin: string): boolean {
  if (source === "'self'" || source === "'none'") return false;
  const s = new URL(source.replace("*.", "wildcard-label."));
  const o = new URL(origin);
  if (s.protocol !== o.protocol || s.port !== o.port) return false;
  if (!source.includes("*.")) return s.hostname === o.hostname;
  return o.hostname.endsWith(s.hostname.replace(/^wildcard-label/, ""));
}

function allowed(origin: string, sources: readonly string[] = DEFAULT_FRAME_ANCESTORS): boolean {
  return sources.some((s) => matches(s, origin));
}

describe("the default frame-ancestors", () => {
  it.each([
    // Excel on the web's own frame, and the pages around it in Microsoft 365.
    "https://excel.officeapps.live.com",
    "https://contoso.sharepoint.com",
    "https://contoso-my.sharepoint.com",
    "https://onedrive.live.com",
    "https://www.office.com",
    "https://office.com",
    "https://www.microsoft365.com",
    "https://excel.cloud.microsoft",
    "https://m365.cloud.microsoft",
    // Teams (work, and the Teams host on cloud.microsoft).
    "https://teams.microsoft.com",
    "https://teams.cloud.microsoft",
    // US government clouds (GCC High, DoD): Office on the web and SharePoint.
    "https://excel.gov.online.office365.us",
    "https://excel.dod.online.office365.us",
    "https://contoso.sharepoint.us",
    "https://contoso.sharepoint-mil.us",
    "https://gov.teams.microsoft.us",
    // Office 365 operated by 21Vianet (China).
    "https://excel.partner.officewebapps.cn",
    "https://contoso.sharepoint.cn",
  ])("lets %s frame the pages", (origin) => {
    expect(allowed(origin)).toBe(true);
  });

  it.each([
    "https://evil.example.com",
    "http://excel.officeapps.live.com",
    "https://sharepoint.com.evil.example",
  ])("does not let %s frame them", (origin) => {
    expect(allowed(origin)).toBe(false);
  });

  it("names no excel.cloud.microsoft.com (no such Microsoft host: it is excel.cloud.microsoft)", () => {
    expect(DEFAULT_FRAME_ANCESTORS.join(" ")).not.toMatch(/cloud\.microsoft\.com/);
  });
});

describe("parseFrameAncestors", () => {
  it("takes sources separated by spaces or commas", () => {
    expect(parseFrameAncestors("'self' https://*.contoso.com,https://office.contoso.com:8443")).toEqual([
      "'self'",
      "https://*.contoso.com",
      "https://office.contoso.com:8443",
    ]);
  });

  it.each([
    ["http://plain.example.com", /https/],
    ["https://example.com/path", /origin/],
    ["https://*", /host/],
    ["*", /host/],
    ["https://exa mple.com", /./],
    ["'unsafe-inline'", /not a frame-ancestors source/],
    ["https://example.com;script-src *", /./],
    ["", /at least one/],
    ["'none' https://example.com", /'none'/],
  ])("refuses %j", (text, message) => {
    expect(() => parseFrameAncestors(text)).toThrow(FrameAncestorsError);
    expect(() => parseFrameAncestors(text)).toThrow(message);
  });
});

describe("the server's option", () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), "frame-ancestors-"));
    writeFileSync(join(dist, "taskpane.html"), "<!doctype html><title>pane</title>");
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it("createAddinApp sends the default, or the list it is given", async () => {
    const tenants = parseTenantList([]);
    const byDefault = createAddinApp({ distDir: dist, tenants, secure: false });
    const csp = (await byDefault.request("/taskpane.html")).headers.get("content-security-policy")!;
    expect(csp).toContain(`frame-ancestors ${DEFAULT_FRAME_ANCESTORS.join(" ")};`);
    const custom = createAddinApp({
      distDir: dist,
      tenants,
      secure: false,
      frameAncestors: ["'self'", "https://office.contoso.com"],
    });
    const customCsp = (await custom.request("/taskpane.html")).headers.get("content-security-policy")!;
    expect(customCsp).toContain("frame-ancestors 'self' https://office.contoso.com;");
    // The relay keeps its own policy: never framed.
    const relayed = await custom.request("/relay/nowhere.example.com/x");
    expect(relayed.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("npm run serve takes --frame-ancestors and FRAME_ANCESTORS, and refuses a bad source with status 2", async () => {
    const server = await spawnAddinServer(
      ["--port", "0", "--quiet", "--frame-ancestors", "'self' https://*.contoso.com"],
      {
        FRAME_ANCESTORS: "https://office.contoso.com",
      },
    );
    try {
      const csp = (await fetch(`${server.url}/taskpane.html`)).headers.get("content-security-policy")!;
      expect(csp).toContain("frame-ancestors 'self' https://*.contoso.com https://office.contoso.com;");
    } finally {
      await server.stop("SIGTERM");
    }
    const bad = await runAddinServer(["--port", "0", "--frame-ancestors", "http://office.contoso.com"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('"http://office.contoso.com"');
  });
});
