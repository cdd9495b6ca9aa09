/**
 * Refresh for the hosts whose pane calls the service itself (src/hosts/direct-refresh.ts): the
 * answer's parse and the grid's layout, both long on the page's one thread for a large result, run
 * in different tasks, so input that arrives meanwhile is handled between them.
 */
import { describe, expect, it } from "vitest";
import { type LoadAnswer, placedReports, planRefresh, type Report } from "../../src/core/index.js";
import { refreshWithGateway } from "../../src/hosts/direct-refresh.js";
import { fullReport, placement } from "../core/fixtures.js";

const SHEET = { id: "{S1}", name: "Sales" };

const answer: LoadAnswer = {
  query: { dimensions: ["orders.region"], measures: ["orders.count"] },
  data: [
    { "orders.region": "North", "orders.count": "3" },
    { "orders.region": "South", "orders.count": "5" },
  ],
  annotation: {
    measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" } },
    dimensions: { "orders.region": { title: "Orders Region", shortTitle: "Region", type: "string" } },
    segments: {},
    timeDimensions: {},
  },
  lastRefreshTime: null,
  total: 2,
};

describe("refresh over the direct gateway", () => {
  it("lays the answer out in a task after the one that loaded it: a task queued meanwhile runs first", async () => {
    const report = fullReport({
      id: 7,
      jsonQuery: JSON.stringify(answer.query),
      pivotItems: null,
      externalWorkbookPlacements: [
        placement({
          id: "p7",
          sheetId: SHEET.id,
          sheetName: SHEET.name,
          anchorCell: "B2",
          endResultCell: "C4",
        }),
      ],
    });
    const plan = planRefresh(placedReports([report]), { kind: "all" }, [SHEET]);
    const order: string[] = [];
    const outcomes = await refreshWithGateway(
      plan.items,
      { confirmOverwrite: async () => true },
      {
        async loadReportData() {
          // Input arriving as the load ends: a task queued now.
          setTimeout(() => order.push("queued task"), 0);
          return answer;
        },
        recordRefresh: async () => report as Report,
      },
      {
        async read() {
          order.push("cells");
          return [[]];
        },
        async write() {
          order.push("cells");
        },
      },
    );
    expect(outcomes[0]?.status).toBe("refreshed");
    expect(order[0]).toBe("queued task");
  });
});
