// @vitest-environment jsdom
/**
 * The built manifest (dist/excel/manifest.xml; `npm test` builds first), checked strictly the way
 * Office's schemas (OfficeAppManifestV1_1.xsd, TaskPaneAppVersionOverridesV1_0.xsd) and the
 * shared-runtime docs describe it: Microsoft's validator needs the network, so this is our own.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DISCONNECT_HERE_ACTION } from "../../../src/hosts/excel/commands.js";
import { manifestVersion, normalizeBaseUrl, renderManifest } from "../../../tooling/excel/manifest.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const DIST = resolve(ROOT, "dist/excel");
const MANIFEST = resolve(DIST, "manifest.xml");

const NS = {
  app: "http://schemas.microsoft.com/office/appforoffice/1.1",
  ov: "http://schemas.microsoft.com/office/taskpaneappversionoverrides",
  bt: "http://schemas.microsoft.com/office/officeappbasictypes/1.0",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
};

function parseXml(text: string): Document {
  return new DOMParser().parseFromString(text, "application/xml");
}

function children(el: Element): Element[] {
  return [...el.children];
}

function child(el: Element, name: string): Element {
  const found = children(el).filter((c) => c.localName === name);
  if (found.length !== 1) throw new Error(`<${el.localName}> has ${found.length} <${name}>, expected 1`);
  return found[0]!;
}

function xsiType(el: Element): string | null {
  return el.getAttributeNS(NS.xsi, "type");
}

/**
 * The children of `el` follow `sequence` (an xs:sequence): only these names, in this order, each
 * within its [min, max] occurrences.
 */
function expectSequence(el: Element, sequence: [name: string, min: number, max: number][]) {
  const names = children(el).map((c) => c.localName);
  let i = 0;
  for (const [name, min, max] of sequence) {
    let n = 0;
    while (names[i] === name) {
      n++;
      i++;
    }
    expect(
      n,
      `<${name}> under <${el.localName}>: ${n} times (allowed ${min}..${max})`,
    ).toBeGreaterThanOrEqual(min);
    expect(n, `<${name}> under <${el.localName}>: ${n} times (allowed ${min}..${max})`).toBeLessThanOrEqual(
      max,
    );
  }
  expect(
    names.slice(i),
    `unexpected or misplaced children of <${el.localName}>: ${names.join(", ")}`,
  ).toEqual([]);
}

const MANY = Number.POSITIVE_INFINITY;

let text: string;
let doc: Document;
let app: Element;
let overrides: Element;
let resources: Map<string, Map<string, string>>;

function resource(kind: "Images" | "Urls" | "ShortStrings" | "LongStrings", resid: string | null): string {
  expect(resid, `a resid is missing (${kind})`).toBeTruthy();
  expect(resid!.length, `resid "${resid}" is longer than 32 characters`).toBeLessThanOrEqual(32);
  const value = resources.get(kind)!.get(resid!);
  expect(value, `resid "${resid}" is not defined in <bt:${kind}>`).toBeDefined();
  return value!;
}

function fileOf(url: string, base: string): string {
  expect(url.startsWith(`${base}/`), `${url} is not under the base URL ${base}`).toBe(true);
  return resolve(DIST, url.slice(base.length + 1));
}

/** The base URL the build used: the pane's address without "/taskpane.html". */
function baseUrl(): string {
  const pane = child(child(app, "DefaultSettings"), "SourceLocation").getAttribute("DefaultValue")!;
  expect(pane).toMatch(/\/taskpane\.html$/);
  return pane.replace(/\/taskpane\.html$/, "");
}

function pngSize(file: string): [number, number] {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).toString("hex"), `${file} is not a PNG`).toBe("89504e470d0a1a0a");
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

beforeAll(() => {
  expect(existsSync(MANIFEST), "dist/excel/manifest.xml is missing: run `npm run build:excel`").toBe(true);
  text = readFileSync(MANIFEST, "utf8");
  doc = parseXml(text);
  app = doc.documentElement;
  overrides = child(app, "VersionOverrides");
  resources = new Map();
  for (const kind of ["Images", "Urls", "ShortStrings", "LongStrings"]) {
    const map = new Map<string, string>();
    const group = children(child(overrides, "Resources")).find((c) => c.localName === kind);
    for (const item of group ? children(group) : []) {
      const id = item.getAttribute("id")!;
      expect(map.has(id), `resource id "${id}" is defined twice`).toBe(false);
      map.set(id, item.getAttribute("DefaultValue")!);
    }
    resources.set(kind, map);
  }
});

describe("the built manifest", () => {
  it("is well-formed XML with every placeholder filled in", () => {
    expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
    expect(text).not.toMatch(/\{\{|\}\}/);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it("is a TaskPaneApp for Workbook with its elements in the schema's order", () => {
    expect(app.localName).toBe("OfficeApp");
    expect(app.namespaceURI).toBe(NS.app);
    expect(xsiType(app)).toBe("TaskPaneApp");
    // OfficeApp's sequence, then TaskPaneApp's extension of it.
    expectSequence(app, [
      ["Id", 1, 1],
      ["AlternateId", 0, 1],
      ["Version", 1, 1],
      ["ProviderName", 1, 1],
      ["DefaultLocale", 1, 1],
      ["DisplayName", 1, 1],
      ["Description", 1, 1],
      ["IconUrl", 1, 1],
      ["HighResolutionIconUrl", 1, 1],
      ["SupportUrl", 0, 1],
      ["AppDomains", 0, 1],
      ["Hosts", 1, 1],
      ["Requirements", 0, 1],
      ["DefaultSettings", 1, 1],
      ["Permissions", 1, 1],
      ["Dictionary", 0, 1],
      ["VersionOverrides", 1, 1],
      ["ExtendedOverrides", 0, 1],
    ]);
    expect(child(app, "Id").textContent).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    );
    expect(child(app, "Version").textContent).toMatch(/^\d{1,5}(\.\d{1,5}){0,3}$/);
    expect(child(app, "DefaultLocale").textContent).toBe("en-US");
    expect(child(app, "ProviderName").textContent!.length).toBeLessThanOrEqual(125);
    expect(child(app, "DisplayName").getAttribute("DefaultValue")!.length).toBeLessThanOrEqual(125);
    expect(child(app, "Description").getAttribute("DefaultValue")!.length).toBeLessThanOrEqual(250);
    expect(children(child(app, "Hosts")).map((h) => h.getAttribute("Name"))).toEqual(["Workbook"]);
    expect(child(app, "Permissions").textContent).toBe("ReadWriteDocument");
  });

  it("requires the shared runtime (SharedRuntime 1.1)", () => {
    const sets = child(child(app, "Requirements"), "Sets");
    const shared = children(sets).find((s) => s.getAttribute("Name") === "SharedRuntime");
    expect(shared?.getAttribute("MinVersion")).toBe("1.1");
  });

  it("has VersionOverrides (task pane 1.0) with one long-lived Runtime on the task pane page", () => {
    expect(overrides.namespaceURI).toBe(NS.ov);
    expect(xsiType(overrides)).toBe("VersionOverridesV1_0");
    expectSequence(overrides, [
      ["Description", 0, 1],
      ["Requirements", 0, 1],
      ["Hosts", 1, 1],
      ["Resources", 1, 1],
      ["WebApplicationInfo", 0, 1],
      ["EquivalentAddins", 0, 1],
    ]);
    const hosts = children(child(overrides, "Hosts"));
    expect(hosts).toHaveLength(1);
    const host = hosts[0]!;
    expect(xsiType(host)).toBe("Workbook");
    expectSequence(host, [
      ["Runtimes", 0, 1],
      ["AllFormFactors", 0, 1],
      ["DesktopFormFactor", 1, 1],
    ]);
    const runtimes = children(child(host, "Runtimes"));
    expect(runtimes).toHaveLength(1);
    expect(runtimes[0]!.localName).toBe("Runtime");
    expect(runtimes[0]!.getAttribute("lifetime")).toBe("long");
    const runtimeUrl = resource("Urls", runtimes[0]!.getAttribute("resid"));

    // The shared runtime only loads when the FunctionFile and the pane use the Runtime's resid.
    const desktop = child(host, "DesktopFormFactor");
    expectSequence(desktop, [
      ["GetStarted", 0, 1],
      ["FunctionFile", 1, 1],
      ["ExtensionPoint", 1, MANY],
    ]);
    expect(child(desktop, "FunctionFile").getAttribute("resid")).toBe(runtimes[0]!.getAttribute("resid"));
    for (const action of doc.getElementsByTagNameNS(NS.ov, "Action")) {
      if (xsiType(action) !== "ShowTaskpane") continue;
      expect(child(action, "SourceLocation").getAttribute("resid")).toBe(runtimes[0]!.getAttribute("resid"));
    }
    expect(runtimeUrl).toMatch(/\/taskpane\.html$/);
    expect(child(app, "DefaultSettings").firstElementChild!.getAttribute("DefaultValue")).toBe(runtimeUrl);

    const started = children(desktop).find((c) => c.localName === "GetStarted");
    if (started) {
      expectSequence(started, [
        ["Title", 1, 1],
        ["Description", 1, 1],
        ["LearnMoreUrl", 1, 1],
      ]);
      resource("ShortStrings", child(started, "Title").getAttribute("resid"));
      resource("LongStrings", child(started, "Description").getAttribute("resid"));
      resource("Urls", child(started, "LearnMoreUrl").getAttribute("resid"));
    }
  });

  it("has a ribbon button that opens the pane", () => {
    const points = [...doc.getElementsByTagNameNS(NS.ov, "ExtensionPoint")];
    const ribbon = points.filter((p) => xsiType(p) === "PrimaryCommandSurface");
    expect(ribbon).toHaveLength(1);
    const tab = child(ribbon[0]!, "OfficeTab");
    expect(tab.getAttribute("id")).toBe("TabHome");
    const group = child(tab, "Group");
    expectSequence(group, [
      ["Label", 1, 1],
      ["Icon", 1, 1],
      ["Control", 1, MANY],
    ]);
    const button = child(group, "Control");
    expect(xsiType(button)).toBe("Button");
    expect(xsiType(child(button, "Action"))).toBe("ShowTaskpane");
    expectSequence(child(button, "Action"), [
      ["TaskpaneId", 0, 1],
      ["SourceLocation", 1, 1],
      ["Title", 0, 1],
    ]);
  });

  it("has the cell context menu with one button 'Disconnect report here' running disconnectReportHere", () => {
    const points = [...doc.getElementsByTagNameNS(NS.ov, "ExtensionPoint")].filter(
      (p) => xsiType(p) === "ContextMenu",
    );
    expect(points).toHaveLength(1);
    const menus = children(points[0]!);
    expect(menus.map((m) => [m.localName, m.getAttribute("id")])).toEqual([
      ["OfficeMenu", "ContextMenuCell"],
    ]);
    const controls = children(menus[0]!);
    expect(controls).toHaveLength(1); // an OfficeMenu holds one control
    const button = controls[0]!;
    expect(button.localName).toBe("Control");
    expect(xsiType(button)).toBe("Button");
    expect(resource("ShortStrings", child(button, "Label").getAttribute("resid"))).toBe(
      "Disconnect report here",
    );
    const action = child(button, "Action");
    expect(xsiType(action)).toBe("ExecuteFunction");
    expectSequence(action, [["FunctionName", 1, 1]]);
    expect(child(action, "FunctionName").textContent).toBe(DISCONNECT_HERE_ACTION);
  });

  it("every control has its parts in order, a unique id within limits, and defined resources", () => {
    const ids = new Set<string>();
    for (const el of doc.getElementsByTagNameNS(NS.ov, "*")) {
      if (el.localName === "Control" || el.localName === "Group") {
        const id = el.getAttribute("id") ?? "";
        expect(id.length, `<${el.localName} id="${id}">`).toBeGreaterThan(0);
        expect(id.length, `<${el.localName} id="${id}"> is longer than 125`).toBeLessThanOrEqual(125);
        expect(ids.has(id), `id "${id}" is used twice`).toBe(false);
        ids.add(id);
      }
      if (el.localName === "Control") {
        expect(xsiType(el)).toBe("Button");
        expectSequence(el, [
          ["OverriddenByRibbonApi", 0, 1],
          ["Label", 1, 1],
          ["Supertip", 1, 1],
          ["Icon", 1, 1],
          ["Action", 1, 1],
          ["Enabled", 0, 1],
        ]);
        const tip = child(el, "Supertip");
        expectSequence(tip, [
          ["Title", 1, 1],
          ["Description", 1, 1],
        ]);
        resource("ShortStrings", child(tip, "Title").getAttribute("resid"));
        resource("LongStrings", child(tip, "Description").getAttribute("resid"));
      }
      if (
        el.localName === "Label" ||
        (el.localName === "Title" && el.parentElement?.localName !== "Action")
      ) {
        resource("ShortStrings", el.getAttribute("resid"));
      }
      if (el.localName === "Icon") {
        const images = children(el);
        expect(images.every((i) => i.namespaceURI === NS.bt && i.localName === "Image")).toBe(true);
        expect(images.map((i) => i.getAttribute("size"))).toEqual(["16", "32", "80"]);
        for (const image of images) resource("Images", image.getAttribute("resid"));
      }
    }
  });

  it("defines every resource it uses and uses every resource it defines, within the length limits", () => {
    const used = new Set<string>();
    for (const el of doc.getElementsByTagName("*")) {
      const resid = el.getAttribute("resid");
      if (resid !== null) used.add(resid);
    }
    for (const [kind, map] of resources) {
      for (const [id, value] of map) {
        expect(id.length, `resource id "${id}" is longer than 32`).toBeLessThanOrEqual(32);
        expect(used.has(id), `resource "${id}" (${kind}) is never used`).toBe(true);
        if (kind === "ShortStrings") expect(value.length, id).toBeLessThanOrEqual(125);
        if (kind === "LongStrings") expect(value.length, id).toBeLessThanOrEqual(250);
        if (kind === "Urls" || kind === "Images") expect(value.length, id).toBeLessThanOrEqual(2048);
      }
    }
    const defined = new Set([...resources.values()].flatMap((m) => [...m.keys()]));
    for (const resid of used) expect(defined.has(resid), `resid "${resid}" is not defined`).toBe(true);
  });

  it("builds every URL from one https base, and every file it names is in dist/excel", () => {
    const base = baseUrl();
    expect(base).toMatch(/^https:\/\//);
    const urls: string[] = [];
    for (const el of doc.getElementsByTagName("*")) {
      const value = el.getAttribute("DefaultValue");
      if (value && /^[a-z][a-z0-9+.-]*:/i.test(value)) urls.push(value);
    }
    for (const domain of doc.getElementsByTagNameNS(NS.app, "AppDomain")) urls.push(domain.textContent ?? "");
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) {
      expect(url, "every URL must be https").toMatch(/^https:\/\//);
      const file = fileOf(url, base);
      expect(existsSync(file), `${url} -> ${file} is not built`).toBe(true);
    }
    // AppDomains only for pages that navigate inside the pane: none does.
    expect(children(app).some((c) => c.localName === "AppDomains")).toBe(false);
  });

  it("points its icons at real PNGs of the sizes it claims", () => {
    const base = baseUrl();
    expect(pngSize(fileOf(child(app, "IconUrl").getAttribute("DefaultValue")!, base))).toEqual([32, 32]);
    expect(pngSize(fileOf(child(app, "HighResolutionIconUrl").getAttribute("DefaultValue")!, base))).toEqual([
      64, 64,
    ]);
    for (const icon of doc.getElementsByTagNameNS(NS.ov, "Icon")) {
      for (const image of children(icon)) {
        const size = Number(image.getAttribute("size"));
        expect(pngSize(fileOf(resource("Images", image.getAttribute("resid")), base))).toEqual([size, size]);
      }
    }
  });
});

describe("the built task pane page", () => {
  it("loads Office.js from Microsoft's CDN and the bundled entry relative to itself", () => {
    const html = readFileSync(resolve(DIST, "taskpane.html"), "utf8");
    const page = new DOMParser().parseFromString(html, "text/html");
    const scripts = [...page.querySelectorAll("script[src]")].map((s) => s.getAttribute("src")!);
    expect(scripts[0]).toBe("https://appsforoffice.microsoft.com/lib/1/hosted/office.js");
    const entry = scripts.find((s) => s.startsWith("./assets/"));
    expect(entry, "the module entry must be a relative ./assets/ path").toBeDefined();
    expect(existsSync(resolve(DIST, entry!))).toBe(true);
    expect(scripts.filter((s) => /^https?:/.test(s))).toHaveLength(1); // nothing else from outside
    expect(page.getElementById("root")).not.toBeNull();
  });
});

describe("filling in the template", () => {
  const template = readFileSync(resolve(ROOT, "manifest.xml"), "utf8");

  it("builds every URL from ADDIN_BASE_URL, a sub-path included", () => {
    const xml = renderManifest(template, { baseUrl: "https://addin.example.com/excel/", version: "1.2.3" });
    const urls = [...xml.matchAll(/DefaultValue="(https?:[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(url.startsWith("https://addin.example.com/excel/")).toBe(true);
    expect(xml).toContain("<Version>1.2.3.0</Version>");
    expect(xml).not.toContain("localhost");
  });

  it("refuses a base URL that is not https", () => {
    expect(() => renderManifest(template, { baseUrl: "http://addin.example.com", version: "1.0.0" })).toThrow(
      /must be https/,
    );
    expect(() => normalizeBaseUrl("not a url")).toThrow(/not a URL/);
  });

  it("turns the package version into a four-part manifest version", () => {
    expect(manifestVersion("0.1.0")).toBe("0.1.0.0");
    expect(manifestVersion("2.3.4-beta.1")).toBe("2.3.4.0");
    expect(() => manifestVersion("1.2.3.4.5")).toThrow();
  });
});
