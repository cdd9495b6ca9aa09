/**
 * "Place a report here" and the hand-edit reads in the built Code.js, under the Apps Script fakes
 * (test/support/apps-script.ts): `listDeploymentReports`, `placeReportStep` (the core's place flow
 * over the sheet: cells written as a refresh writes them, then connect-workbook, the overwrite
 * question asked across calls, the 6-minute limit split over several calls) and `readCells` (values
 * that compare equal to the recorded checksum, dates included, and a hand edit that does not). The
 * service's side of connect-workbook is the sandbox's own (src/sandbox/placing.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { editedRows, resultChecksum } from "../../../../src/core/result-checksum.js";
import type { Report } from "../../../../src/core/schema.js";
import type {
  PlaceStepAnswer,
  PlaceStepRequest,
} from "../../../../src/hosts/sheets/server/place-protocol.js";
import { callError, callOk, loadAppsScript, type World } from "../../../support/apps-script.js";
import {
  API_KEY,
  expectedCells,
  expectNoSecret,
  placingTenant,
  requireBuiltCodeJs,
  SHEETS,
  SPREADSHEET_ID,
  TENANT,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);

const RUN = "place-0123456789";
const LOAD_URL = "https://data.reporting.example/cube/7/cubejs-api/v1/load";

function world(rows: number, options: { spreadsheetTimeZone?: string } = {}) {
  const tenant = placingTenant(rows);
  const w = loadAppsScript({
    spreadsheetId: SPREADSHEET_ID,
    sheets: SHEETS.map((s) => ({ ...s })),
    activeSheet: "Q1 Sales",
    fetch: tenant.handler,
    ...options,
  });
  callOk(w, "saveSettings", { tenantUrl: TENANT, deploymentId: 7, apiKey: API_KEY });
  w.select("Q1 Sales", "H2");
  w.requests.length = 0;
  return { w, tenant };
}

const request = (cell = "H2"): PlaceStepRequest => ({
  runId: RUN,
  deploymentId: 7,
  reportId: 42,
  target: { sheetId: "123456789", sheetName: "Q1 Sales", cell },
});

const step = (w: World, r: PlaceStepRequest) => callOk<PlaceStepAnswer>(w, "placeReportStep", r);

/** Calls step after step as the sidebar does, answering every question with `overwrite`. */
function placeAll(w: World, overwrite = true, first = request()) {
  const answers: PlaceStepAnswer[] = [];
  let r: PlaceStepRequest | null = first;
  while (r) {
    const answer = step(w, r);
    answers.push(answer);
    r = answer.next ? { ...answer.next, ...(answer.question ? { overwrite } : {}) } : null;
  }
  return { answers, outcome: answers[answers.length - 1]!.outcome };
}

const loads = (w: World) => w.requests.filter((r) => r.url === LOAD_URL).length;
const sheetOf = (w: World) => w.global.SpreadsheetApp.getActiveSpreadsheet().getSheetByName("Q1 Sales");

describe("listDeploymentReports", () => {
  it("lists the deployment's reports, every one, not only this spreadsheet's", () => {
    const { w } = world(5);
    const reports = callOk<Report[]>(w, "listDeploymentReports");
    expect(reports.map((r) => r.name)).toEqual(["Revenue by Region"]);
    expect(w.requests).toHaveLength(1);
    const url = new URL(w.requests[0]!.url);
    expect(url.pathname).toBe("/api/v1/deployments/7/reports");
    expect(url.searchParams.has("externalWorkbookId")).toBe(false);
    expectNoSecret(reports);
  });
});

describe("placeReportStep", () => {
  it("writes the result at the active cell, then records connect-workbook with the address, the extent, the host, the workbook's name and the checksum", () => {
    const { w, tenant } = world(20);
    const { answers, outcome } = placeAll(w);
    expect(answers).toHaveLength(1);
    expect(outcome).toMatchObject({
      status: "placed",
      message: "Placed Revenue by Region at 'Q1 Sales'!H2:J22.",
      written: { top: 2, left: 8, bottom: 22, right: 10 },
      placement: { anchorCell: "H2", endResultCell: "J22", syncStatus: "UP_TO_DATE" },
    });
    const expected = expectedCells(20);
    expect(w.valuesOf("Q1 Sales", "H2:J22")).toEqual(expected);
    expect(tenant.connected).toEqual([
      {
        externalWorkbookId: SPREADSHEET_ID,
        resultLocation: "'Q1 Sales'!H2:J22",
        sheetId: "123456789",
        sheetName: "Q1 Sales",
        anchorCell: "H2",
        endResultCell: "J22",
        workbookName: "Budget 2025",
        host: "GOOGLE_SHEETS",
        resultChecksum: JSON.parse(JSON.stringify(resultChecksum(expected as never))),
      },
    ]);
    expectNoSecret(answers);
  });

  it("asks before overwriting cells that are not empty: nothing written until the answer; Cancel writes and records nothing", () => {
    const { w, tenant } = world(20);
    sheetOf(w)
      .getRange("I5")
      .setValues([["mine"]]);
    const writesBefore = w.writes.length;
    const first = step(w, request());
    expect(first.outcome).toBeNull();
    expect(first.question).toMatch(/I5/);
    expect(first.next?.resume).toMatchObject({ nextBlock: 0, checked: false });
    expect(w.writes).toHaveLength(writesBefore);
    expect(tenant.connected).toEqual([]);

    const cancelled = step(w, { ...first.next!, overwrite: false });
    expect(cancelled.outcome).toMatchObject({ status: "not-placed", reason: "would-overwrite" });
    expect(cancelled.outcome?.message).toMatch(/^Not placed:/);
    expect(w.writes).toHaveLength(writesBefore);
    expect(w.valuesOf("Q1 Sales", "I5")).toEqual([["mine"]]);
    expect(tenant.connected).toEqual([]);
  });

  it("Overwrite writes with the data loaded for the question (loaded once) and records", () => {
    const { w, tenant } = world(20);
    sheetOf(w)
      .getRange("I5")
      .setValues([["mine"]]);
    const { answers, outcome } = placeAll(w, true);
    expect(answers).toHaveLength(2);
    expect(outcome).toMatchObject({ status: "placed" });
    expect(loads(w)).toBe(1);
    expect(w.valuesOf("Q1 Sales", "H2:J22")).toEqual(expectedCells(20));
    expect(tenant.connected).toHaveLength(1);
  });

  it("Cancel before writing begins (stop in the request, or stopRefresh's mark for the run): nothing loaded, written or recorded", () => {
    const { w, tenant } = world(20);
    sheetOf(w)
      .getRange("I5")
      .setValues([["mine"]]);
    const first = step(w, request());
    expect(first.question).not.toBeNull();
    callOk(w, "stopRefresh", RUN);
    const writes = w.writes.length;
    for (const answer of [
      step(w, { ...first.next!, overwrite: true }),
      step(w, { ...request(), runId: "place-other-0001", stop: true }),
    ]) {
      expect(answer).toEqual({
        outcome: {
          status: "not-placed",
          reason: "stopped",
          message: "Not placed: cancelled before Revenue by Region was written.",
        },
        question: null,
        next: null,
      });
    }
    expect(loads(w)).toBe(1);
    expect(w.writes).toHaveLength(writes);
    expect(tenant.connected).toEqual([]);
  });

  it("refuses a cell under a placement of this spreadsheet, before anything is loaded or written", () => {
    const { w, tenant } = world(5);
    const error = callError(w, "placeReportStep", request("C5"));
    expect(error.kind).toBe("bad-request");
    expect(error.message).toMatch(/already placed under 'Q1 Sales'!C5/);
    expect(loads(w)).toBe(0);
    expect(tenant.connected).toEqual([]);
  });

  it("refuses a malformed request with a clear error", () => {
    const { w } = world(5);
    for (const bad of [
      null,
      { ...request(), runId: "x" },
      { ...request(), reportId: -1 },
      { ...request(), target: { sheetId: 1, sheetName: "Q1 Sales", cell: "H2" } },
      { ...request(), target: { sheetId: null, sheetName: "Q1 Sales", cell: "not a cell" } },
    ]) {
      const error = callError(w, "placeReportStep", bad);
      expect(error.kind).toBe("bad-request");
      expect(error.message).toMatch(/^The report could not be placed \(/);
    }
  });
});

describe("placeReportStep: past one execution's 6 minutes", () => {
  // 40,000 rows by 3 columns: four blocks of about 1 MB; at 3 ms a cell they need two executions.
  const ROWS = 40_000;

  it("stops before Apps Script would, and the next call goes on from the block where it stopped: the same cells and one record as a single run", () => {
    const slow = world(ROWS);
    slow.w.writeMsPerCell = 3;
    const { answers, outcome } = placeAll(slow.w);
    expect(answers.length).toBeGreaterThanOrEqual(2);
    expect(answers[0]!.outcome).toBeNull();
    expect(answers[0]!.question).toBeNull();
    expect(answers[0]!.next?.resume).toMatchObject({ checked: true, newRows: { from: 2 } });
    expect(answers[0]!.next!.resume!.nextBlock).toBeGreaterThan(0);
    // Apps Script never had to end an execution; the data was loaded once and kept between them.
    expect(slow.w.clock.timeouts).toEqual([]);
    expect(loads(slow.w)).toBe(1);

    const fast = world(ROWS);
    const single = placeAll(fast.w);
    expect(single.answers).toHaveLength(1);
    expect(outcome).toEqual(single.outcome);
    expect(outcome).toMatchObject({ status: "placed", written: { bottom: ROWS + 2 } });
    const area = `H2:J${ROWS + 2}`;
    expect(slow.w.valuesOf("Q1 Sales", area)).toEqual(fast.w.valuesOf("Q1 Sales", area));
    expect(slow.tenant.connected).toEqual(fast.tenant.connected);
    expect(slow.tenant.connected).toHaveLength(1);
  });

  it("says clearly that it could not go on when Google dropped the kept data between two calls; nothing is recorded", () => {
    const { w, tenant } = world(ROWS);
    w.writeMsPerCell = 3;
    const first = step(w, request());
    expect(first.next?.resume?.nextBlock).toBeGreaterThan(0);
    for (const key of [...w.cache.entries.keys()]) w.cache.remove(key);
    const second = step(w, first.next!);
    expect(second.next).toBeNull();
    expect(second.outcome).toMatchObject({ status: "not-placed", reason: "write-failed" });
    expect(second.outcome?.message).toMatch(
      /^Not placed: writing Revenue by Region went on past one run of Google Sheets' 6 minutes, and Google no longer kept its data for the next one\. Rows 2-\d+ were written; the rest was not\. Nothing was recorded: clear those rows, or place it again\.$/,
    );
    expect(tenant.connected).toEqual([]);
    expect(w.clock.timeouts).toEqual([]);
  });
});

describe("readCells (hand edits)", () => {
  /** Places 20 rows at H2 and answers the recorded checksum. */
  function placed(options: { spreadsheetTimeZone?: string } = {}) {
    const made = world(20, options);
    const { outcome } = placeAll(made.w);
    expect(outcome?.status).toBe("placed");
    return { ...made, checksum: made.tenant.connected[0]!.resultChecksum };
  }
  const read = (w: World, range = "H2:J22") =>
    callOk<unknown[][]>(w, "readCells", { sheet: { id: "123456789", name: "Q1 Sales" }, range });

  for (const zone of ["Etc/UTC", "America/New_York", "Asia/Kolkata"]) {
    it(`the cells just placed read back equal to the recorded checksum, dates as serial numbers (spreadsheet time zone ${zone})`, () => {
      const { w, checksum } = placed({ spreadsheetTimeZone: zone });
      // The fake's getValues gives a Date for a date cell, as Sheets does; none crosses google.script.run.
      expect(sheetOf(w).getRange("I3").getValues()[0][0]).toBeInstanceOf(Date);
      const values = read(w);
      expect(values[1]![1]).toBe(expectedCells(1)[1]![1]);
      expect(values.flat().every((v) => ["string", "number", "boolean"].includes(typeof v))).toBe(true);
      expect(editedRows(checksum, values as never)).toEqual({ status: "unchanged" });
    });
  }

  it("a placement just refreshed reads back equal to the checksum its refresh recorded", () => {
    const { w, tenant } = world(20, { spreadsheetTimeZone: "Australia/Sydney" });
    const answer = callOk<{ outcomes: { status: string }[] }>(w, "refreshPlacementsStep", {
      runId: RUN,
      keys: ["p:plc-42-a"],
    });
    expect(answer.outcomes[0]?.status).toBe("refreshed");
    expect(editedRows(tenant.recorded[0]!.resultChecksum, read(w, "B2:D22") as never)).toEqual({
      status: "unchanged",
    });
  });

  it("a hand edit in the sheet shows as the rows edited", () => {
    const { w, checksum } = placed();
    sheetOf(w)
      .getRange("J6:J7")
      .setValues([[999], [998]]);
    expect(editedRows(checksum, read(w) as never)).toEqual({
      status: "edited",
      rows: [{ from: 4, to: 5 }],
    });
  });

  it("refuses more than 50,000 cells a call, and a malformed range, with a clear error; reads no settings and sends nothing", () => {
    const { w } = world(5);
    w.propertyAccess.length = 0;
    const tooMany = callError(w, "readCells", {
      sheet: { id: "123456789", name: "Q1 Sales" },
      range: "A1:C16667",
    });
    expect(tooMany.kind).toBe("bad-request");
    expect(tooMany.message).toMatch(/50,001 cells at once; the add-on reads at most 50,000 a call/);
    expect(callError(w, "readCells", { sheet: { id: 5, name: "Q1 Sales" }, range: "A1" }).kind).toBe(
      "bad-request",
    );
    expect(callError(w, "readCells", { sheet: { id: null, name: "Q1 Sales" }, range: "nope" }).kind).toBe(
      "bad-request",
    );
    expect(w.propertyAccess).toEqual([]);
    expect(w.requests).toEqual([]);
  });
});
