import type { LoadAnswer } from "../../src/core/data-api.js";
import type { Report, ReportPlacement } from "../../src/core/schema.js";

/** A full Report as platform-api.md draws it: every field present. */
export function fullReport(overrides: Partial<Report> = {}): Report {
  return {
    id: 101,
    publicId: "AbC123dEf456",
    deploymentId: 1,
    userId: 7,
    user: { id: 7, email: "ann@example.com", firstName: "Ann", picture: null },
    name: "Revenue by region",
    refreshedByUser: {
      id: 7,
      email: "ann@example.com",
      firstName: null,
      picture: "https://img.example/ann.png",
    },
    createdAt: "2026-01-02",
    updatedAt: "2026-11-20T10:15:00Z",
    type: "REPORT",
    canEdit: true,
    canManage: null,
    createdBy: 7,
    currentQueryChecksum: "q2",
    description: null,
    endResultCell: "F20",
    externalWorkbookId: "wb-1",
    externalWorkbookPlacements: [
      placement({ id: "p1", sheetId: "s1", sheetName: "Sales", anchorCell: "B2", endResultCell: "F20" }),
      placement({ id: "p2", sheetId: "s2", sheetName: "Summary", anchorCell: "A1", endResultCell: "C5" }),
    ],
    folderId: 3,
    folderPath: [{ id: 3, name: "Finance" }],
    jsonQuery: "{}",
    meta: { any: "thing" },
    pivotItems: {
      columns: ["region"],
      measures: ["revenue"],
      rows: [],
      filters: [],
      measuresAxis: "columns",
      measuresPosition: null,
    },
    refreshedBy: 7,
    resultLocation: "Sales!B2",
    rolesWithAccess: [{ id: 1, name: "Analysts", actions: ["ReportRead", "WorkbookRead"] }],
    source: "EXCEL",
    sqlQuery: "select 1",
    title: "Revenue",
    version: 3,
    workbookId: null,
    ...overrides,
  };
}

export function placement(overrides: Partial<ReportPlacement> = {}): ReportPlacement {
  const sheet = overrides.sheetName ?? "Sales";
  const anchor = overrides.anchorCell ?? "B2";
  return {
    workbookId: "wb-1",
    resultLocation: `'${sheet.replace(/'/g, "''")}'!${anchor}`,
    host: "EXCEL",
    placedAt: "2026-11-01T09:00:00Z",
    placedByUserId: 7,
    queryChecksum: "q2",
    refreshedAt: "2026-11-21T09:00:00Z",
    refreshedByUserId: 7,
    syncStatus: "UP_TO_DATE",
    workbookName: "Q3 Review.xlsx",
    ...overrides,
  };
}

/**
 * "Revenue by region", placed twice: at B2:F20 of "Sales" (sheet s1) in this workbook (wb-1), and at
 * B2 of a "Sales" in another workbook (wb-2). The disconnect and the placement view's tests share it.
 */
export function revenueInTwoWorkbooks(): Report {
  return fullReport({
    name: "Revenue by region",
    externalWorkbookPlacements: [
      placement({ id: "p1", sheetId: "s1", sheetName: "Sales", anchorCell: "B2", endResultCell: "F20" }),
      placement({ id: "p2", workbookId: "wb-2", sheetName: "Sales", anchorCell: "B2" }),
    ],
  });
}

/**
 * A report on one placement at B2 of `sheet`, whose query is `rows` orders by region and city, and
 * the data API's answer to it (every value distinct enough to catch a row or column out of place).
 */
export function ordersByCity(
  rows: number,
  sheet: { id: string; name: string },
  placementId: string,
): { query: Record<string, unknown>; report: Report; answer: LoadAnswer } {
  const query = { dimensions: ["orders.region", "orders.city"], measures: ["orders.count"], limit: rows };
  const report = fullReport({
    id: 7,
    jsonQuery: JSON.stringify(query),
    pivotItems: null,
    externalWorkbookPlacements: [
      placement({
        id: placementId,
        sheetId: sheet.id,
        sheetName: sheet.name,
        anchorCell: "B2",
        endResultCell: "B2",
      }),
    ],
  });
  const answer: LoadAnswer = {
    query,
    data: Array.from({ length: rows }, (_, i) => ({
      "orders.region": `Region ${i % 7}`,
      "orders.city": `City number ${i}`,
      "orders.count": String(i * 3),
    })),
    annotation: {
      measures: { "orders.count": { title: "Count", shortTitle: "Count", type: "number" } },
      dimensions: {
        "orders.region": { title: "Region", shortTitle: "Region", type: "string" },
        "orders.city": { title: "City", shortTitle: "City", type: "string" },
      },
      segments: {},
      timeDimensions: {},
    },
    lastRefreshTime: null,
    total: rows,
  };
  return { query, report, answer };
}
