/**
 * Office hosts as the fakes answer `Office.context.requirements.isSetSupported` for them
 * (excel-mock.ts in Node, office-stand-in.ts in Chromium).
 */

/**
 * Which requirement sets a host answers `isSetSupported` for, highest version of each; any set not
 * listed is unsupported. Sources: Microsoft's requirement-set tables,
 * learn.microsoft.com/javascript/api/requirement-sets/excel/excel-api-requirement-sets (ExcelApi),
 * .../common/shared-runtime-requirement-sets (SharedRuntime 1.1: web, Windows 2002+, Excel 2021,
 * Mac 16.35+; not Excel 2019), .../common/dialog-api-requirement-sets (DialogApi).
 */
export const HOST_PROFILES = {
  /** Excel on the web today. */
  web: { ExcelApi: "1.19", SharedRuntime: "1.2", DialogApi: "1.2", DialogOrigin: "1.1" },
  /** Excel on Mac at the first version with SharedRuntime 1.1 (16.35, which has ExcelApi 1.11). */
  mac: { ExcelApi: "1.11", SharedRuntime: "1.1", DialogApi: "1.2" },
  /** Volume-licensed Excel 2021 on Windows: ExcelApi 1.14, SharedRuntime 1.1 (Version 2108). */
  excel2021: { ExcelApi: "1.14", SharedRuntime: "1.1", DialogApi: "1.1" },
  /**
   * The oldest host the manifest allows: exactly what it requires (ExcelApi 1.7, SharedRuntime
   * 1.1) and DialogApi 1.1, older than any real host with a shared runtime (Windows 2002 and Mac
   * 16.35 both have ExcelApi 1.11), so the strictest. Below ExcelApi 1.9 there is no
   * worksheet-collection onSelectionChanged and below 1.17 no onNameChanged: the guarded paths.
   */
  oldestAllowed: { ExcelApi: "1.7", SharedRuntime: "1.1", DialogApi: "1.1" },
  /**
   * Volume-licensed Excel 2019 on Windows: ExcelApi up to 1.7, DialogApi 1.1, and no shared
   * runtime, so the manifest's <Requirements> keep the add-in off it.
   */
  excel2019: { ExcelApi: "1.7", DialogApi: "1.1" },
} satisfies Record<string, Record<string, string>>;

export type HostProfileName = keyof typeof HOST_PROFILES;

/** `isSetSupported(name, minVersion)` as Office answers it for `sets` (minVersion defaults to 1.1). */
export function supportsSet(sets: Record<string, string>, name: string, minVersion = "1.1"): boolean {
  const highest = sets[name];
  return highest !== undefined && compareVersions(minVersion, highest) <= 0;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
