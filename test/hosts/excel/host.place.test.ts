/**
 * "Place a report here" in the Excel host (src/hosts/excel/host.ts, cells.ts): the workbook's id
 * property is made sure of before anything is placed (added when the file lost it or never saved
 * it), a property holding another id stops the place, and the place flow runs after it.
 */
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../../src/core/errors.js";
import { planPlace } from "../../../src/core/place-flow.js";
import type { Report } from "../../../src/core/schema.js";
import type { DirectGateway } from "../../../src/hosts/direct-gateway.js";
import { WORKBOOK_ID_PROPERTY } from "../../../src/hosts/excel/host.js";
import { fullReport } from "../../core/fixtures.js";
import { mockedExcelHost } from "../../support/excel-mock.js";

const chosen: Report = fullReport({ id: 42, name: "Orders by region", externalWorkbookPlacements: [] });

function setup(stored: string | undefined) {
  const loads: number[] = [];
  const gateway = {
    async listWorkbookReports() {
      return { reports: [], problems: [] };
    },
    async loadReportData(report: Report) {
      loads.push(report.id);
      // Stops the flow before any cell is written: what is checked here is what comes first.
      throw new PlatformError("bad-request", "The query is not valid.");
    },
  } as unknown as DirectGateway;
  const { mock, host } = mockedExcelHost(
    { storedWorkbookId: stored },
    { gateway, newWorkbookId: () => "new-id" },
  );
  return { mock, host, loads };
}

async function placeAtActiveCell(host: ReturnType<typeof setup>["host"]) {
  const context = await host.activeContext();
  const plan = planPlace(chosen, { ...context, host: "EXCEL" }, []);
  if (plan.kind !== "ready") throw new Error(plan.message);
  return host.placeReport!(plan.item, { confirmOverwrite: async () => true });
}

describe("Place a report here in Excel", () => {
  it("adds the workbook's id property when the file does not hold it, then runs the place flow", async () => {
    const { mock, host, loads } = setup(undefined);
    await host.activeContext();
    // The file lost the property since (or never saved it: a read-only file).
    mock.setStoredWorkbookId(null);
    const writes = mock.state.customWrites.length;
    const outcome = await placeAtActiveCell(host);
    expect(mock.state.customWrites.slice(writes)).toEqual([{ key: WORKBOOK_ID_PROPERTY, value: "new-id" }]);
    expect(mock.storedWorkbookId()).toBe("new-id");
    expect(loads).toEqual([42]);
    expect(outcome).toMatchObject({ status: "not-placed", reason: "query-failed" });
  });

  it("writes nothing when the property is there", async () => {
    const { mock, host, loads } = setup("kept-id");
    await placeAtActiveCell(host);
    expect(mock.state.customWrites).toEqual([]);
    expect(loads).toEqual([42]);
  });

  it("a property holding another id than the pane's stops the place before anything is loaded", async () => {
    const { mock, host, loads } = setup("kept-id");
    await host.activeContext();
    mock.setStoredWorkbookId("another-id");
    const outcome = await placeAtActiveCell(host);
    expect(outcome).toMatchObject({ status: "not-placed", reason: "no-workbook-id" });
    expect(outcome.message).toContain("Press Reload list");
    expect(loads).toEqual([]);
  });
});
