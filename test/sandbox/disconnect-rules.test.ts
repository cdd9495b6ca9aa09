/**
 * Disconnect rules 1-10, against the sandbox over loopback HTTP. Each report of the seed belongs to
 * one test, so the tests do not disturb each other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/schema.js";
import {
  call,
  disconnectPath,
  makeReport,
  OTHER_WB,
  placement,
  reportPath,
  seedWith,
  WB,
} from "../support/sandbox-fixtures.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

const reports: Report[] = [
  // Rule 1
  makeReport(1, [
    placement("Sales", "A1", { id: "p-1a", sheetId: "s1", endResultCell: "C5" }),
    placement("Sales", "E1", { id: "p-1b", sheetId: "s1" }),
  ]),
  // Rule 2: recorded before ids (and before sheet ids), one with only a resultLocation.
  makeReport(2, [
    placement("Sales", "B2"),
    placement("Q1 Sales", "H2", { sheetName: undefined, anchorCell: undefined }),
  ]),
  // Rule 3
  makeReport(3, [placement("Q1 Sales", "C3", { sheetId: "s2" }), placement("Q1 Sales", "C30")]),
  // Rule 4
  makeReport(4, [placement("Sales", "B2")]),
  // Rule 5
  makeReport(5, [placement("Sales", "B2"), placement("Other", "D4", { sheetId: "s9" })]),
  // Rule 6
  makeReport(6, [placement("Data", "A1", { sheetId: "s-data" })]),
  // Rule 7: the tab was deleted and recreated; the placements store the old sheet id.
  makeReport(7, [
    placement("Pipeline", "A1", { sheetId: "old-id" }),
    placement("Pipeline", "H1", { sheetId: "old-id", id: "p-7" }),
  ]),
  // Rule 8
  makeReport(8, [
    placement("Sales", "B2", { sheetId: "s1", endResultCell: "D9" }),
    placement("Sales", "F2", { sheetId: "s1" }),
    placement("Costs", "B2", { sheetId: "s3" }),
    placement("Sales", "B2", { workbookId: OTHER_WB, sheetId: "s1" }),
  ]),
  // Rule 9
  makeReport(9, [placement("Sales", "B2", { id: "p-9" }), placement("Sales", "K2")]),
  // Rule 10
  makeReport(10, [placement("Sales", "B2", { id: "p-10", syncStatus: "CHANGED", queryChecksum: "old" })], {
    description: "Definition stays",
    sqlQuery: "select 1",
    pivotItems: { columns: ["a"], measures: ["m"], rows: ["r"], filters: [], measuresAxis: "columns" },
    folderId: 3,
    folderPath: [{ id: 3, name: "Finance" }],
    meta: { owner: "finance" },
  }),
  // Only the older top-level fields.
  makeReport(11, undefined, { externalWorkbookId: WB, resultLocation: "Summary!B28", endResultCell: "E40" }),
  // Silent case: an address matching two placements (no sheet id sent, stored ids differ).
  makeReport(12, [placement("Sales", "B2", { sheetId: "x1" }), placement("Sales", "B2", { sheetId: "x2" })]),
];

let sandbox: SpawnedSandbox;
beforeAll(async () => {
  sandbox = await spawnSandbox(seedWith(reports));
});
afterAll(async () => {
  await sandbox?.stop();
});

async function disconnect(reportId: number, body?: object | string) {
  const answer = await call(sandbox.url, disconnectPath(reportId), { method: "DELETE", body });
  expect(answer.status).toBe(200);
  return answer.json as Report;
}

async function current(reportId: number): Promise<Report> {
  const answer = await call(sandbox.url, reportPath(reportId));
  expect(answer.status).toBe(200);
  return answer.json as Report;
}

const spots = (r: Report) =>
  (r.externalWorkbookPlacements ?? []).map(
    (p) => `${p.workbookId}|${p.sheetName ?? p.resultLocation}|${p.anchorCell ?? ""}`,
  );

describe("disconnect rules 1-10", () => {
  it("1. The placement is addressed by placementId", async () => {
    const after = await disconnect(1, { placementId: "p-1b", externalWorkbookId: "not-this-one" });
    expect(after.externalWorkbookPlacements?.map((p) => p.id)).toEqual(["p-1a"]);
    expect(await current(1)).toEqual(after);
  });

  it("2. Otherwise, for placements recorded before ids existed, it is addressed by externalWorkbookId plus sheetName plus anchorCell", async () => {
    let after = await disconnect(2, { externalWorkbookId: WB, sheetName: "Sales", anchorCell: "B2" });
    expect(after.externalWorkbookPlacements).toHaveLength(1);
    // A placement that stores only resultLocation is addressed by the sheet and anchor it names.
    after = await disconnect(2, { externalWorkbookId: WB, sheetName: "Q1 Sales", anchorCell: "$h$2" });
    expect(after.externalWorkbookPlacements).toEqual([]);
  });

  it("3. Otherwise it is addressed by resultLocation that names both the sheet and the anchor, plus externalWorkbookId", async () => {
    // Without externalWorkbookId the location addresses nothing.
    let after = await disconnect(3, { resultLocation: "'Q1 Sales'!C3" });
    expect(after.externalWorkbookPlacements).toHaveLength(2);
    after = await disconnect(3, { externalWorkbookId: WB, resultLocation: "'Q1 Sales'!C3" });
    expect(spots(after)).toEqual([`${WB}|Q1 Sales|C30`]);
  });

  it("4. In forms 2 and 3 both sheet name and anchor are required: a target missing either matches nothing", async () => {
    const before = await current(4);
    for (const body of [
      { externalWorkbookId: WB, sheetName: "Sales" },
      { externalWorkbookId: WB, anchorCell: "B2" },
      { externalWorkbookId: WB, resultLocation: "B2" },
      { externalWorkbookId: WB, resultLocation: "Sales!" },
      { externalWorkbookId: WB },
    ]) {
      expect(await disconnect(4, body)).toEqual(before);
    }
    expect(await current(4)).toEqual(before);
  });

  it("5. sheetId is optional and never replaces sheetName: an address with an id only matches nothing", async () => {
    const before = await current(5);
    expect(await disconnect(5, { externalWorkbookId: WB, sheetId: "s9", anchorCell: "D4" })).toEqual(before);
    expect(await disconnect(5, { externalWorkbookId: WB, sheetId: "s9" })).toEqual(before);
    // A placement written before sheetId existed is still found by its sheet name.
    const after = await disconnect(5, {
      externalWorkbookId: WB,
      sheetName: "Sales",
      anchorCell: "B2",
      sheetId: "s1",
    });
    expect(spots(after)).toEqual([`${WB}|Other|D4`]);
  });

  it("6. When sheetId is sent, it narrows the target: a placement stored under a different sheet id is not matched, even when sheet name and anchor agree", async () => {
    const before = await current(6);
    const address = { externalWorkbookId: WB, sheetName: "Data", anchorCell: "A1" };
    expect(await disconnect(6, { ...address, sheetId: "s-other" })).toEqual(before);
    const after = await disconnect(6, { ...address, sheetId: "s-data" });
    expect(after.externalWorkbookPlacements).toEqual([]);
  });

  it("7. When the id may have changed (a tab deleted and recreated under the same name), address by placementId, or by sheet name without sheetId", async () => {
    const before = await current(7);
    // The recreated tab's new id narrows the old placement away.
    expect(
      await disconnect(7, {
        externalWorkbookId: WB,
        sheetName: "Pipeline",
        anchorCell: "A1",
        sheetId: "new-id",
      }),
    ).toEqual(before);
    let after = await disconnect(7, { externalWorkbookId: WB, sheetName: "Pipeline", anchorCell: "A1" });
    expect(after.externalWorkbookPlacements?.map((p) => p.id)).toEqual(["p-7"]);
    after = await disconnect(7, { placementId: "p-7" });
    expect(after.externalWorkbookPlacements).toEqual([]);
  });

  it("8. Only the one matching placement is removed: all other placements of the report, in the same workbook or in others, stay", async () => {
    const before = await current(8);
    const after = await disconnect(8, {
      externalWorkbookId: WB,
      sheetName: "Sales",
      anchorCell: "B2",
      sheetId: "s1",
    });
    expect(after.externalWorkbookPlacements).toEqual(before.externalWorkbookPlacements!.slice(1));
  });

  it("9. When the target matches no placement, the call succeeds with 200 and changes nothing; repeating the call is safe", async () => {
    const before = await current(9);
    expect(await disconnect(9, { placementId: "no-such-placement" })).toEqual(before);
    expect(await disconnect(9)).toEqual(before); // no body at all
    expect(await disconnect(9, "")).toEqual(before);
    expect(await disconnect(9, {})).toEqual(before);
    const once = await disconnect(9, { placementId: "p-9" });
    const twice = await disconnect(9, { placementId: "p-9" });
    expect(twice).toEqual(once);
    expect(spots(twice)).toEqual([`${WB}|Sales|K2`]);
  });

  it("10. The operation records nothing about the report's definition", async () => {
    const before = await current(10);
    const after = await disconnect(10, { placementId: "p-10" });
    const { externalWorkbookPlacements: _a, ...definitionBefore } = before;
    const { externalWorkbookPlacements: _b, ...definitionAfter } = after;
    expect(definitionAfter).toEqual(definitionBefore);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.externalWorkbookPlacements).toEqual([]);
  });
});

describe("where the spec is silent", () => {
  it("a report with only the older top-level fields loses them when its one placement is disconnected", async () => {
    const after = await disconnect(11, { externalWorkbookId: WB, resultLocation: "Summary!B28" });
    expect(after.externalWorkbookId).toBeNull();
    expect(after.resultLocation).toBeNull();
    expect(after.endResultCell).toBeNull();
    expect(after.name).toBe("Report 11");
  });

  it("an address that selects more than one placement removes none", async () => {
    const before = await current(12);
    expect(await disconnect(12, { externalWorkbookId: WB, sheetName: "Sales", anchorCell: "B2" })).toEqual(
      before,
    );
    // A sheet id narrows it to one.
    const after = await disconnect(12, {
      externalWorkbookId: WB,
      sheetName: "Sales",
      anchorCell: "B2",
      sheetId: "x2",
    });
    expect(after.externalWorkbookPlacements?.map((p) => p.sheetId)).toEqual(["x1"]);
  });

  it("unknown fields in the body are ignored, null fields are absent fields", async () => {
    const before = await current(9);
    expect(await disconnect(9, { placementId: null, sheetName: null, color: "red" })).toEqual(before);
  });
});
