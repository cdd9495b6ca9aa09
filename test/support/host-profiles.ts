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
  /** Excel on Mac at the first version with SharedRuntime 1.1 (16.35). */
  mac: { ExcelApi: "1.10", SharedRuntime: "1.1", DialogApi: "1.2" },
  /**
   * The oldest host the manifest allows: exactly what it requires (ExcelApi 1.7, SharedRuntime
   * 1.1) and DialogApi 1.1. Below ExcelApi 1.9 there is no worksheet-collection onSelectionChanged
   * and below 1.17 no onNameChanged: the host's guarded paths.
   */
  oldestAllowed: { ExcelApi: "1.7", SharedRuntime: "1.1", DialogApi: "1.1" },
  /**
   * Perpetual Excel 2019 on Windows: ExcelApi up to 1.8, DialogApi 1.1, and no shared runtime, so
   * the manifest's <Requirements> keep the add-in off it.
   */
  excel2019: { ExcelApi: "1.8", DialogApi: "1.1" },
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
