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
  dataRow,
  dataTenant,
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

/** The grid the refresh should write: a header row, then each data row. */
function expectedCells(rows: number) {
  const out: unknown[][] = [["Orders Status", "Orders Created at", "Orders Count"]];
  for (let i = 0; i < rows; i++) {
    const r = dataRow(i);
    const serial =
      (Date.parse(r["orders.createdAt.day"]!.slice(0, 10)) - Date.UTC(1899, 11, 30)) / 86_400_000;
    out.push([r["orders.status"], serial, Number(r["orders.count"])]);
  }
  return out;
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
