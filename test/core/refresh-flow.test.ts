/** What a refresh says when it is over, and a row's progress, in the core's words (every host's). */
import { describe, expect, it } from "vitest";
import {
  type NotRefreshed,
  placedReports,
  planRefresh,
  type RefreshOutcome,
  refreshProgressText,
  refreshSummary,
} from "../../src/core/index.js";
import { fullReport, placement } from "./fixtures.js";

const item = planRefresh(
  placedReports([
    fullReport({ externalWorkbookPlacements: [placement({ id: "p1", sheetId: "s1", sheetName: "Sales" })] }),
  ]),
  { kind: "all" },
  [{ id: "s1", name: "Sales" }],
).items[0]!;

const refreshed: RefreshOutcome = {
  status: "refreshed",
  item,
  report: item.placement.report,
  written: { top: 2, left: 2, bottom: 3, right: 3 },
  message: "Refreshed it.",
};
const failed = (reason: NotRefreshed["reason"]): RefreshOutcome => ({
  status: "not-refreshed",
  item,
  placement: item.placement,
  reason,
  message: `Not refreshed: ${reason}.`,
});

describe("refreshSummary", () => {
  it("one placement: its own outcome", () => {
    expect(refreshSummary([refreshed], [])).toEqual({ tone: "success", message: "Refreshed it." });
    expect(refreshSummary([failed("query-failed")], [])).toEqual({
      tone: "error",
      message: "Not refreshed: query-failed.",
    });
  });

  it("several: the count, how many were stopped and how many the list explains", () => {
    expect(refreshSummary([refreshed, refreshed], [])).toEqual({
      tone: "success",
      message: "Refreshed 2 of 2 placements.",
    });
    const skipped: NotRefreshed = { placement: item.placement, reason: "sheet-gone", message: "gone" };
    expect(refreshSummary([refreshed, failed("stopped")], [skipped])).toEqual({
      tone: "warning",
      message: "Refreshed 1 of 3 placements. Stopped: 1 not started. 1 not refreshed: the list says why.",
    });
    expect(refreshSummary([failed("no-access"), failed("write-failed")], []).tone).toBe("error");
  });
});

describe("refreshProgressText", () => {
  it("says what a row is doing, with rows grouped", () => {
    expect(refreshProgressText("writing", 12_000, 50_000)).toBe("Refreshing… writing 12,000 of 50,000 rows");
    expect(refreshProgressText("waiting")).toBe("Refreshing… the service is preparing the data");
    expect(refreshProgressText("recording")).toBe("Refreshing… recording");
    expect(refreshProgressText("loading")).toBe("Refreshing…");
  });
});
