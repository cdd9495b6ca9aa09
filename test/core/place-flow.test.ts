/**
 * Place a report here (src/core/place-flow.ts): the plan, the cells written as a refresh writes
 * them, the overwrite question, connect-workbook with the address and the checksum, the recovery of
 * a lost answer, and the outcome, under both runners.
 */
import { describe, expect, it } from "vitest";
import {
  type CellBlock,
  type ChecksumCell,
  type ConnectWorkbookInput,
  editedRows,
  type LoadAnswer,
  type PlaceItem,
  type PlaceTarget,
  PlatformError,
  placedReports,
  planPlace,
  type Report,
  runPlace,
  runPlaceSync,
} from "../../src/core/index.js";
import { formatCell, parseCell, rangeOf } from "../../src/core/location.js";
import { fullReport, placement } from "./fixtures.js";

const QUERY = { dimensions: ["orders.region"], measures: ["orders.count"], limit: 100 };

function answer(rows: number): LoadAnswer {
  return {
    query: QUERY,
    data: Array.from({ length: rows }, (_, i) => ({
      "orders.region": `R${i}`,
      "orders.count": String(i * 10),
    })),
    annotation: {
      measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" } },
      dimensions: { "orders.region": { title: "Orders Region", shortTitle: "Region", type: "string" } },
      segments: {},
      timeDimensions: {},
    },
    lastRefreshTime: null,
    total: rows,
  };
}

const chosen = fullReport({
  id: 42,
  name: "Orders by region",
  jsonQuery: JSON.stringify(QUERY),
  pivotItems: null,
  externalWorkbookPlacements: [],
  externalWorkbookId: null,
  resultLocation: null,
});

const TARGET: PlaceTarget = {
  workbookId: "wb-1",
  workbookName: "Q3 Review.xlsx",
  sheetId: "s1",
  sheetName: "Sales",
  cell: "c4",
  host: "EXCEL",
};

/** A sheet of cells, the service's connect-workbook (as the sandbox applies it), and what was asked. */
function world(
  options: { filled?: Record<string, unknown>; connect?: (input: ConnectWorkbookInput) => Report } = {},
) {
  const cells = new Map<string, unknown>(Object.entries(options.filled ?? {}));
  const connects: ConnectWorkbookInput[] = [];
  const questions: string[] = [];
  let stored: Report = chosen;
  const recorded = (input: ConnectWorkbookInput): Report => ({
    ...chosen,
    externalWorkbookPlacements: [
      placement({
        id: "plc-new",
        workbookId: input.externalWorkbookId,
        sheetId: input.sheetId ?? null,
        sheetName: input.sheetName ?? null,
        anchorCell: input.anchorCell ?? null,
        endResultCell: input.endResultCell ?? null,
        resultLocation: input.resultLocation,
        resultChecksum: input.resultChecksum ?? null,
      }),
    ],
  });
  const write = (block: CellBlock) => {
    const start = parseCell(block.topLeft)!;
    block.values.forEach((row, r) => {
      row.forEach((v, c) => {
        cells.set(formatCell({ row: start.row + r, col: start.col + c }), v);
      });
    });
  };
  const read = (range: string) => {
    const [a, b] = range.split(":");
    const r = rangeOf(a!, b)!;
    const out: unknown[][] = [];
    for (let row = r.top; row <= r.bottom; row++) {
      const line: unknown[] = [];
      for (let col = r.left; col <= r.right; col++) line.push(cells.get(formatCell({ row, col })) ?? "");
      out.push(line);
    }
    return out;
  };
  const connect = (input: ConnectWorkbookInput) => {
    connects.push(input);
    stored = options.connect ? options.connect(input) : recorded(input);
    return stored;
  };
  return {
    cells,
    connects,
    questions,
    write,
    read,
    connect,
    recorded,
    current: () => stored,
    set: (r: Report) => (stored = r),
  };
}

function planned(): PlaceItem {
  const plan = planPlace(chosen, TARGET, []);
  if (plan.kind !== "ready") throw new Error(plan.message);
  return plan.item;
}

function asyncRunner(w: ReturnType<typeof world>, overwrite = true) {
  return {
    load: async () => answer(3),
    read: async (r: { range: string }) => w.read(r.range),
    write: async (b: CellBlock) => w.write(b),
    connect: async (_item: PlaceItem, input: ConnectWorkbookInput) => w.connect(input),
    getReport: async () => w.current(),
    confirmOverwrite: async (_item: PlaceItem, question: string) => {
      w.questions.push(question);
      return overwrite;
    },
  };
}

function syncRunner(w: ReturnType<typeof world>, overwrite = true) {
  return {
    load: () => answer(3),
    read: (r: { range: string }) => w.read(r.range),
    write: (b: CellBlock) => w.write(b),
    connect: (_item: PlaceItem, input: ConnectWorkbookInput) => w.connect(input),
    getReport: () => w.current(),
    overwrite,
  };
}

describe("planPlace", () => {
  it("a new placement at the active cell, with nothing before it", () => {
    const item = planned();
    expect(item.anchor).toEqual({ row: 4, col: 3 });
    expect(item.previous).toBeNull();
    expect(item.isNew).toBe(true);
    expect(item.placement.resultLocation).toBe("Sales!C4");
    expect(item.target.cell).toBe("C4");
  });

  it("refuses a folder, a bad cell, and a cell under a placement already", () => {
    expect(planPlace({ ...chosen, type: "FOLDER" }, TARGET, [])).toEqual({
      kind: "refused",
      message: "Not placed: Orders by region is a folder, not a report.",
    });
    expect(planPlace(chosen, { ...TARGET, cell: "nope" }, []).kind).toBe("refused");
    const here = placedReports([
      fullReport({
        externalWorkbookPlacements: [placement({ sheetId: "s1", anchorCell: "B2", endResultCell: "F20" })],
      }),
    ]);
    const refused = planPlace(chosen, TARGET, here);
    expect(refused).toMatchObject({ kind: "refused" });
    expect(refused.kind === "refused" && refused.message).toContain(
      "Revenue by region is already placed under Sales!C4",
    );
  });
});

describe.each([
  [
    "runPlace",
    async (item: PlaceItem, w: ReturnType<typeof world>, overwrite = true) =>
      runPlace(item, asyncRunner(w, overwrite)),
  ],
  [
    "runPlaceSync",
    async (item: PlaceItem, w: ReturnType<typeof world>, overwrite = true) =>
      runPlaceSync(item, syncRunner(w, overwrite)),
  ],
] as const)("%s", (_name, run) => {
  it("writes as a refresh does, then records the placement with its address, extent and checksum", async () => {
    const w = world();
    const outcome = await run(planned(), w);
    expect(outcome.status).toBe("placed");
    expect(outcome.message).toBe("Placed Orders by region at Sales!C4:D7.");
    expect(w.cells.get("C4")).toBe("Orders Region");
    expect(w.cells.get("D7")).toBe(20);
    expect(w.connects).toHaveLength(1);
    const input = w.connects[0]!;
    expect(input).toMatchObject({
      externalWorkbookId: "wb-1",
      resultLocation: "Sales!C4:D7",
      sheetId: "s1",
      sheetName: "Sales",
      anchorCell: "C4",
      endResultCell: "D7",
      workbookName: "Q3 Review.xlsx",
      host: "EXCEL",
    });
    expect(input).not.toHaveProperty("placementId");
    // The checksum is of the cells as they now read back: unchanged.
    expect(editedRows(input.resultChecksum, w.read("C4:D7") as ChecksumCell[][])).toEqual({
      status: "unchanged",
    });
    if (outcome.status === "placed") expect(outcome.placement.key).toBe("p:plc-new");
  });

  it("asks before overwriting cells that are not empty; no places nothing", async () => {
    const w = world({ filled: { D6: "mine" } });
    const outcome = await run(planned(), w, false);
    expect(outcome).toMatchObject({ status: "not-placed", reason: "would-overwrite" });
    expect(outcome.message).toMatch(
      /^Not placed: Orders by region would overwrite Sales!C4:D7 \(D6 is not empty\)\.$/,
    );
    expect(w.cells.get("D6")).toBe("mine");
    expect(w.connects).toHaveLength(0);
    if (_name === "runPlace") {
      expect(w.questions).toEqual([
        "Orders by region placed here covers Sales!C4:D7, and D6 is not empty. Overwrite those cells?",
      ]);
    }
    const yes = await run(planned(), world({ filled: { D6: "mine" } }), true);
    expect(yes.status).toBe("placed");
  });

  it("a lost answer is checked by reading the report again: placed when the service has it", async () => {
    const w = world();
    w.connect = (input) => {
      w.connects.push(input);
      w.set(w.recorded(input));
      throw new PlatformError("timeout", "The service did not answer within 30 s. Try again.");
    };
    const outcome = await run(planned(), w);
    expect(outcome.status).toBe("placed");
    expect(w.connects).toHaveLength(1);
  });

  it("a lost answer the service did not apply is sent once more, at the same address", async () => {
    const w = world();
    let calls = 0;
    const original = w.connect;
    w.connect = (input) => {
      calls++;
      if (calls === 1) throw new PlatformError("network", "Could not reach the service.");
      return original(input);
    };
    const outcome = await run(planned(), w);
    expect(outcome.status).toBe("placed");
    expect(calls).toBe(2);
  });

  it("a refused record says the cells were written and how to record them", async () => {
    const w = world();
    w.connect = () => {
      throw new PlatformError("forbidden", "You have no access to this report.");
    };
    const outcome = await run(planned(), w);
    expect(outcome).toMatchObject({ status: "not-placed", reason: "record-failed" });
    expect(outcome.message).toBe(
      "Orders by region was written at Sales!C4:D7, but the service could not record the placement (You have no access to this report.): it is not listed, and Refresh cannot find it. Place it again at Sales!C4 to record it (the same cells are written again).",
    );
  });

  it("a failed query places nothing and says so", async () => {
    const w = world();
    const item = planned();
    const failing =
      _name === "runPlace"
        ? runPlace(item, {
            ...asyncRunner(w),
            load: async () => {
              throw new PlatformError("bad-request", "The query is not valid.");
            },
          })
        : runPlaceSync(item, {
            ...syncRunner(w),
            load: () => {
              throw new PlatformError("bad-request", "The query is not valid.");
            },
          });
    const outcome = await failing;
    expect(outcome).toMatchObject({ status: "not-placed", reason: "query-failed" });
    expect(outcome.message).toBe("Not placed: the query of Orders by region failed. The query is not valid.");
    expect(w.cells.size).toBe(0);
  });
});

describe("runPlace, cancelled", () => {
  it("before anything is written places nothing", async () => {
    const w = world();
    const controller = new AbortController();
    controller.abort();
    const outcome = await runPlace(planned(), asyncRunner(w), { signal: controller.signal });
    expect(outcome).toMatchObject({ status: "not-placed", reason: "stopped" });
    expect(w.cells.size).toBe(0);
  });
});

describe("runPlaceSync, as Apps Script runs it", () => {
  it("hands the overwrite question to a function (kept for the sidebar) and writes nothing on its no", () => {
    const w = world({ filled: { D6: "mine" } });
    const asked: string[] = [];
    const outcome = runPlaceSync(planned(), {
      ...syncRunner(w),
      overwrite: (question) => {
        asked.push(question);
        return false;
      },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/D6 is not empty/);
    expect(outcome).toMatchObject({ status: "not-placed", reason: "would-overwrite" });
    expect(w.connects).toEqual([]);
    expect([...w.cells.keys()]).toEqual(["D6"]);
  });

  it("tells the progress of writing, with the grid's rows before the first block", () => {
    const w = world();
    const progress: { phase: string; rows?: number; totalRows?: number | null }[] = [];
    const outcome = runPlaceSync(planned(), syncRunner(w), { onProgress: (p) => progress.push(p) });
    expect(outcome.status).toBe("placed");
    expect(progress).toContainEqual({ phase: "writing", rows: 0, totalRows: 4 });
  });
});
