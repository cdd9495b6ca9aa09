/**
 * A refresh composed from the core and the sandbox alone, over real sockets: the data token, the
 * load (with "Continue wait" and pages), the grid, the checksum and the record; then the core's
 * refresh flow over cells held in memory. The client's reading of the data rules
 * (docs/platform-api.md) and the sandbox's serving of them, written apart, agree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CellBlock,
  createDataClient,
  createPlatformClient,
  type DataLoadProgress,
  editedRows,
  placedReports,
  planRefresh,
  type Report,
  reportGrid,
  resultChecksum,
  runRefresh,
  splitByWorkbook,
} from "../../src/core/index.js";
import { placementsOf } from "../../src/core/placements.js";
import { fetchTransport } from "../../src/core/transport.js";
import { DEMO_API_KEY, DEMO_EUROPE_KEY } from "../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../src/sandbox/demo-workbook.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

let sandbox: SpawnedSandbox;
beforeAll(async () => {
  sandbox = await spawnSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

function clients(key = DEMO_API_KEY) {
  const transport = fetchTransport(fetch);
  const platform = createPlatformClient({ transport, baseUrl: sandbox.url, token: key });
  const data = createDataClient({ platform, transport, secrets: [key] });
  return { platform, data };
}

async function report(id: number, key = DEMO_API_KEY): Promise<Report> {
  return clients(key).platform.getReport(id < 200 ? 1 : 2, id);
}

describe("a refresh from the core and the sandbox alone", () => {
  it("token, load, grid, checksum, record: the placement is up to date with the checksum of what was written", async () => {
    const { platform, data } = clients();
    const revenue = await report(101);
    const stale = placementsOf(revenue).find((p) => p.id === "plc-101-q1")!;
    expect(stale.syncStatus).toBe("CHANGED");

    const answer = await data.loadReport(revenue);
    const grid = reportGrid(revenue, answer);
    // The pivot fits its placement's range exactly (B18:F24: 5 columns, 7 rows).
    expect([grid.columns, grid.rows]).toEqual([5, 7]);
    const checksum = resultChecksum(grid.values);

    const recorded = await platform.recordRefresh(1, 101, {
      placementId: "plc-101-q1",
      resultChecksum: checksum,
      endResultCell: "F24",
    });
    const after = placementsOf(recorded).find((p) => p.id === "plc-101-q1")!;
    expect(after.syncStatus).toBe("UP_TO_DATE");
    expect(after.resultChecksum).toEqual(checksum);
    expect(Date.parse(after.refreshedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);

    // Read back unchanged: no hand edits. One cell typed over: its row is named.
    expect(editedRows(after.resultChecksum, grid.values)).toEqual({ status: "unchanged" });
    const edited = grid.values.map((row) => [...row]);
    edited[3]![2] = 42;
    expect(editedRows(after.resultChecksum, edited)).toEqual({
      status: "edited",
      rows: [{ from: 3, to: 3 }],
    });
  });

  it("every placed demo report's data fits its placement's range, so a refresh rewrites exactly those cells", async () => {
    const { platform, data } = clients();
    const reports = [
      ...(await platform.listReports(1, { externalWorkbookId: DEMO_WORKBOOK.id })),
      ...(await platform.listReports(2, { externalWorkbookId: DEMO_WORKBOOK.id })),
    ];
    for (const r of reports) {
      const grid = reportGrid(r, await data.loadReport(r));
      for (const p of placementsOf(r).filter((x) => x.workbookId === DEMO_WORKBOOK.id)) {
        const [anchor, end] = [p.anchorCell ?? p.resultLocation.split("!").pop()!, p.endResultCell!];
        const cols = end.replace(/\d+/g, "").charCodeAt(0) - anchor.replace(/\d+/g, "").charCodeAt(0) + 1;
        const rows = Number(end.replace(/\D+/g, "")) - Number(anchor.replace(/\D+/g, "")) + 1;
        expect([r.name, grid.columns, grid.rows]).toEqual([r.name, cols, rows]);
      }
    }
  });

  it("Continue wait: the slow demo report is asked again twice, then answers", async () => {
    const { data } = clients();
    const slow = await report(111);
    const progress: DataLoadProgress[] = [];
    const answer = await data.loadReport(slow, { onProgress: (p) => progress.push(p) });
    expect(answer.data.length).toBeGreaterThan(0);
    expect(Math.max(...progress.map((p) => p.waits))).toBe(2);
  });

  it("the big demo report: 50,000 rows, laid out as 50,001 x 8 cells", async () => {
    const { data } = clients();
    const big = await report(113);
    const grid = reportGrid(big, await data.loadReport(big));
    expect([grid.rows, grid.columns]).toEqual([50_001, 8]);
    // 26 rows a chunk: at most 2,000 chunks (the platform's limit).
    expect(resultChecksum(grid.values).chunks).toHaveLength(Math.ceil(50_001 / 26));
  });

  it("row-level security: the Europe key's token loads fewer rows of the same report", async () => {
    const all = await clients().data.loadReport(await report(106));
    const europe = await clients(DEMO_EUROPE_KEY).data.loadReport(await report(106, DEMO_EUROPE_KEY));
    expect(europe.data.length).toBeGreaterThan(0);
    expect(europe.data.length).toBeLessThan(all.data.length);
  });

  it("the core's refresh flow, end to end: Refresh report over cells in memory, then the service says Up to date", async () => {
    const { platform, data } = clients();
    const reports = await platform.listReports(1, { externalWorkbookId: DEMO_WORKBOOK.id });
    const { here } = splitByWorkbook(placedReports(reports), DEMO_WORKBOOK.id);
    const sheets = DEMO_WORKBOOK.sheets.map((s) => ({ id: s.id, name: s.name }));
    const plan = planRefresh(here, { kind: "report", reportKey: "1:103" }, sheets);
    expect(plan.items).toHaveLength(1);
    const written: CellBlock[] = [];
    const outcomes = await runRefresh(plan.items, {
      load: (item, onProgress, signal) => data.loadReport(item.placement.report, { onProgress, signal }),
      // Same extent as before: nothing newly covered, so nothing is read.
      read: async () => {
        throw new Error("nothing should be read");
      },
      write: async (block) => {
        written.push(block);
      },
      record: (item, input) => platform.recordRefresh(1, item.placement.report.id, input),
      confirmOverwrite: async () => false,
    });
    expect(outcomes[0]?.status).toBe("refreshed");
    expect(written[0]?.topLeft).toBe("H2");
    expect(written[0]?.values).toHaveLength(11);
    const now = await platform.getReport(1, 103);
    expect(placementsOf(now)[0]?.syncStatus).toBe("UP_TO_DATE");
  });
});
