/**
 * disconnect-flow.ts's decisions, each on its own: the placement under the cell (the plan), whether
 * a failed DELETE may have been applied, and the outcome's words from the service's answer or the
 * list reloaded. disconnect-flow.test.ts runs them together through both runners.
 */
import { describe, expect, it } from "vitest";
import {
  disconnectMayHaveApplied,
  disconnectOutcomeAfterReload,
  disconnectOutcomeMessage,
  PlatformError,
  placedReports,
  planDisconnectAt,
} from "../../src/core/index.js";
import { fullReport, placement, revenueInTwoWorkbooks } from "./fixtures.js";

const report = revenueInTwoWorkbooks();

describe("the disconnect plan shared by the pane and the host commands", () => {
  it("plans a disconnect of the placement under the cell", () => {
    const plan = planDisconnectAt(placedReports([report]), {
      workbookId: "wb-1",
      sheetId: "s1",
      sheetName: "Sales",
      cell: "C4",
    });
    expect(plan).toMatchObject({ kind: "disconnect", input: { placementId: "p1" }, label: "Sales!B2:F20" });
  });

  it("says there is nothing to disconnect on an empty cell", () => {
    const plan = planDisconnectAt(placedReports([report]), {
      workbookId: "wb-1",
      sheetId: "s1",
      sheetName: "Sales",
      cell: "H30",
    });
    expect(plan.kind).toBe("nothing-here");
    if (plan.kind === "nothing-here") expect(plan.message).toContain("No report is placed at Sales!H30");
  });

  it("names an empty cell on a sheet whose name needs quotes the way the placements are named", () => {
    const plan = planDisconnectAt(placedReports([report]), {
      workbookId: "wb-1",
      sheetId: "s9",
      sheetName: "Q1 Sales",
      cell: "$h$20",
    });
    expect(plan.kind === "nothing-here" && plan.message).toBe(
      "No report is placed at 'Q1 Sales'!H20. Select a cell inside a placed report, then try again.",
    );
  });

  it("tells what happened from the report the service returned", () => {
    const [p1] = placedReports([report]);
    const after = { ...report, externalWorkbookPlacements: report.externalWorkbookPlacements!.slice(1) };
    expect(disconnectOutcomeMessage(p1!, after)).toEqual({
      ok: true,
      message: "Disconnected Revenue by region from Sales!B2:F20; the cells keep their values.",
    });
    expect(disconnectOutcomeMessage(p1!, report).ok).toBe(false);
  });
});

describe("what a disconnect's answer proves", () => {
  const [p1] = placedReports([report]);
  const gone = { ...report, externalWorkbookPlacements: report.externalWorkbookPlacements!.slice(1) };

  it('"Disconnected" only when the answer is the report asked for, without the placement', () => {
    expect(disconnectOutcomeMessage(p1!, gone).ok).toBe(true);
    const another = fullReport({ id: 999, name: "Head count", externalWorkbookPlacements: [] });
    const outcome = disconnectOutcomeMessage(p1!, another);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/answered with another report \(Head count, id 999\)/);
    expect(outcome.message).not.toMatch(/^Disconnected/);
    const otherDeployment = { ...gone, deploymentId: 2 };
    expect(disconnectOutcomeMessage(p1!, otherDeployment).ok).toBe(false);
  });

  it("a time-out, a broken connection or a 5xx may have been applied; a refusal or a 503 was not", () => {
    const err = (kind: PlatformError["kind"], status: number | null = null) =>
      new PlatformError(kind, "x", { status });
    expect(disconnectMayHaveApplied(err("timeout"))).toBe(true);
    expect(disconnectMayHaveApplied(err("network"))).toBe(true);
    expect(disconnectMayHaveApplied(err("server", 502))).toBe(true);
    expect(disconnectMayHaveApplied(err("server", 503))).toBe(false);
    expect(disconnectMayHaveApplied(err("forbidden", 403))).toBe(false);
    expect(disconnectMayHaveApplied(err("bad-request", 307))).toBe(false);
  });

  it("after a time-out, the reloaded list says whether the disconnect was applied", () => {
    const timeout = new PlatformError("timeout", "The service did not answer within 30 s. Try again.");
    const applied = disconnectOutcomeAfterReload(p1!, timeout, [gone]);
    expect(applied).toEqual({
      ok: true,
      message:
        "The service did not answer within 30 s. The list was reloaded: Revenue by region is no longer at Sales!B2:F20, so the disconnect was applied; the cells keep their values.",
    });
    const notApplied = disconnectOutcomeAfterReload(p1!, timeout, [report]);
    expect(notApplied.ok).toBe(false);
    expect(notApplied.message).toMatch(/is still at Sales!B2:F20, so nothing was disconnected. Try again\.$/);
    expect(disconnectOutcomeAfterReload(p1!, timeout, null).message).toMatch(
      /may still have been applied, and the list could not be reloaded: press Reload list/,
    );
    // The report no longer listed at all: nothing of it is placed here any more.
    expect(disconnectOutcomeAfterReload(p1!, timeout, []).ok).toBe(true);
  });
});

describe("a placement on a renamed sheet is named by the sheet's current name", () => {
  // Stored as "Regional"; the sheet with id s2 is called "Regions" now.
  const renamed = fullReport({
    name: "Revenue by region",
    externalWorkbookPlacements: [
      placement({ id: "p9", sheetId: "s2", sheetName: "Regional", anchorCell: "B2", endResultCell: "G30" }),
    ],
  });
  const [p9] = placedReports([renamed]);
  const gone = { ...renamed, externalWorkbookPlacements: [] };
  const sheets = [
    { id: "s1", name: "Sales" },
    { id: "s2", name: "Regions" },
  ];

  it("in the message after a disconnect", () => {
    expect(disconnectOutcomeMessage(p9!, gone, sheets).message).toBe(
      "Disconnected Revenue by region from Regions!B2:G30; the cells keep their values.",
    );
    expect(disconnectOutcomeMessage(p9!, renamed, sheets).message).toContain(
      "kept Revenue by region at Regions!B2:G30",
    );
  });

  it("in the message after a lost answer and a reload", () => {
    const timeout = new PlatformError("timeout", "The service did not answer within 30 s. Try again.");
    expect(disconnectOutcomeAfterReload(p9!, timeout, [gone], sheets).message).toContain(
      "is no longer at Regions!B2:G30",
    );
  });

  it("in the plan of Disconnect report here, from the active sheet", () => {
    const plan = planDisconnectAt(placedReports([renamed]), {
      workbookId: "wb-1",
      sheetId: "s2",
      sheetName: "Regions",
      cell: "C3",
    });
    expect(plan).toMatchObject({ kind: "disconnect", label: "Regions!B2:G30" });
  });

  it("and by the stored name when the sheet list does not know the sheet", () => {
    expect(disconnectOutcomeMessage(p9!, gone, []).message).toContain("from Regional!B2:G30");
  });
});
