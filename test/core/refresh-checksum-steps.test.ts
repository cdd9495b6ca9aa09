/**
 * The refresh flow hashes the result block by block as it writes it (resultChecksumSteps), so that
 * no one step hashes the whole grid, and the checksum it records is byte for byte the one of the
 * whole grid; and a result prepared elsewhere (a worker: PreparedResult) is written from its blocks,
 * its values asked block by block, with the checksum it brings.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  type GridCell,
  type PreparedResult,
  placedReports,
  planRefresh,
  type RefreshInput,
  type Report,
  reportGrid,
  resultChecksum,
  runRefresh,
  runRefreshSync,
} from "../../src/core/index.js";
import { editedRows, editedRowsOfChecksum, resultChecksumSteps } from "../../src/core/result-checksum.js";
import { hashes } from "../support/hash-count.js";
import { ordersByCity } from "./fixtures.js";

// Every SHA-256 the checksum computes, counted (test/support/hash-count.ts).
vi.mock("@noble/hashes/sha2.js", async (original) =>
  (await import("../support/hash-count.js")).countingSha2(
    await original<typeof import("@noble/hashes/sha2.js")>(),
  ),
);

function gridOf(rows: number, columns: number): GridCell[][] {
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: columns }, (_, c): GridCell => {
      const k = (r * 31 + c * 7) % 5;
      return k === 0
        ? null
        : k === 1
          ? r * c + 0.5
          : k === 2
            ? `t${r}-${c} é`
            : k === 3
              ? r % 2 === 0
              : 45292 + r;
    }),
  );
}

describe("resultChecksumSteps", () => {
  it("gives the whole grid's checksum, whatever the steps (chunks of one row and of several)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_500 }),
        fc.array(fc.integer({ min: 0, max: 4_600 }), { maxLength: 6 }),
        (rows, cuts) => {
          const values = gridOf(rows, 3);
          const steps = resultChecksumSteps(values);
          let hashed = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            const now = steps.hashThrough(cut);
            // Never past the step, never back, and only whole chunks.
            expect(now).toBeLessThanOrEqual(Math.max(cut, hashed));
            expect(now).toBeGreaterThanOrEqual(hashed);
            hashed = now;
          }
          expect(steps.finish()).toEqual(resultChecksum(values));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("hashes a chunk only once the step reaches its end", () => {
    const values = gridOf(4_001, 2); // 3 rows per chunk: 1,334 chunks
    const steps = resultChecksumSteps(values);
    hashes.count = 0;
    expect(steps.hashThrough(2)).toBe(0);
    expect(hashes.count).toBe(0);
    expect(steps.hashThrough(7)).toBe(6);
    expect(hashes.count).toBe(2);
    steps.finish();
    expect(hashes.count).toBe(1_334);
  });
});

describe("editedRowsOfChecksum (the hand-edit check, hashed in steps)", () => {
  it("says what editedRows says of the same cells: unchanged, edited rows, resized, cannot tell", () => {
    const written = gridOf(4_100, 3);
    const stored = resultChecksum(written);
    const edited = written.map((r) => [...r]);
    edited[10]![1] = "hand";
    edited[4_000]![0] = 1;
    const cases: unknown[][][] = [written, edited, gridOf(4_099, 3), gridOf(4_100, 4)];
    for (const now of cases) {
      expect(editedRowsOfChecksum(stored, resultChecksum(now as GridCell[][]))).toEqual(
        editedRows(stored, now as GridCell[][]),
      );
    }
    expect(editedRowsOfChecksum(stored, resultChecksum(edited)).status).toBe("edited");
    expect(editedRowsOfChecksum({ v: 9 }, stored)).toEqual(editedRows({ v: 9 }, written));
  });
});

const SHEET = { id: "s1", name: "Sales" };
const ROWS = 3_000;

function setup() {
  const { report, answer } = ordersByCity(ROWS, SHEET, "p1");
  const item = planRefresh(placedReports([report]), { kind: "all" }, [SHEET]).items[0]!;
  return { report, answer, item };
}

/** Small blocks: about 20 KB each, so the 3,001 rows go in several. */
const LIMITS = { maxBlockBytes: 20_000, maxReadCells: 200_000 };

describe("the refresh flow's checksum", () => {
  it("is hashed block by block between the writes, and is the whole grid's checksum", async () => {
    const { report, answer, item } = setup();
    const grid = reportGrid(report, answer);
    const expected = resultChecksum(grid.values);
    const chunks = expected.chunks.length;
    const hashedAtWrite: number[] = [];
    const written: GridCell[][] = [];
    let recorded: RefreshInput | null = null;
    hashes.count = 0;
    const [outcome] = await runRefresh(
      [item],
      {
        load: async () => answer,
        read: async () => [[]],
        write: async (block) => {
          hashedAtWrite.push(hashes.count);
          written.push(...(block.values as GridCell[][]));
        },
        record: async (_item, input) => {
          recorded = input;
          return report as Report;
        },
        confirmOverwrite: async () => true,
      },
      { limits: LIMITS },
    );
    expect(outcome?.status).toBe("refreshed");
    expect(hashedAtWrite.length).toBeGreaterThan(3);
    // Nothing hashed before the first block is written; some, not all, before the last one.
    expect(hashedAtWrite[0]).toBe(0);
    expect(hashedAtWrite.at(-1)).toBeGreaterThan(0);
    expect(hashedAtWrite.at(-1)).toBeLessThan(chunks);
    // Each step hashes about one block's chunks, never the whole grid.
    for (let i = 1; i < hashedAtWrite.length; i++) {
      expect(hashedAtWrite[i]! - hashedAtWrite[i - 1]!).toBeLessThan(chunks / 2);
    }
    expect(written).toEqual(grid.values);
    expect(recorded!.resultChecksum).toEqual(expected);
  });

  it("the synchronous runner (Apps Script) records the same checksum", () => {
    const { report, answer, item } = setup();
    let recorded: RefreshInput | null = null;
    const [outcome] = runRefreshSync(
      [item],
      {
        load: () => answer,
        read: () => [[]],
        write: () => undefined,
        record: (_item, input) => {
          recorded = input;
          return report as Report;
        },
        overwrite: true,
      },
      { limits: LIMITS },
    );
    expect(outcome?.status).toBe("refreshed");
    expect(recorded!.resultChecksum).toEqual(resultChecksum(reportGrid(report, answer).values));
  });
});

describe("a result prepared elsewhere (a worker)", () => {
  it("is written from its blocks, its values asked one block at a time, with its own checksum", async () => {
    const { report, answer, item } = setup();
    const grid = reportGrid(report, answer);
    const blocks = [
      { from: 0, to: 1_000 },
      { from: 1_000, to: 2_500 },
      { from: 2_500, to: grid.rows },
    ];
    const asked: [number, number][] = [];
    const checksum = resultChecksum(grid.values);
    const prepared: PreparedResult = {
      prepared: true,
      rows: grid.rows,
      columns: grid.columns,
      headerRows: grid.headerRows,
      dateFormats: grid.dateFormats,
      blocks,
      checksum,
      values: async (from, to) => {
        asked.push([from, to]);
        return grid.values.slice(from, to);
      },
    };
    const writes: { topLeft: string; rows: number; boldRows: number }[] = [];
    let recorded: RefreshInput | null = null;
    let loadLimits: unknown = null;
    hashes.count = 0;
    const [outcome] = await runRefresh(
      [item],
      {
        load: async (_item, _progress, _signal, limits) => {
          loadLimits = limits;
          return prepared;
        },
        read: async () => [[]],
        write: async (block) => {
          writes.push({ topLeft: block.topLeft, rows: block.values.length, boldRows: block.boldRows });
        },
        record: async (_item, input) => {
          recorded = input;
          return report as Report;
        },
        confirmOverwrite: async () => true,
      },
      { limits: LIMITS },
    );
    expect(outcome?.status).toBe("refreshed");
    // The load is told the run's limits, to plan the blocks within them.
    expect(loadLimits).toEqual(LIMITS);
    expect(asked).toEqual(blocks.map((b) => [b.from, b.to]));
    expect(writes).toEqual([
      { topLeft: "B2", rows: 1_000, boldRows: 1 },
      { topLeft: "B1002", rows: 1_500, boldRows: 0 },
      { topLeft: "B2502", rows: grid.rows - 2_500, boldRows: 0 },
    ]);
    // Nothing hashed here: the checksum is the one prepared.
    expect(hashes.count).toBe(0);
    expect(recorded!.resultChecksum).toBe(checksum);
    expect(recorded!.endResultCell).toBe(`D${grid.rows + 1}`);
  });

  it("values that cannot be had are a write that failed: nothing recorded", async () => {
    const { report, answer, item } = setup();
    const grid = reportGrid(report, answer);
    let records = 0;
    const [outcome] = await runRefresh([item], {
      load: async () => ({
        prepared: true as const,
        rows: grid.rows,
        columns: grid.columns,
        headerRows: grid.headerRows,
        dateFormats: [],
        blocks: [{ from: 0, to: grid.rows }],
        checksum: resultChecksum(grid.values),
        values: async () => {
          throw new Error("The refresh worker failed.");
        },
      }),
      read: async () => [[]],
      write: async () => undefined,
      record: async () => {
        records++;
        return report as Report;
      },
      confirmOverwrite: async () => true,
    });
    expect(outcome).toMatchObject({ status: "not-refreshed", reason: "write-failed" });
    expect(outcome?.message).toContain("The refresh worker failed.");
    expect(records).toBe(0);
  });
});
