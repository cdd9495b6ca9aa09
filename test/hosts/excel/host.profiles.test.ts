/**
 * The Excel host under each Office host profile the fakes know (test/support/host-profiles.ts,
 * from Microsoft's requirement-set tables): the oldest host the manifest allows (ExcelApi 1.7,
 * SharedRuntime 1.1) runs the guarded paths (no worksheet-collection onSelectionChanged before
 * ExcelApi 1.9, no onNameChanged before 1.17), and the fakes answer isSetSupported for every set
 * the code asks about. The fakes make an unguarded call to a newer event fail (ApiNotFound), as
 * Excel does, so these tests would see it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { ActiveContext } from "../../../src/hosts/host.js";
import { readManifestValues, renderManifest } from "../../../tooling/excel/manifest.js";
import { mockedExcelHost } from "../../support/excel-mock.js";
import { HOST_PROFILES, type HostProfileName, supportsSet } from "../../support/host-profiles.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const required = readManifestValues(
  renderManifest(readFileSync(resolve(ROOT, "manifest.xml"), "utf8"), {
    baseUrl: "https://addin.example.com",
    version: "1.0.0",
  }),
).requirementSets;

const allows = (profile: HostProfileName) =>
  required.every((set) => supportsSet(HOST_PROFILES[profile], set.name, set.minVersion));

describe("which hosts the manifest allows", () => {
  it("allows Excel on the web, Mac 16.35+, Excel 2021 and the oldest profile; keeps Excel 2019 (no shared runtime) out", () => {
    expect(allows("web")).toBe(true);
    expect(allows("mac")).toBe(true);
    expect(allows("excel2021")).toBe(true);
    expect(allows("oldestAllowed")).toBe(true);
    expect(allows("excel2019")).toBe(false);
  });

  it("the oldest profile is exactly the manifest's minimum", () => {
    for (const set of required) expect(HOST_PROFILES.oldestAllowed).toHaveProperty(set.name, set.minVersion);
  });
});

describe.each(["oldestAllowed", "excel2021", "mac", "web"] as const)("the host under %s", (profile) => {
  it("reads the context and follows the selection on the paths that profile supports", async () => {
    const { mock, host } = mockedExcelHost({
      profile,
      storedWorkbookId: "11111111-2222-4333-8444-555555555555",
    });
    const seen: ActiveContext[] = [];
    host.onContextChanged((c) => seen.push(c));
    expect((await host.activeContext()).cell).toBe("B2");
    const sets = HOST_PROFILES[profile];
    if (supportsSet(sets, "ExcelApi", "1.9")) {
      await vi.waitFor(() => expect(mock.state.handlers.onSelectionChanged).toHaveLength(1));
      expect(mock.state.documentHandlers).toHaveLength(0);
    } else {
      await vi.waitFor(() => expect(mock.state.documentHandlers).toHaveLength(1));
      expect(mock.state.handlers.onSelectionChanged).toBeUndefined();
    }
    expect(mock.state.handlers.onNameChanged === undefined).toBe(!supportsSet(sets, "ExcelApi", "1.17"));
    // Every set the code asked about is one the profiles know.
    const known = new Set(Object.values(HOST_PROFILES).flatMap((p) => Object.keys(p)));
    for (const check of mock.state.requirementChecks) expect(known).toContain(check.split(" ")[0]);
  });
});

describe("the fakes are as strict as Excel", () => {
  it("adding worksheets.onSelectionChanged below ExcelApi 1.9 fails with ApiNotFound", async () => {
    const { mock } = mockedExcelHost({ profile: "oldestAllowed" });
    const sheets = await mock.Excel.run(
      async (context) => context.workbook.worksheets as unknown as Record<string, { add(h: unknown): void }>,
    );
    expect(() => sheets.onSelectionChanged!.add(() => {})).toThrow(/ExcelApi 1.9/);
    expect(() => sheets.onNameChanged!.add(() => {})).toThrow(/ExcelApi 1.17/);
  });
});
