/** What a refresh says when it is over, and a row's progress, in the core's words (every host's). */
import { describe, expect, it } from "vitest";
import {
  type NotRefreshed,
  placedReports,
  planRefresh,
  type RefreshOutcome,
  refreshProgressText,
  refreshSummary,
  runRefreshSync,
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

describe("runRefreshSync (Apps Script)", () => {
  const answer = {
    query: {},
    data: [{ "orders.status": "open" }],
    annotation: {
      measures: {},
      dimensions: { "orders.status": { title: "Status", shortTitle: "Status", type: "string" } },
      segments: {},
      timeDimensions: {},
    },
    lastRefreshTime: null,
    total: 1,
  };
  // The placement grows past its old extent (B2:B2 is one cell; the result is two rows): the row
  // below is read, and it is not empty.
  const grown = planRefresh(
    placedReports([
      fullReport({
        externalWorkbookPlacements: [
          placement({ id: "p1", sheetId: "s1", sheetName: "Sales", anchorCell: "B2", endResultCell: "B2" }),
        ],
      }),
    ]),
    { kind: "all" },
    [{ id: "s1", name: "Sales" }],
  ).items[0]!;

  it("hands the overwrite question to a function, and tells progress", () => {
    const asked: string[] = [];
    const progress: string[] = [];
    const outcomes = runRefreshSync(
      [grown],
      {
        load: () => answer as never,
        read: () => [["someone's"]],
        write: () => {
          throw new Error("nothing is written after Cancel");
        },
        record: () => {
          throw new Error("nothing is recorded after Cancel");
        },
        overwrite: (_item, question) => {
          asked.push(question);
          return false;
        },
      },
      { onProgress: (p) => progress.push(p.phase) },
    );
    expect(asked).toEqual([expect.stringMatching(/has grown: .*B3 is not empty\. Overwrite those cells\?$/)]);
    expect(outcomes[0]).toMatchObject({ status: "not-refreshed", reason: "would-overwrite" });
    expect(progress).toEqual(["loading"]);
  });

  it("a boolean answers the question as before; writing progress counts rows", () => {
    const progress: [string, number | undefined][] = [];
    const outcomes = runRefreshSync(
      [grown],
      {
        load: () => answer as never,
        read: () => [["someone's"]],
        write: () => {},
        record: (item) => item.placement.report,
        overwrite: true,
      },
      { onProgress: (p) => progress.push([p.phase, p.rows]) },
    );
    expect(outcomes[0]?.status).toBe("refreshed");
    expect(progress).toEqual([
      ["loading", undefined],
      ["writing", 0],
      ["recording", undefined],
    ]);
  });
});
