/**
 * The add-on menu's "Disconnect report here" on a tab renamed since the report was placed: the
 * toast names the sheet as it is called now (the same sheet id), never the name the service stored.
 * Drives the built dist/sheets/Code.js, as main.test.ts does.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  callOk,
  DIST,
  type FetchAnswer,
  type FetchedRequest,
  loadAppsScript,
} from "../../../support/apps-script.js";

const SPREADSHEET_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789renamed";
const TENANT = "https://acme.reporting.example";
const owner = { id: 11, email: "ann.lee@example.com", firstName: "Ann", picture: null };

/** Placed on "Regional" B2:G30; the sheet with id 555 has since been renamed "Regions". */
const PLACED = {
  id: "plc-9",
  workbookId: SPREADSHEET_ID,
  resultLocation: "Regional!B2",
  endResultCell: "G30",
  sheetId: "555",
  sheetName: "Regional",
  anchorCell: "B2",
};

function report(placements: Record<string, unknown>[]) {
  return {
    id: 42,
    publicId: "rep000000042",
    deploymentId: 7,
    userId: 11,
    user: owner,
    name: "Revenue by Region",
    refreshedByUser: owner,
    createdAt: "2024-09-01T10:00:00Z",
    updatedAt: "2024-10-01T10:00:00Z",
    type: "REPORT",
    externalWorkbookPlacements: placements,
  };
}

function json(status: number, body: unknown): FetchAnswer {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

/** Lists the report; a disconnect answers the report without the placement, or `deleteStatus`. */
function tenant(deleteStatus?: number) {
  let disconnected = false;
  return (request: FetchedRequest): FetchAnswer => {
    const path = new URL(request.url).pathname;
    if (request.method === "GET" && path === "/api/v1/deployments/7/reports") {
      const items = disconnected ? [report([])] : [report([PLACED])];
      return json(200, { items, pageInfo: { hasNextPage: false } });
    }
    if (request.method === "DELETE" && path === "/api/v1/deployments/7/reports/42/connect-workbook") {
      disconnected = true;
      return deleteStatus ? json(deleteStatus, { message: "Bad gateway" }) : json(200, report([]));
    }
    return json(404, { message: `no route ${request.method} ${path}` });
  };
}

function onRegions(deleteStatus?: number) {
  const world = loadAppsScript({
    spreadsheetId: SPREADSHEET_ID,
    sheets: [
      { id: 0, name: "Summary", cell: "A1" },
      { id: 555, name: "Regions", cell: "C3" },
    ],
    activeSheet: "Regions",
    fetch: tenant(deleteStatus),
  });
  callOk(world, "saveSettings", { tenantUrl: TENANT, deploymentId: 7, apiKey: "sk-live-renamed01" });
  world.requests.length = 0;
  return world;
}

beforeAll(() => {
  if (!existsSync(join(DIST, "Code.js"))) {
    throw new Error("dist/sheets/Code.js is missing: run `npm run build:sheets` first (npm test does).");
  }
});

describe("Disconnect report here (add-on menu) on a renamed tab", () => {
  it("toasts the outcome with the sheet's current name", () => {
    const world = onRegions();
    world.global.disconnectReportHere();
    expect(world.toasts.map((t) => t.message)).toEqual([
      "Disconnected Revenue by Region from Regions!B2:G30; the cells keep their values. To undo it: Extensions > Reporting Platform > Undo disconnect.",
    ]);
  });

  it("names the sheet as it is now when the answer was lost and the list reloaded", () => {
    const world = onRegions(502);
    world.global.disconnectReportHere();
    const message = world.toasts[0]?.message ?? "";
    expect(message).toContain("is no longer at Regions!B2:G30");
    expect(message).not.toContain("Regional");
  });
});
