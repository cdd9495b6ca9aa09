/**
 * The demo workbook: the one definition shared by the sandbox's demo data (`demo.ts`) and the
 * in-browser preview workbook, so the placements the service lists and the sheets the preview draws
 * cannot drift apart. Plain constants only: this file runs in a browser as well as in Node.
 */
import type { PlacementHost } from "../core/schema.js";

export interface DemoSheet {
  /** The sheet's id in its host (opaque; Excel uses a GUID in braces, Google Sheets a number). */
  id: string;
  /** The sheet's name as it is now. */
  name: string;
  /** The name the sheet had when reports were placed on it: it has been renamed since. */
  placedAs?: string;
  /**
   * The tab was deleted and recreated under the same name after reports were placed on it: the
   * placements still store `previousId`, so a sheet id no longer identifies them (disconnect rule 7).
   */
  recreated?: { previousId: string };
}

export interface DemoWorkbook {
  /** The spreadsheet's `externalWorkbookId`. */
  id: string;
  /** The file name, as the host shows it. */
  name: string;
  host: PlacementHost;
  sheets: readonly DemoSheet[];
}

/** The workbook the demo opens: an Excel file with five sheets. */
export const DEMO_WORKBOOK = {
  id: "8c1f3a52-6d0e-4b7a-9f21-q3revenue01",
  name: "Q3 Revenue Review.xlsx",
  host: "EXCEL",
  sheets: [
    { id: "{00000000-0001-0000-0000-000000000000}", name: "Summary" },
    { id: "{00000000-0002-0000-0000-000000000000}", name: "Q1 Sales" },
    // Renamed from "Regional" after reports were placed on it.
    { id: "{00000000-0003-0000-0000-000000000000}", name: "Regions", placedAs: "Regional" },
    // Deleted and recreated under the same name after reports were placed on it.
    {
      id: "{00000000-0004-0000-0000-000000000001}",
      name: "Pipeline",
      recreated: { previousId: "{00000000-0004-0000-0000-000000000000}" },
    },
    { id: "{00000000-0005-0000-0000-000000000000}", name: "Notes" },
  ],
} as const satisfies DemoWorkbook;

/** Another spreadsheet (a Google Sheets file) where one demo report is also placed. */
export const OTHER_WORKBOOK = {
  id: "1qZ8xRbWm3YtKpL0vN5sJd7cHf2aGe9uTo4iBnQwXyE",
  name: "Board Pack 2024",
  host: "GOOGLE_SHEETS",
  sheets: [
    { id: "0", name: "Sheet1" },
    { id: "184302216", name: "KPIs" },
  ],
} as const satisfies DemoWorkbook;

/** The instant the demo's timestamps are written against ("refreshed 3 hours ago" is 3 hours before this). */
export const DEMO_REFERENCE_DATE = "2024-10-15T09:00:00.000Z";
