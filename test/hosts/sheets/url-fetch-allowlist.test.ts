/**
 * Google Sheets for an organisation: a versioned deployment needs `urlFetchWhitelist` in
 * appsscript.json (developers.google.com/apps-script/manifest/allowlist-url). The build takes the
 * organisation's tenant, chat and data origins (SHEETS_TENANT_ORIGINS; `npm run deploy:sheets --
 * --tenant <origin>`), writes them as Google's prefixes into dist/sheets/appsscript.json, and
 * compiles them into Code.js, whose transport refuses any other address before fetching, on top
 * of the Settings checks.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AllowlistError,
  allowedByAllowlist,
  allowlistFromOrigins,
  allowlistPrefix,
} from "../../../src/hosts/sheets/server/url-fetch-allowlist.js";
import { createUrlFetchTransport } from "../../../src/hosts/sheets/server/url-fetch-transport.js";
import { DIST, loadAppsScript } from "../../support/apps-script.js";

const ROOT = resolve(DIST, "../..");

describe("Google's prefix rules", () => {
  it("turns an origin into a prefix with a full domain and a non-empty path (the trailing slash)", () => {
    expect(allowlistPrefix("https://acme.reporting.example.com")).toBe("https://acme.reporting.example.com/");
    expect(allowlistPrefix("https://ACME.example.com:8443/")).toBe("https://acme.example.com:8443/");
    expect(allowlistPrefix("https://*.eu.reporting.example.com")).toBe("https://*.eu.reporting.example.com/");
    expect(
      allowlistFromOrigins([
        "https://acme.example.com, https://ai.eu.example.com",
        "https://acme.example.com",
      ]),
    ).toEqual(["https://acme.example.com/", "https://ai.eu.example.com/"]);
  });

  it.each([
    ["http://acme.example.com", /https/],
    ["https://acme.example.com/api", /origin only/],
    ["https://localhost", /full domain/],
    ["https://10.0.0.1", /full domain/],
    ["acme.example.com", /not an origin/],
  ])("refuses %j", (origin, message) => {
    expect(() => allowlistPrefix(origin)).toThrow(AllowlistError);
    expect(() => allowlistPrefix(origin)).toThrow(message);
  });

  it("matches as Google documents: the prefix or a child of it; a wildcard for subdomains only", () => {
    const list = ["https://example.com/foo", "https://acme.example.org/", "https://*.ai.example.net/"];
    for (const url of [
      "https://example.com/foo",
      "https://example.com/foo/",
      "https://example.com/foo/bar",
      "https://example.com/foo?bar",
      "https://example.com/foo#bar",
      "https://acme.example.org/api/v1/deployments",
      "https://eu.ai.example.net/chat",
    ]) {
      expect(allowedByAllowlist(url, list), url).toBe(true);
    }
    for (const url of [
      "https://example.com/foobar",
      "https://example.com/Foo",
      "http://acme.example.org/api",
      "https://acme.example.org.evil.example/api",
      "https://evil.example@acme.example.org/api",
      "https://ai.example.net/chat",
    ]) {
      expect(allowedByAllowlist(url, list), url).toBe(false);
    }
  });
});

describe("the server's transport", () => {
  it("refuses an address outside the built list before fetching, even one Settings allow", () => {
    const fetched: string[] = [];
    const fetcher = {
      fetch(url: string) {
        fetched.push(url);
        return {
          getResponseCode: () => 200,
          getAllHeaders: () => ({}),
          getContentText: () => "{}",
        } as unknown as GoogleAppsScript.URL_Fetch.HTTPResponse;
      },
    };
    const to = { tenantBase: "https://other.example.com", chatUrl: null };
    const listed = createUrlFetchTransport(to, fetcher, ["https://acme.example.com/"]);
    expect(() =>
      listed({ method: "GET", url: "https://other.example.com/api/v1/deployments", headers: {} }),
    ).toThrow(/other\.example\.com/);
    expect(fetched).toEqual([]);
    // With no built list (a test deployment), the Settings checks alone decide.
    createUrlFetchTransport(
      to,
      fetcher,
      null,
    )({ method: "GET", url: "https://other.example.com/api/x", headers: {} });
    expect(fetched).toEqual(["https://other.example.com/api/x"]);
  });
});

describe("the sheets build's Apps Script half with SHEETS_TENANT_ORIGINS", () => {
  // `buildSheetsServer` is what `vite build --mode sheets` runs once the sidebar is written (the
  // sidebar is the same with or without origins, and `npm run build` wrote it to dist/sheets). The
  // command itself, origins and all, is run by the bad-origin test below and by deploy:sheets.
  let out: string;
  let log = "";
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "sheets-allowlist-"));
    // The sidebar's files as the build wrote them: Code.js compiles in the names of its chunks.
    for (const file of readdirSync(DIST))
      if (file.endsWith(".html")) copyFileSync(join(DIST, file), join(out, file));
    const { buildSheetsServer } = await import("../../../tooling/sheets/build.js");
    await buildSheetsServer(
      out,
      { SHEETS_TENANT_ORIGINS: "https://acme.reporting.example.com, https://ai.eu.reporting.example.com" },
      (line) => {
        log += line;
      },
    );
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("writes the prefixes into appsscript.json's urlFetchWhitelist, the rest as the repository's", () => {
    const manifest = JSON.parse(readFileSync(join(out, "appsscript.json"), "utf8"));
    const repo = JSON.parse(readFileSync(join(ROOT, "appsscript.json"), "utf8"));
    expect(manifest.urlFetchWhitelist).toEqual([
      "https://acme.reporting.example.com/",
      "https://ai.eu.reporting.example.com/",
    ]);
    const { urlFetchWhitelist: _list, ...rest } = manifest;
    expect(rest).toEqual(repo);
  });

  it("names the file it writes in its log as it is on disk", async () => {
    const named = /Wrote (\S*appsscript\.json) with urlFetchWhitelist/.exec(log);
    expect(named, log).not.toBeNull();
    expect(existsSync(resolve(ROOT, named![1]!))).toBe(true);
    // The sidebar's page is read and logged under the name HtmlService asks for.
    const { sheetsBuild } = await import("../../../tooling/sheets/build.js");
    expect(sheetsBuild().build?.rolldownOptions?.input).toMatch(/[/\\]Sidebar\.html$/);
  });

  it("compiles the list into Code.js: a tenant outside it is refused and nothing is fetched", () => {
    const world = loadAppsScript({ dist: out });
    const saved = world.global.saveSettings!({
      tenantUrl: "https://other.example.com",
      deploymentId: 7,
      apiKey: "sk-other",
    }) as { ok: boolean };
    expect(saved.ok).toBe(true);
    const answer = world.global.refreshPane!() as { ok: boolean; error?: { message: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error?.message).toMatch(/other\.example\.com/);
    expect(world.requests).toEqual([]);
  });

  it("a listed tenant is fetched", () => {
    const world = loadAppsScript({
      dist: out,
      fetch: () => ({
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ items: [], pageInfo: { hasNextPage: false } }),
      }),
    });
    world.global.saveSettings!({
      tenantUrl: "https://acme.reporting.example.com",
      deploymentId: 7,
      apiKey: "sk",
    });
    world.global.refreshPane!();
    expect(world.requests.map((r) => new URL(r.url).origin)).toContain("https://acme.reporting.example.com");
  });
});

describe("the default build (no origins given)", () => {
  it("writes no urlFetchWhitelist: fine for a test deployment, which the docs say", () => {
    const manifest = JSON.parse(readFileSync(join(DIST, "appsscript.json"), "utf8"));
    expect(manifest.urlFetchWhitelist).toBeUndefined();
  });

  it("a bad origin stops the build with a message naming it", () => {
    const out = mkdtempSync(join(tmpdir(), "sheets-allowlist-bad-"));
    try {
      const built = spawnSync(join(ROOT, "node_modules/.bin/vite"), ["build", "--mode", "sheets"], {
        cwd: ROOT,
        env: { ...process.env, SHEETS_OUT_DIR: out, SHEETS_TENANT_ORIGINS: "http://acme.example.com" },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(built.status).not.toBe(0);
      expect(`${built.stdout}${built.stderr}`).toContain('"http://acme.example.com" must use https://');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 130_000);
});

describe("npm run deploy:sheets -- --tenant <origin>", () => {
  it("passes repeated --tenant flags and SHEETS_TENANT_ORIGINS to the build, then pushes", async () => {
    const { deployPlan } = (await import(join(ROOT, "tooling/sheets/deploy.mjs"))) as {
      deployPlan(
        argv: string[],
        env: Record<string, string | undefined>,
      ): { env: Record<string, string>; steps: string[][] };
    };
    const plan = deployPlan(["--tenant", "https://acme.example.com", "--tenant=https://ai.example.com"], {
      SHEETS_TENANT_ORIGINS: "https://data.example.com",
    });
    expect(plan.env.SHEETS_TENANT_ORIGINS).toBe(
      "https://data.example.com,https://acme.example.com,https://ai.example.com",
    );
    expect(plan.steps).toEqual([
      ["node", "tooling/sheets/check-clasp-project.mjs"],
      ["npm", "run", "build:sheets"],
      ["clasp", "push", "--force"],
    ]);
    expect(() => deployPlan(["--frobnicate"], {})).toThrow(/--frobnicate/);
  });
});
