// @vitest-environment jsdom
/**
 * The built manifest (dist/excel/manifest.xml) against Microsoft's published add-in manifest
 * schemas (OfficeAppManifestV1_1 with TaskPaneAppVersionOverridesV1_0, including <Runtimes>; copies
 * in test/fixtures/office-manifest-xsd), validated by libxml2 (xmllint-wasm), plus the rules the
 * schemas cannot say: the shared-runtime rule on <TaskpaneId>, the requirement sets the code relies
 * on, and Office.js from Microsoft's CDN with a Content-Security-Policy that allows it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { CONTENT_SECURITY_POLICY } from "../../../src/addin-server/security-headers.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const XSD_DIR = join(ROOT, "test/fixtures/office-manifest-xsd");
const MANIFEST = join(ROOT, "dist/excel/manifest.xml");
const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

const NS = {
  app: "http://schemas.microsoft.com/office/appforoffice/1.1",
  ov: "http://schemas.microsoft.com/office/taskpaneappversionoverrides",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
};

async function validate(xml: string) {
  const schemas = readdirSync(XSD_DIR).filter((f) => f.endsWith(".xsd"));
  return validateXML({
    xml: [{ fileName: "manifest.xml", contents: xml }],
    schema: [
      {
        fileName: "OfficeAppManifestV1_1.xsd",
        contents: readFileSync(join(XSD_DIR, "OfficeAppManifestV1_1.xsd"), "utf8"),
      },
    ],
    preload: schemas
      .filter((f) => f !== "OfficeAppManifestV1_1.xsd")
      .map((f) => ({ fileName: f, contents: readFileSync(join(XSD_DIR, f), "utf8") })),
  });
}

/**
 * Actions in the shared runtime (their SourceLocation is a long-lifetime Runtime's resid) that
 * carry a <TaskpaneId>: there must be none.
 */
function taskpaneIdsInLongRuntime(xml: string): string[] {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const long = new Set(
    [...doc.getElementsByTagNameNS(NS.ov, "Runtime")]
      .filter((r) => r.getAttribute("lifetime") === "long")
      .map((r) => r.getAttribute("resid")),
  );
  return [...doc.getElementsByTagNameNS(NS.ov, "Action")]
    .filter((a) =>
      [...a.children].some((c) => c.localName === "SourceLocation" && long.has(c.getAttribute("resid"))),
    )
    .flatMap((a) =>
      [...a.children].filter((c) => c.localName === "TaskpaneId").map((c) => c.textContent ?? ""),
    );
}

function requirementSets(xml: string): Map<string, string> {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const sets =
    doc.getElementsByTagNameNS(NS.app, "Requirements")[0]?.getElementsByTagNameNS(NS.app, "Set") ?? [];
  return new Map([...sets].map((s) => [s.getAttribute("Name")!, s.getAttribute("MinVersion")!]));
}

describe("the built manifest", () => {
  const xml = readFileSync(MANIFEST, "utf8");

  it("validates against OfficeAppManifestV1_1.xsd with TaskPaneAppVersionOverridesV1_0.xsd", async () => {
    const result = await validate(xml);
    expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("the validator does catch a manifest that breaks the schema (an element out of order)", async () => {
    const broken = xml.replace(
      /(<Version>[^<]*<\/Version>)(\s*)(<ProviderName>[^<]*<\/ProviderName>)/,
      "$3$2$1",
    );
    expect(broken).not.toBe(xml);
    expect((await validate(broken)).valid).toBe(false);
  });

  it("has no <TaskpaneId> on an action of the long-lifetime shared runtime", () => {
    expect(taskpaneIdsInLongRuntime(xml)).toEqual([]);
    // The check itself sees one when it is there.
    const withId = xml.replace(/<Action xsi:type="ShowTaskpane">/, "$&<TaskpaneId>Pane</TaskpaneId>");
    expect(taskpaneIdsInLongRuntime(withId)).toEqual(["Pane"]);
  });

  it("declares the requirement sets the code relies on: SharedRuntime 1.1 and ExcelApi 1.7", () => {
    const sets = requirementSets(xml);
    expect(sets.get("SharedRuntime")).toBe("1.1");
    // getActiveCell, custom document properties and worksheet events are ExcelApi 1.7; later
    // sets (1.9 selection events, 1.17 renames) are checked with isSetSupported before use.
    expect(sets.get("ExcelApi")).toBe("1.7");
  });

  it("loads Office.js from Microsoft's CDN, and both policies (page and add-in server) allow it", () => {
    const page = readFileSync(join(ROOT, "dist/excel/taskpane.html"), "utf8");
    expect(page).toContain(`<script src="${OFFICE_JS}"></script>`);
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(page)?.[1] ?? "";
    for (const policy of [meta, CONTENT_SECURITY_POLICY]) {
      const scriptSrc = policy.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
      expect(scriptSrc.split(/\s+/)).toContain("https://appsforoffice.microsoft.com");
      // The relay is on the page's own origin.
      const connectSrc = policy.split(";").find((d) => d.trim().startsWith("connect-src")) ?? "";
      expect(connectSrc.split(/\s+/)).toContain("'self'");
    }
  });
});
