/**
 * Refresh in the built Code.js, under the Apps Script fakes (test/support/apps-script.ts): cells
 * written with setValues in blocks and a flush each, the 6-minute execution split into several
 * `refreshPlacementsStep` calls that go on where the last stopped, the overwrite question, a
 * failure half way, Stop, and Google Sheets' 10 million cells.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { resultChecksum } from "../../../../src/core/result-checksum.js";
import type {
  RefreshStepAnswer,
  RefreshStepRequest,
} from "../../../../src/hosts/sheets/server/refresh-protocol.js";
import { callOk, loadAppsScript, type World } from "../../../support/apps-script.js";
import {
  API_KEY,
  type DataTenantOptions,
  dataTenant,
  expectedCells,
  expectNoSecret,
  requireBuiltCodeJs,
  SHEETS,
  SPREADSHEET_ID,
  TENANT,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);

const KEY = "p:plc-42-a";
const RUN = "run-0123456789";

function world(o: DataTenantOptions, sheets = SHEETS) {
  const tenant = dataTenant(o);
  const w = loadAppsScript({
    spreadsheetId: SPREADSHEET_ID,
    sheets: sheets.map((s) => ({ ...s })),
    activeSheet: "Q1 Sales",
    fetch: tenant.handler,
  });
  callOk(w, "saveSettings", { tenantUrl: TENANT, deploymentId: 7, apiKey: API_KEY });
  w.requests.length = 0;
  return { w, tenant };
}

const step = (w: World, request: RefreshStepRequest) =>
  callOk<RefreshStepAnswer>(w, "refreshPlacementsStep", request);

/** Calls step after step as the sidebar does, answering every question with `overwrite`. */
function runAll(w: World, keys: string[], overwrite = true) {
  const answers: RefreshStepAnswer[] = [];
  let request: RefreshStepRequest | null = { runId: RUN, keys };
  while (request) {
    const answer = step(w, request);
    answers.push(answer);
    request = answer.next ? { ...answer.next, ...(answer.question ? { overwrite } : {}) } : null;
  }
  return { answers, outcomes: answers.flatMap((a) => a.outcomes) };
}

describe("refreshPlacementsStep: one placement", () => {
  it("writes the result from the anchor: numbers as numbers, dates under a date format, the header bold, text as text; clears what the old extent no longer covers; records", () => {
    const { w, tenant } = world({ rows: 20 });
    // The old extent B2:F10 holds the old result; the new one is 21 rows by 3 columns.
    const sheet = w.global.SpreadsheetApp.getActiveSpreadsheet().getSheetByName("Q1 Sales");
    sheet.getRange("B2:F10").setValues(Array.from({ length: 9 }, () => ["old", 1, 2, 3, 4]));
    const { outcomes, answers } = runAll(w, [KEY]);
    expect(answers).toHaveLength(1);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      key: KEY,
      status: "refreshed",
      message: "Refreshed Revenue by Region at 'Q1 Sales'!B2:D22.",
      written: { top: 2, left: 2, bottom: 22, right: 4 },
    });
    const expected = expectedCells(20);
    expect(w.valuesOf("Q1 Sales", "B2:D22")).toEqual(expected);
    // Text that Sheets would read as a number, a formula or a boolean stays text.
    expect(w.valuesOf("Q1 Sales", "B3:B5")).toEqual([["00123"], ["=1+1"], ["TRUE"]]);
    // The old extent's columns E:F, no longer covered, are empty.
    expect(
      w
        .valuesOf("Q1 Sales", "E2:F10")
        .flat()
        .every((v) => v === ""),
    ).toBe(true);
    const cells = w.cells.get(123456789)!;
    expect(cells.weights.get("2,2")).toBe("bold");
    expect(cells.weights.get("3,2")).toBeUndefined();
    expect(cells.formats.get("3,3")).toMatch(/y/i);
    expect(cells.formats.get("3,4")).toBeUndefined();
    // getValues hands a date cell back as a Date, as Sheets does.
    expect(sheet.getRange("C3").getValues()[0][0]).toBeInstanceOf(Date);
    // One block, one flush; one record with the checksum of exactly what was written.
    expect(w.flushes).toBe(1);
    expect(tenant.recorded).toHaveLength(1);
    expect(tenant.recorded[0]).toMatchObject({ placementId: "plc-42-a", endResultCell: "D22" });
    expect(tenant.recorded[0]!.resultChecksum).toEqual(
      JSON.parse(JSON.stringify(resultChecksum(expected as never))),
    );
    expectNoSecret(answers);
  });
});

const LOAD_URL = "https://data.reporting.example/cube/7/cubejs-api/v1/load";
const loads = (w: World) => w.requests.filter((r) => r.url === LOAD_URL).length;

describe("refreshPlacementsStep: past one execution's 6 minutes", () => {
  // 40,000 rows by 3 columns: four blocks of about 1 MB. At 3 ms a cell a block takes about 100 s,
  // so the four cannot all be written within one execution.
  const ROWS = 40_000;

  it("stops before Apps Script would, and the next call goes on from the block where it stopped: the result is the one a single run writes", () => {
    const slow = world({ rows: ROWS });
    slow.w.writeMsPerCell = 3;
    const { answers, outcomes } = runAll(slow.w, [KEY]);
    expect(answers).toHaveLength(2);
    expect(answers[0]!.outcomes).toEqual([]);
    expect(answers[0]!.next?.keys).toEqual([KEY]);
    const resume = answers[0]!.next?.resume;
    expect(resume?.nextBlock).toBe(2);
    expect(resume?.checked).toBe(true);
    expect(resume?.newRows?.from).toBe(2);
    // Apps Script never had to end an execution; the data was loaded once and kept between the two.
    expect(slow.w.clock.timeouts).toEqual([]);
    expect(loads(slow.w)).toBe(1);
    expect(slow.w.flushes).toBe(4);

    const fast = world({ rows: ROWS });
    const single = runAll(fast.w, [KEY]);
    expect(single.answers).toHaveLength(1);
    expect(outcomes).toEqual(single.outcomes);
    expect(outcomes[0]).toMatchObject({ status: "refreshed", written: { bottom: ROWS + 2 } });
    const area = `B2:D${ROWS + 2}`;
    expect(slow.w.valuesOf("Q1 Sales", area)).toEqual(fast.w.valuesOf("Q1 Sales", area));
    expect(slow.tenant.recorded).toEqual(fast.tenant.recorded);
    expect(slow.tenant.recorded).toHaveLength(1);
  });

  it("says where it is while it runs (refreshStatus), from the user's cache", () => {
    const { w } = world({ rows: ROWS });
    w.writeMsPerCell = 3;
    const first = step(w, { runId: RUN, keys: [KEY] });
    expect(first.next).not.toBeNull();
    w.propertyAccess.length = 0;
    w.requests.length = 0;
    const status = callOk(w, "refreshStatus", RUN);
    expect(status).toMatchObject({ key: KEY, phase: "writing", totalRows: ROWS + 1 });
    // A poll reads no property and sends nothing.
    expect(w.propertyAccess).toEqual([]);
    expect(w.requests).toEqual([]);
    expect(callOk(w, "refreshStatus", "run-of-nobody-0")).toBeNull();
  });

  it("a placement that is not the execution's first, whose load runs out of the execution's time, is loaded again in the next one", () => {
    // Each load request takes 50 s; the service is still preparing the second placement's data
    // for four of them ("Continue wait"): more than is left once the first placement is done.
    const { w, tenant } = world({ rows: 30, second: true, loadMs: 50_000, waitsAfterFirst: 4 });
    w.writeMsPerCell = 500;
    const { answers, outcomes } = runAll(w, [KEY, "p:plc-42-b"]);
    expect(answers).toHaveLength(2);
    expect(answers[0]!.outcomes.map((o) => o.key)).toEqual([KEY]);
    expect(answers[0]!.next).toEqual({ runId: RUN, keys: ["p:plc-42-b"], resume: null });
    expect(outcomes.map((o) => o.status)).toEqual(["refreshed", "refreshed"]);
    expect(tenant.recorded.map((r) => r.placementId)).toEqual(["plc-42-a", "plc-42-b"]);
    expect(w.clock.timeouts).toEqual([]);
  });
});

describe("refreshPlacementsStep: the overwrite question", () => {
  function occupied() {
    const made = world({ rows: 20 });
    const sheet = made.w.global.SpreadsheetApp.getActiveSpreadsheet().getSheetByName("Q1 Sales");
    // The new result (B2:D22) grows past the old extent (B2:F10): B15 is the user's own cell.
    sheet.getRange("B15").setValues([["my note"]]);
    made.w.writes.length = 0;
    return made;
  }

  it("is asked before anything is written; Cancel leaves every cell as it was and records nothing", () => {
    const { w, tenant } = occupied();
    const asked = step(w, { runId: RUN, keys: [KEY] });
    expect(asked.outcomes).toEqual([]);
    expect(asked.question).toBe(
      "Revenue by Region has grown: its new result also covers 'Q1 Sales'!B11:D22, and B15 is not empty. Overwrite those cells?",
    );
    expect(w.writes).toEqual([]);
    const answered = step(w, { ...asked.next!, overwrite: false });
    expect(answered.next).toBeNull();
    expect(answered.outcomes).toEqual([
      expect.objectContaining({ key: KEY, status: "not-refreshed", reason: "would-overwrite" }),
    ]);
    expect(w.writes).toEqual([]);
    expect(w.valuesOf("Q1 Sales", "B15")).toEqual([["my note"]]);
    expect(tenant.recorded).toEqual([]);
    // The data was loaded once: the answer's call used what the question's call kept.
    expect(loads(w)).toBe(1);
  });

  it("Overwrite writes the new result over the user's cell, with the data loaded once", () => {
    const { w, tenant } = occupied();
    const { outcomes } = runAll(w, [KEY], true);
    expect(outcomes).toEqual([expect.objectContaining({ status: "refreshed" })]);
    expect(w.valuesOf("Q1 Sales", "B15")).toEqual([["status 12"]]);
    expect(tenant.recorded).toHaveLength(1);
    expect(loads(w)).toBe(1);
  });
});

describe("refreshPlacementsStep: failures", () => {
  it("a write that fails half way records nothing and says which rows are already new", () => {
    const { w, tenant } = world({ rows: 40_000 });
    w.failSetValuesAt = 3;
    const { outcomes } = runAll(w, [KEY]);
    expect(outcomes).toHaveLength(1);
    const o = outcomes[0]!;
    expect(o).toMatchObject({ status: "not-refreshed", reason: "write-failed" });
    if (o.status !== "not-refreshed") throw new Error("refreshed");
    const firstTwo = w.writes.reduce((n, x) => n + x.cells / 3, 0);
    expect(o.newRows).toEqual({ from: 2, to: 1 + firstTwo });
    expect(o.message).toContain(`Rows 2-${1 + firstTwo} already hold the new result`);
    expect(o.message).toContain("Service Spreadsheets failed while accessing document");
    expect(o.message).toContain("Nothing was recorded");
    expect(tenant.recorded).toEqual([]);
  });

  it("a result that would take the spreadsheet past Google Sheets' 10 million cells: Not refreshed, with the figures, nothing written", () => {
    const { w, tenant } = world({ rows: 2_000 }, [
      { id: 0, name: "Summary", cell: "A1", rows: 383_000, columns: 26 } as never,
      { id: 123456789, name: "Q1 Sales", cell: "C5" },
    ]);
    const { outcomes } = runAll(w, [KEY]);
    const o = outcomes[0]!;
    expect(o).toMatchObject({ status: "not-refreshed", reason: "write-failed" });
    expect(o.message).toContain("Google Sheets holds at most 10,000,000 cells in a spreadsheet");
    expect(o.message).toContain('"Q1 Sales" to grow to 2,002 rows by 26 columns: 10,010,052 cells in all');
    expect(o.message).toContain("Nothing was written");
    expect(w.writes).toEqual([]);
    expect(tenant.recorded).toEqual([]);
  });

  it("an old extent reaching past a grid made smaller since is cleared within the grid", () => {
    const { w } = world({ rows: 2 }, [
      { id: 0, name: "Summary", cell: "A1" },
      { id: 123456789, name: "Q1 Sales", cell: "C5", rows: 8, columns: 26 } as never,
    ]);
    const sheet = w.global.SpreadsheetApp.getActiveSpreadsheet().getSheetByName("Q1 Sales");
    sheet.getRange("B2:F8").setValues(Array.from({ length: 7 }, () => ["old", 1, 2, 3, 4]));
    const { outcomes } = runAll(w, [KEY]);
    expect(outcomes[0]).toMatchObject({ status: "refreshed", written: { bottom: 4, right: 4 } });
    expect(
      w
        .valuesOf("Q1 Sales", "B5:F8")
        .flat()
        .every((v) => v === ""),
    ).toBe(true);
    expect(
      w
        .valuesOf("Q1 Sales", "E2:F4")
        .flat()
        .every((v) => v === ""),
    ).toBe(true);
  });

  it("a placement the service no longer lists is Not refreshed with the reason; the others go on", () => {
    const { w } = world({ rows: 5 });
    const { outcomes } = runAll(w, ["p:gone", KEY]);
    expect(outcomes.map((o) => [o.key, o.status])).toEqual([
      ["p:gone", "not-refreshed"],
      [KEY, "refreshed"],
    ]);
    expect(outcomes[0]!.message).toMatch(/no longer lists this placement.*Reload list/);
  });

  it("refuses a malformed request with a clear error, and sends nothing", () => {
    const { w } = world({ rows: 5 });
    const answer = w.global.refreshPlacementsStep({ runId: "x", keys: [KEY] });
    expect(answer.ok).toBe(false);
    expect(answer.error.message).toMatch(/run id is malformed/);
    const resumed = w.global.refreshPlacementsStep({
      runId: RUN,
      keys: [KEY],
      resume: { key: "p:other", nextBlock: 1, pieces: 1, checked: true, newRows: null },
    });
    expect(resumed.error.message).toMatch(/where it stopped is malformed/);
    expect(w.requests).toEqual([]);
  });
});

describe("refreshPlacementsStep: Stop", () => {
  it("before a placement starts: Not refreshed (stopped) for each, nothing loaded or written", () => {
    const { w, tenant } = world({ rows: 5, second: true });
    callOk(w, "stopRefresh", RUN);
    const { outcomes } = runAll(w, [KEY, "p:plc-42-b"]);
    expect(outcomes.map((o) => o.status === "not-refreshed" && o.reason)).toEqual(["stopped", "stopped"]);
    expect(outcomes[0]!.message).toBe("Not refreshed: stopped before Revenue by Region was written.");
    expect(loads(w)).toBe(0);
    expect(w.writes).toEqual([]);
    expect(tenant.recorded).toEqual([]);
  });

  it("while a placement is being written: it is finished and recorded; the ones after it are not started", () => {
    const { w, tenant } = world({ rows: 40_000, second: true });
    w.writeMsPerCell = 3;
    const first = step(w, { runId: RUN, keys: [KEY, "p:plc-42-b"] });
    expect(first.next?.resume?.nextBlock).toBe(2);
    callOk(w, "stopRefresh", RUN);
    const second = step(w, first.next!);
    expect(second.next).toBeNull();
    expect(second.outcomes.map((o) => (o.status === "not-refreshed" ? o.reason : o.status))).toEqual([
      "refreshed",
      "stopped",
    ]);
    expect(tenant.recorded.map((r) => r.placementId)).toEqual(["plc-42-a"]);
    expect(w.valuesOf("Summary", "A1")).toEqual([[""]]);
  });

  it("stopRefresh and refreshStatus refuse a malformed run id", () => {
    const { w } = world({ rows: 5 });
    expect(w.global.stopRefresh("../x").ok).toBe(false);
    expect(w.global.refreshStatus(42).ok).toBe(false);
  });
});

describe("the Apps Script fakes a refresh runs under", () => {
  it("a range outside the sheet's grid cannot be addressed; growing past 10 million cells throws Sheets' error", () => {
    const w = loadAppsScript({ sheets: [{ id: 0, name: "Big", rows: 384_000, columns: 26 } as never] });
    const sheet = w.global.SpreadsheetApp.getActiveSpreadsheet().getSheetByName("Big");
    expect(() => sheet.getRange(384_001, 1, 1, 1)).toThrow(/outside the dimensions of the sheet/);
    expect(() => sheet.insertRowsAfter(384_000, 1_000)).toThrow(
      "This action would increase the number of cells in the workbook above the limit of 10000000 cells.",
    );
    sheet.insertRowsAfter(384_000, 100);
    expect(sheet.getMaxRows()).toBe(384_100);
  });

  it("setValues takes time on the execution's clock: a write past 6 minutes ends the execution", () => {
    const w = loadAppsScript();
    w.writeMsPerCell = 1_000;
    const sheet = w.global.SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
    const write = () =>
      w.clock.run("write", () =>
        sheet.getRange(1, 1, 400, 1).setValues(Array.from({ length: 400 }, () => [1])),
      );
    expect(write).toThrow("Exceeded maximum execution time");
    expect(() => sheet.getRange("A1:B2").setValues([[1, 2]])).toThrow(/number of rows in the data/);
  });

  it("the user's cache keeps at most 1,000 items and 100 KB a value", () => {
    const w = loadAppsScript();
    const values: Record<string, string> = {};
    for (let i = 0; i < 1_001; i++) values[`k${i}`] = "v";
    w.cache.putAll(values, 600);
    expect(w.cache.entries.size).toBe(1_000);
    expect(() => w.cache.put("big", "x".repeat(100 * 1024 + 1))).toThrow("Argument too large: value");
  });
});
