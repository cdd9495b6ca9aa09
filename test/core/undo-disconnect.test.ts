/**
 * Undo of a disconnect (undo-disconnect.ts): the removed placement re-created exactly with
 * connect-workbook, or the reason it is not, with the async and the sync runner. The service is the
 * sandbox's own connect-workbook and disconnect rules (the service's side, not the client's).
 */
import { describe, expect, it } from "vitest";
import {
  type ConnectWorkbookInput,
  PlatformError,
  placedReports,
  type RemovedPlacement,
  RemovedPlacementSchema,
  type Report,
  removedPlacement,
  restoreInput,
  runUndoDisconnect,
  runUndoDisconnectSync,
  type UndoOutcome,
} from "../../src/core/index.js";
import { withoutPlacement } from "../../src/sandbox/placement-rules.js";
import { connectPlacement } from "../../src/sandbox/placing.js";
import { fullReport, placement } from "./fixtures.js";

const CHECKSUM = {
  v: 1,
  chunks: [{ from: 0, hash: "0123456789abcdef0123456789abcdef" }],
  payload: "r=19;c=5",
};

function workbook() {
  return [
    fullReport({
      id: 2,
      name: "Revenue by region",
      currentQueryChecksum: "q2",
      externalWorkbookPlacements: [
        placement({
          id: "p1",
          sheetId: "s1",
          sheetName: "Sales",
          anchorCell: "B2",
          resultLocation: "Sales!B2",
          endResultCell: "F20",
          resultChecksum: CHECKSUM,
        }),
        placement({
          id: "p2",
          sheetId: "s1",
          sheetName: "Sales",
          anchorCell: "H2",
          resultLocation: "Sales!H2",
        }),
      ],
    }),
    fullReport({
      id: 3,
      publicId: "AAAAAAAAAAA3",
      name: "Pipeline",
      externalWorkbookPlacements: [],
    }),
  ];
}

/** A service over `reports`: the sandbox's rules, each call counted; `fail` replaces one call's answer. */
function service(reports: Report[]) {
  const calls: { list: number; connect: ConnectWorkbookInput[] } = { list: 0, connect: [] };
  let n = 0;
  const state = {
    reports,
    calls,
    failList: null as unknown,
    failConnect: null as unknown,
    /** The connect is applied, then its answer lost. */
    loseConnectAnswer: null as unknown,
    list(): Report[] {
      calls.list += 1;
      if (state.failList) throw state.failList;
      return state.reports.filter((r) =>
        (r.externalWorkbookPlacements ?? []).some((p) => p.workbookId === "wb-1"),
      );
    },
    connect(deploymentId: number, reportId: number, input: ConnectWorkbookInput): Report {
      calls.connect.push(input);
      if (state.failConnect) throw state.failConnect;
      const report = state.reports.find((r) => r.id === reportId && r.deploymentId === deploymentId);
      if (!report) throw new PlatformError("not-found", "The report was not found (404).", { status: 404 });
      const after = connectPlacement(report, input, {
        now: "2026-11-27T10:00:00.000Z",
        userId: 7,
        newId: () => `plc-new-${++n}`,
      });
      state.reports = state.reports.map((r) => (r === report ? after : r));
      if (state.loseConnectAnswer) throw state.loseConnectAnswer;
      return after;
    },
  };
  return state;
}

/** Disconnects p1 with the sandbox's rules and gives what Undo keeps. */
function disconnectP1(reports: Report[]): { removed: RemovedPlacement; reports: Report[] } {
  const p1 = placedReports(reports).find((p) => p.id === "p1")!;
  const removed = removedPlacement(p1);
  const after = reports.map((r) => (r.id === 2 ? withoutPlacement(r, { placementId: "p1" }) : r));
  return { removed, reports: after };
}

const runners = {
  async: (
    removed: RemovedPlacement,
    s: ReturnType<typeof service>,
    sheets = [] as { id: string; name: string }[],
  ) =>
    runUndoDisconnect(
      removed,
      { listReports: async () => s.list(), connect: async (d, r, input) => s.connect(d, r, input) },
      sheets,
    ),
  sync: async (
    removed: RemovedPlacement,
    s: ReturnType<typeof service>,
    sheets = [] as { id: string; name: string }[],
  ) =>
    runUndoDisconnectSync(
      removed,
      { listReports: () => s.list(), connect: (d, r, input) => s.connect(d, r, input) },
      sheets,
    ),
};

describe.each(Object.entries(runners))("Undo of a disconnect (%s runner)", (_name, run) => {
  it("re-creates exactly the removed placement: address, sheet id, extent, host, workbook name and checksum", async () => {
    const { removed, reports } = disconnectP1(workbook());
    const s = service(reports);
    const outcome: UndoOutcome = await run(removed, s);
    expect(outcome).toMatchObject({ ok: true, canRetry: false });
    expect(outcome.message).toBe("Undone: Revenue by region is placed at Sales!B2:F20 again.");
    expect(s.calls.connect).toEqual([
      {
        externalWorkbookId: "wb-1",
        resultLocation: "Sales!B2",
        sheetId: "s1",
        sheetName: "Sales",
        anchorCell: "B2",
        endResultCell: "F20",
        workbookName: "Q3 Review.xlsx",
        host: "EXCEL",
        resultChecksum: CHECKSUM,
      },
    ]);
    const back = outcome.report!.externalWorkbookPlacements!.find((p) => p.anchorCell === "B2")!;
    const { id, placedAt, refreshedAt, ...rest } = back;
    const { id: _i, placedAt: _p, refreshedAt: _r, ...before } = removed.placement;
    expect(rest).toEqual(before);
    expect(outcome.placementKey).toBe(`p:${id}`);
    // One look at the list before the request; none after a clear answer.
    expect(s.calls.list).toBe(1);
  });

  it("names a renamed sheet as it is called now", async () => {
    const { removed, reports } = disconnectP1(workbook());
    const outcome = await run(removed, service(reports), [{ id: "s1", name: "Sales 2025" }]);
    expect(outcome.message).toBe("Undone: Revenue by region is placed at 'Sales 2025'!B2:F20 again.");
  });

  it("says a placement that was out of date is recorded as written now", async () => {
    const reports = workbook();
    reports[0]!.externalWorkbookPlacements![0]!.syncStatus = "CHANGED";
    const { removed, reports: after } = disconnectP1(reports);
    const outcome = await run(removed, service(after));
    expect(outcome.ok).toBe(true);
    expect(outcome.message).toContain("It was out of date before the disconnect");
  });

  it("restores nothing when the placement is there again (restored already, or placed again)", async () => {
    const { removed, reports } = disconnectP1(workbook());
    const s = service(reports);
    expect((await run(removed, s)).ok).toBe(true);
    const again = await run(removed, s);
    expect(again).toMatchObject({ ok: false, canRetry: false });
    expect(again.message).toContain("is placed at Sales!B2:F20 again already");
    expect(s.calls.connect).toHaveLength(1);
  });

  it("restores nothing over another report that now covers its cells", async () => {
    const { removed, reports } = disconnectP1(workbook());
    const s = service(reports);
    s.connect(1, 3, { externalWorkbookId: "wb-1", resultLocation: "Sales!A1", endResultCell: "C5" });
    s.calls.connect.length = 0;
    const outcome = await run(removed, s);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain("Pipeline is placed at Sales!A1:C5 now");
    expect(s.calls.connect).toEqual([]);
  });

  it("restores exactly that placement when the list changed elsewhere meanwhile", async () => {
    const { removed, reports } = disconnectP1(workbook());
    const s = service(reports);
    // Someone else disconnected p2 and placed the report at another spot since.
    s.reports = s.reports.map((r) => (r.id === 2 ? withoutPlacement(r, { placementId: "p2" }) : r));
    s.connect(1, 2, { externalWorkbookId: "wb-1", resultLocation: "Regions!D4" });
    const outcome = await run(removed, s);
    expect(outcome.ok).toBe(true);
    const spots = outcome.report!.externalWorkbookPlacements!.map((p) => p.resultLocation);
    expect(spots.sort()).toEqual(["Regions!D4", "Sales!B2"]);
  });

  it("says the report is gone (404), and that there is no access (403), without offering Undo again", async () => {
    const { removed, reports } = disconnectP1(workbook());
    const gone = service(reports.filter((r) => r.id !== 2));
    const a = await run(removed, gone);
    expect(a).toMatchObject({ ok: false, canRetry: false });
    expect(a.message).toContain("Revenue by region is no longer in the deployment");

    const refused = service(reports);
    refused.failConnect = new PlatformError("forbidden", "The API key may not change this report (403).", {
      status: 403,
    });
    const b = await run(removed, refused);
    expect(b).toMatchObject({ ok: false, canRetry: false });
    expect(b.message).toBe(
      "Not undone: no access to place Revenue by region at Sales!B2:F20 again. The API key may not change this report (403).",
    );
  });

  it("judges a lost answer from the list read again: applied, or not (then Undo may be tried again)", async () => {
    const lost = new PlatformError("timeout", "The service did not answer in time. Try again.");
    const { removed, reports } = disconnectP1(workbook());
    const applied = service(reports);
    applied.loseConnectAnswer = lost;
    const a = await run(removed, applied);
    expect(a.ok).toBe(true);
    expect(a.message).toBe(
      "The service did not answer in time. The list was read again: Undone: Revenue by region is placed at Sales!B2:F20 again.",
    );
    expect(a.reports).not.toBeNull();

    const notApplied = service(reports);
    notApplied.failConnect = lost;
    const b = await run(removed, notApplied);
    expect(b).toMatchObject({ ok: false, canRetry: true });
    expect(b.message).toContain("so nothing was restored. Try Undo again.");
  });

  it("sends nothing when the list cannot be read first", async () => {
    const { removed, reports } = disconnectP1(workbook());
    const s = service(reports);
    s.failList = new PlatformError("network", "The service could not be reached. Try again.");
    const outcome = await run(removed, s);
    expect(outcome).toMatchObject({ ok: false, canRetry: true });
    expect(outcome.message).toContain("Nothing was changed: try Undo again.");
    expect(s.calls.connect).toEqual([]);
  });
});

describe("the record Undo keeps", () => {
  it("is the placement's own fields, and reads back through its schema (as Apps Script's cache keeps it)", () => {
    const p1 = placedReports(workbook()).find((p) => p.id === "p1")!;
    const removed = removedPlacement(p1);
    expect(removed).toMatchObject({ deploymentId: 1, reportId: 2, reportName: "Revenue by region" });
    expect("report" in removed.placement).toBe(false);
    expect(RemovedPlacementSchema.parse(JSON.parse(JSON.stringify(removed)))).toEqual(removed);
    expect(restoreInput(removed)).not.toHaveProperty("placementId");
  });
});
