/**
 * A workbook with many placements, for the long-list tests: `n` placements over 20 reports, spread
 * over the fake host's three sheets in turn (placement i on sheet i % 3, at B{3k+2}:E{3k+3} with
 * k = i / 3), none overlapping.
 */
import type { ReportPlacement } from "../../src/core/schema.js";
import { ctx, FakeHost, report, SHEETS, WORKBOOK_ID } from "./fakeHost.js";

export function manyPlacements(n: number): FakeHost {
  const perReport: ReportPlacement[][] = Array.from({ length: 20 }, () => []);
  for (let i = 0; i < n; i++) {
    const sheet = SHEETS[i % SHEETS.length]!;
    const row = 3 * Math.floor(i / SHEETS.length) + 2;
    perReport[i % 20]!.push({
      id: `v-${i}`,
      workbookId: WORKBOOK_ID,
      sheetId: sheet.id,
      sheetName: sheet.name,
      anchorCell: `B${row}`,
      endResultCell: `E${row + 1}`,
      resultLocation: `${sheet.name}!B${row}`,
      syncStatus: "UP_TO_DATE",
    });
  }
  const host = new FakeHost({ context: ctx("Sales", "A1") });
  host.reports = perReport.map((placements, r) => report(200 + r, `Report ${r + 1}`, placements));
  return host;
}
