import { beforeAll, describe, expect, it } from "vitest";
import { callOk, type World } from "../../../support/apps-script.js";
import {
  API_KEY,
  configured,
  EDITS_KEY,
  json,
  requireBuiltCodeJs,
  SPREADSHEET_ID,
  TENANT,
  tenant,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);

describe("Disconnect report here (add-on menu)", () => {
  it("on a placed cell: lists this spreadsheet's reports, sends the DELETE for that placement, and toasts the outcome", () => {
    const world = configured();
    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    expect(world.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${TENANT}/api/v1/deployments/7/reports?externalWorkbookId=${SPREADSHEET_ID}&first=100`,
      `DELETE ${TENANT}/api/v1/deployments/7/reports/42/connect-workbook`,
    ]);
    const del = world.requests[1]!;
    expect(del.headers.Authorization).toBe(`Bearer ${API_KEY}`);
    expect(del.contentType).toBe("application/json");
    // Disconnect rule 1: a placement with an id is addressed by it alone.
    expect(JSON.parse(del.payload!)).toEqual({ placementId: "plc-42-a" });
    expect(world.toasts).toEqual([
      {
        title: "Reporting Platform",
        message: expect.stringMatching(
          /^Disconnected Revenue by Region from .*Q1 Sales.*B2.*; the cells keep their values\. To undo it: Extensions > Reporting Platform > Undo disconnect\.$/,
        ),
      },
    ]);
  });

  it("an older placement without an id is addressed by spreadsheet, sheet name and anchor, narrowed by the sheet id", () => {
    const world = configured();
    world.select("Summary", "C4");
    world.global.disconnectReportHere();
    const del = world.requests[1]!;
    expect(del.url).toBe(`${TENANT}/api/v1/deployments/7/reports/43/connect-workbook`);
    expect(JSON.parse(del.payload!)).toEqual({
      externalWorkbookId: SPREADSHEET_ID,
      sheetName: "Summary",
      anchorCell: "A1",
      sheetId: "0",
    });
    expect(world.toasts[0]?.message).toMatch(/^Disconnected Pipeline from/);
  });

  it("on a cell without a placement: says so and sends no DELETE", () => {
    const world = configured();
    world.select("Q1 Sales", "H20");
    world.global.disconnectReportHere();
    expect(world.requests.map((r) => r.method)).toEqual(["GET"]);
    expect(world.toasts).toEqual([
      {
        title: "Reporting Platform",
        message:
          "No report is placed at 'Q1 Sales'!H20. Select a cell inside a placed report, then try again.",
      },
    ]);
  });

  it("a 401 says the API key was refused and what to do, without the key", () => {
    const world = configured(tenant({ list: json(401, { message: `invalid token ${API_KEY}` }) }));
    world.global.disconnectReportHere();
    const message = world.toasts[0]?.message ?? "";
    expect(message).toMatch(/^The API key was refused \(401\).*Paste a new one in Settings\./);
    expect(message).not.toContain(API_KEY);
    expect(world.requests).toHaveLength(1);
  });

  it("a 403 on the DELETE says the key may be scoped to other deployments, naming the deployment", () => {
    const world = configured(tenant({ disconnect: json(403, { message: "Forbidden" }) }));
    world.select("Q1 Sales", "B2");
    world.global.disconnectReportHere();
    expect(world.toasts[0]?.message).toMatch(
      /^The API key is valid but not allowed to disconnect the report \(403\)\. This key may be scoped to other deployments: deployment 7 is not among them\./,
    );
  });
});

describe("the workbook's revision (what the sidebar's poll compares)", () => {
  const revision = (world: World) => callOk<{ revision: string }>(world, "getActiveContext").revision;

  it("stays the same while only the selection moves, and refreshPane answers the same one", () => {
    const world = configured();
    const first = revision(world);
    world.select("Summary", "B3");
    world.select("Q1 Sales", "Z99");
    expect(revision(world)).toBe(first);
    expect(callOk<{ revision: string }>(world, "refreshPane").revision).toBe(first);
  });

  it("changes when a sheet is added, renamed, moved or removed", () => {
    const world = configured();
    const seen = [revision(world)];
    world.sheets.push({ id: 555, name: "Q2 Sales" });
    seen.push(revision(world));
    world.sheets[2]!.name = "Q2 Sales (draft)";
    seen.push(revision(world));
    world.sheets.unshift(world.sheets.pop()!);
    seen.push(revision(world));
    world.sheets.shift();
    seen.push(revision(world));
    // Each step changed it; back to the same tabs in the same order, the same revision.
    for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toBe(seen[i - 1]);
    expect(new Set(seen.slice(0, 4)).size).toBe(4);
    expect(seen[4]).toBe(seen[0]);
  });

  it("the menu's disconnect bumps it (per user and spreadsheet); a cell without a placement does not", () => {
    const world = configured();
    const before = revision(world);
    world.select("Q1 Sales", "H20");
    world.global.disconnectReportHere();
    expect(revision(world)).toBe(before);

    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    const after = revision(world);
    expect(after).not.toBe(before);
    expect(world.properties.user.get(EDITS_KEY)).toBe("1");
    expect(world.properties.document.size).toBe(0);
    expect(world.properties.script.size).toBe(0);

    world.select("Summary", "C4");
    world.global.disconnectReportHere();
    expect(revision(world)).not.toBe(after);
    expect(world.properties.user.get(EDITS_KEY)).toBe("2");
  });

  it("a DELETE that failed still bumps it (the list may have changed); a list that failed does not", () => {
    const refused = configured(tenant({ disconnect: json(403, { message: "Forbidden" }) }));
    const before = revision(refused);
    refused.select("Q1 Sales", "B2");
    refused.global.disconnectReportHere();
    expect(revision(refused)).not.toBe(before);

    const unauthorized = configured(tenant({ list: json(401, { message: "invalid token" }) }));
    const unchanged = revision(unauthorized);
    unauthorized.global.disconnectReportHere();
    expect(revision(unauthorized)).toBe(unchanged);
  });

  it("the sidebar's own disconnect leaves it alone (the pane updates its list from the answer)", () => {
    const world = configured();
    const before = revision(world);
    callOk(world, "disconnectPlacement", 7, 42, { placementId: "plc-42-a" });
    expect(revision(world)).toBe(before);
  });
});
