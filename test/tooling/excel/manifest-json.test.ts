/**
 * The unified manifest (dist/excel/manifest.json, Microsoft's JSON app manifest for Office add-ins)
 * and its package for the admin centre (dist/excel/manifest-package.zip), built beside
 * manifest.xml from the same values. Validated against the JSON schema of its own
 * `manifestVersion` as shipped in Microsoft's npm package @microsoft/app-manifest (offline), plus
 * what the schema cannot say: Microsoft's shared-runtime rule for this manifest (one long-lifetime
 * runtime holding the pane's `openPage` action and the command's `executeFunction` action, no
 * `view` on either: learn.microsoft.com/office/dev/add-ins/develop/configure-your-add-in-to-use-a-shared-runtime),
 * the cell context menu, the requirement sets, and the same id, names, URLs and labels as the XML.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { DISCONNECT_HERE_ACTION } from "../../../src/hosts/excel/early.js";
import {
  readManifestValues,
  renderManifest,
  renderUnifiedManifest,
  UNIFIED_ICONS,
  type UnifiedManifest,
} from "../../../tooling/excel/manifest.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const DIST = join(ROOT, "dist/excel");
const require = createRequire(import.meta.url);

/** The schema of `manifestVersion` as the npm package ships it (build/json-schemas/teams/v<n>). */
function schemaFor(manifestVersion: string): object {
  const pkg = dirname(require.resolve("@microsoft/app-manifest/package.json"));
  const file = join(pkg, "build/json-schemas/teams", `v${manifestVersion}`, "MicrosoftTeams.schema.json");
  expect(existsSync(file), `@microsoft/app-manifest ships no schema for ${manifestVersion}`).toBe(true);
  return JSON.parse(readFileSync(file, "utf8"));
}

function validate(manifest: unknown): string[] {
  const m = manifest as { manifestVersion: string };
  // The schemas are draft-04; `strict: false` because they use keywords ajv's strict mode flags
  // (descriptions on $ref siblings), not to loosen what a manifest may hold.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const check = ajv.compile(schemaFor(m.manifestVersion));
  return check(manifest) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

function pngInfo(bytes: Uint8Array): { width: number; height: number; colourType: number } {
  const b = Buffer.from(bytes);
  expect(b.subarray(0, 8).toString("hex"), "not a PNG").toBe("89504e470d0a1a0a");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), colourType: b[25]! };
}

const TEMPLATE = readFileSync(join(ROOT, "manifest.xml"), "utf8");
const BASE = "https://addin.example.com/excel";
const xml = renderManifest(TEMPLATE, { baseUrl: BASE, version: "1.2.3" });
const values = readManifestValues(xml);
const manifest = renderUnifiedManifest(values, { version: "1.2.3" });
const extension = manifest.extensions[0]!;

describe("the unified manifest", () => {
  it("is valid against the JSON schema of its manifestVersion from @microsoft/app-manifest", () => {
    expect(manifest.$schema).toContain(`/v${manifest.manifestVersion}/MicrosoftTeams.schema.json`);
    expect(validate(manifest)).toEqual([]);
  });

  it("the schema check can fail: a manifest without its colour icon is reported", () => {
    const broken = structuredClone(manifest) as unknown as { icons: Record<string, unknown> };
    delete broken.icons.color;
    expect(validate(broken).join("\n")).toMatch(/color/);
  });

  it("has manifest.xml's id, names, description, version and URLs", () => {
    expect(manifest.id).toBe("c228c1f8-8b74-4fa2-9fcb-f7c88a47347c");
    expect(manifest.id).toBe(values.id);
    expect(manifest.version).toBe("1.2.3");
    expect(manifest.name.short).toBe(values.displayName);
    expect(manifest.developer.name).toBe(values.providerName);
    expect(manifest.description.full).toBe(values.description);
    expect(manifest.description.short.length).toBeLessThanOrEqual(80);
    expect(manifest.developer.websiteUrl).toBe(`${BASE}/help.html`);
    expect(manifest.validDomains).toEqual(["addin.example.com"]);
    expect(extension.runtimes[0]!.code.page).toBe(`${BASE}/taskpane.html`);
    expect(extension.getStartedMessages[0]!.learnMoreUrl).toBe(`${BASE}/help.html`);
  });

  it("requires what manifest.xml requires (ExcelApi 1.7, SharedRuntime 1.1) in workbooks only", () => {
    expect(values.requirementSets).toEqual([
      { name: "SharedRuntime", minVersion: "1.1" },
      { name: "ExcelApi", minVersion: "1.7" },
    ]);
    expect(extension.requirements.scopes).toEqual(["workbook"]);
    expect(extension.requirements.capabilities).toEqual(values.requirementSets);
  });

  it("has ONE long-lifetime runtime holding the pane's and the command's actions, no view on either", () => {
    expect(extension.runtimes).toHaveLength(1);
    const runtime = extension.runtimes[0]!;
    expect(runtime.lifetime).toBe("long");
    expect(runtime.requirements.capabilities).toContainEqual({ name: "SharedRuntime", minVersion: "1.1" });
    expect(runtime.actions.map((a) => a.type).sort()).toEqual(["executeFunction", "openPage"]);
    for (const action of runtime.actions) expect(action).not.toHaveProperty("view");
    const command = runtime.actions.find((a) => a.type === "executeFunction")!;
    expect(command.id).toBe(DISCONNECT_HERE_ACTION);
  });

  it("puts Reports on the Home tab and 'Disconnect report here' in the cell's context menu", () => {
    const actions = new Map(extension.runtimes[0]!.actions.map((a) => [a.id, a.type]));
    const group = extension.ribbons[0]!.tabs[0]!.groups[0]!;
    expect(extension.ribbons[0]!.tabs[0]!.builtInTabId).toBe("TabHome");
    expect(group.label).toBe(values.strings["Group.Label"]);
    expect(group.controls.map((c) => [c.label, actions.get(c.actionId)])).toEqual([
      [values.strings["PaneButton.Label"], "openPage"],
    ]);
    expect(extension.contextMenus).toHaveLength(1);
    const menus = extension.contextMenus[0]!.menus;
    expect(menus.map((m) => m.entryPoint)).toEqual(["cell"]);
    expect(menus[0]!.controls.map((c) => [c.label, c.actionId])).toEqual([
      [values.strings["DisconnectHere.Label"], DISCONNECT_HERE_ACTION],
    ]);
  });

  it("uses manifest.xml's button icons and the 192x192 colour and 32x32 outline icons", () => {
    const group = extension.ribbons[0]!.tabs[0]!.groups[0]!;
    expect(group.icons).toEqual(values.icons);
    expect(manifest.icons).toEqual(UNIFIED_ICONS);
    // alternateIcons: what the admin centre needs to generate an XML manifest for older Office.
    expect(extension.alternates[0]!.alternateIcons).toEqual({
      icon: { size: 32, url: `${BASE}/assets/icon-32.png` },
      highResolutionIcon: { size: 64, url: `${BASE}/assets/icon-64.png` },
    });
    expect(values.iconUrl).toBe(`${BASE}/assets/icon-32.png`);
  });
});

describe("the build", () => {
  let built: UnifiedManifest;
  beforeAll(() => {
    expect(existsSync(join(DIST, "manifest.json")), "run `npm run build:excel` first").toBe(true);
    built = JSON.parse(readFileSync(join(DIST, "manifest.json"), "utf8"));
  });

  it("writes dist/excel/manifest.json from the same values as dist/excel/manifest.xml", () => {
    const builtXml = readFileSync(join(DIST, "manifest.xml"), "utf8");
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(built).toEqual(renderUnifiedManifest(readManifestValues(builtXml), { version }));
    expect(validate(built)).toEqual([]);
  });

  it("writes manifest-package.zip holding manifest.json and the two icons, of the sizes the schema names", () => {
    const zip = unzipSync(readFileSync(join(DIST, "manifest-package.zip")));
    expect(Object.keys(zip).sort()).toEqual(
      ["manifest.json", UNIFIED_ICONS.color, UNIFIED_ICONS.outline].sort(),
    );
    expect(JSON.parse(new TextDecoder().decode(zip["manifest.json"]))).toEqual(built);
    expect(pngInfo(zip[UNIFIED_ICONS.color]!)).toMatchObject({ width: 192, height: 192 });
    // The outline icon: white on a transparent background (a PNG with alpha: colour type 4 or 6).
    const outline = pngInfo(zip[UNIFIED_ICONS.outline]!);
    expect(outline).toMatchObject({ width: 32, height: 32 });
    expect([4, 6]).toContain(outline.colourType);
    // The same files are served beside the pages, where the JSON's relative paths point.
    for (const icon of Object.values(UNIFIED_ICONS)) {
      expect(Buffer.from(readFileSync(join(DIST, icon))).equals(Buffer.from(zip[icon]!))).toBe(true);
    }
  });
});
