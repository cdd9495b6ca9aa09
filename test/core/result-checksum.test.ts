import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  type ChecksumCell,
  describeEditedRows,
  editedRows,
  type GridCell,
  RESULT_CHECKSUM_VERSION,
  reportGrid,
  resultChecksum,
} from "../../src/core/index.js";
import { canonicalNumber, rowsPerChunk } from "../../src/core/result-checksum.js";

// docs/platform-api.md, "The result checksum (version 1)".

const cell = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);

function gridOf(rows: number, columns: number, seed: number): GridCell[][] {
  // A cheap deterministic grid: mixed kinds so every cell form is hashed.
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: columns }, (_, c): GridCell => {
      const k = (r * 31 + c * 7 + seed) % 5;
      return k === 0
        ? null
        : k === 1
          ? r * c + 0.5
          : k === 2
            ? `t${r}-${c}`
            : k === 3
              ? r % 2 === 0
              : 45292 + r;
    }),
  );
}

/** A different value for a cell, whatever it holds (a number differs within its 15 significant digits). */
function changed(v: GridCell): GridCell {
  if (v === null) return 0;
  if (typeof v === "number") return v === 0 ? 1 : v * 2;
  if (typeof v === "boolean") return !v;
  return `${v}x`;
}

const copy = (grid: readonly (readonly GridCell[])[]): GridCell[][] => grid.map((row) => [...row]);

describe("the checksum's shape", () => {
  it("is version 1, one chunk per row up to 2,000 rows, the extent in the payload", () => {
    const grid = gridOf(5, 3, 0);
    const checksum = resultChecksum(grid);
    expect(checksum.v).toBe(RESULT_CHECKSUM_VERSION);
    expect(RESULT_CHECKSUM_VERSION).toBe(1);
    expect(checksum.chunks.map((c) => c.from)).toEqual([0, 1, 2, 3, 4]);
    expect(checksum.payload).toBe("r=5;c=3");
    expect(resultChecksum(gridOf(2_000, 1, 0)).chunks).toHaveLength(2_000);
  });

  it("beyond 2,000 rows, runs of ceil(rows / 2,000) rows: at most 2,000 chunks for 50,000+ rows", () => {
    expect(rowsPerChunk(2_001)).toBe(2);
    expect(rowsPerChunk(50_001)).toBe(26);
    const checksum = resultChecksum(gridOf(50_001, 2, 0));
    expect(checksum.chunks.length).toBeLessThanOrEqual(2_000);
    expect(checksum.chunks.length).toBe(Math.ceil(50_001 / 26));
    expect(checksum.chunks[1]!.from).toBe(26);
    expect(checksum.payload).toBe("r=50001;c=2");
  });

  it("hashes are 32 lowercase hex characters (within the platform's 1-64)", () => {
    for (const { hash } of resultChecksum(gridOf(3, 4, 1)).chunks) {
      expect(hash).toMatch(/^[0-9a-f]{32}$/);
      expect(hash.length).toBeGreaterThanOrEqual(1);
      expect(hash.length).toBeLessThanOrEqual(64);
    }
  });

  it("is plain JSON the service can store", () => {
    const checksum = resultChecksum(gridOf(3, 4, 1));
    expect(JSON.parse(JSON.stringify(checksum))).toEqual(checksum);
  });

  it("an empty grid has no chunks and says so in its extent", () => {
    expect(resultChecksum([])).toEqual({ v: 1, chunks: [], payload: "r=0;c=0" });
    expect(editedRows(resultChecksum([]), [])).toEqual({ status: "unchanged" });
  });

  it("hashes the documented bytes: SHA-256 of '_Tn1.5;s2:ab\\n', first 32 hex characters", () => {
    // Computed independently: printf '_Tn1.5;s2:ab\n' | sha256sum
    expect(resultChecksum([[null, true, 1.5, "ab"]]).chunks[0]!.hash).toBe(
      "903e25c85baa8744dd574f887d497475",
    );
  });
});

/** The serialisation of version 1 as docs/platform-api.md writes it, the slow and obvious way. */
function referenceHash(row: readonly ChecksumCell[]): string {
  const text = row
    .map((v) => {
      if (v === null || v === undefined || v === "") return "_";
      if (v === true) return "T";
      if (v === false) return "F";
      if (typeof v === "number") return `n${canonicalNumber(v)};`;
      if (typeof v === "string") return `s${v.length}:${v}`;
      throw new Error("not in this test");
    })
    .join("");
  const digest = sha256(new TextEncoder().encode(`${text}\n`));
  return [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("the bytes hashed are the documented serialisation", () => {
  const number = fc.oneof(
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.integer({ min: -1e9, max: 1e9 }).map((i) => i / 100),
    fc.integer({ min: -1e12, max: 1e12 }).map((i) => i / 1e6),
    fc.integer({ min: -1e15, max: 1e15 }).map((i) => i / 1e7),
    fc.constantFrom(
      0.1 + 0.2,
      1e-6,
      1.5e-6,
      999999999.999999,
      1e9 + 0.5,
      2 ** 53,
      -(2 ** 53),
      1e15,
      1e15 - 1,
      0.999999999999999,
      2.0000000000000004,
      1000.0000000000001,
      99.99999999999999,
      0.0000010000000000000002,
      -0.037500000000000006,
      2 ** 31 - 1,
      -(2 ** 31),
      2 ** 30,
      -(2 ** 31) - 1,
      -0,
    ),
    // Float artefacts of short decimals (0.037500000000000006), and numbers a few ulps from them.
    fc
      .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.constantFrom(0.0125, 0.1, 0.01, 1.3, 1e-6))
      .map(([i, f]) => i * f),
    fc.tuple(fc.integer({ min: -1e8, max: 1e8 }), fc.integer({ min: -8, max: 8 })).map(([i, ulps]) => {
      let v = i / 1000;
      for (let k = 0; k < Math.abs(ulps); k++) v += Math.sign(ulps) * Number.EPSILON * Math.abs(v);
      return v;
    }),
  );

  it("property: numbers (integers, short decimals, any double) hash as their canonical text", () => {
    fc.assert(
      fc.property(fc.array(number, { minLength: 1, maxLength: 6 }), (row) => {
        expect(resultChecksum([row]).chunks[0]!.hash).toBe(referenceHash(row));
      }),
      { numRuns: 3_000 },
    );
  });

  it("property: text of any code units (lone surrogates as U+FFFD) hashes as its UTF-8 with its length", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), cell)),
        (row) => {
          expect(resultChecksum([row]).chunks[0]!.hash).toBe(referenceHash(row));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the checksum runs where the core runs", () => {
  // Apps Script's V8 has no TextEncoder, and the server bundle targets ES2019 (tooling/sheets):
  // nothing the module or its SHA-256 does on import or on use may need either.
  it("loads and hashes without TextEncoder and without Object.hasOwn", async () => {
    const global = globalThis as { TextEncoder?: unknown };
    const object = Object as { hasOwn?: unknown };
    const saved = { encoder: global.TextEncoder, hasOwn: object.hasOwn };
    const emoji = referenceHash(["é😀"]);
    vi.resetModules();
    try {
      delete global.TextEncoder;
      delete object.hasOwn;
      const fresh = await import("../../src/core/result-checksum.js");
      expect(fresh.resultChecksum([[null, true, 1.5, "ab"]]).chunks[0]!.hash).toBe(
        "903e25c85baa8744dd574f887d497475",
      );
      expect(fresh.resultChecksum([["é😀"]]).chunks[0]!.hash).toBe(emoji);
    } finally {
      global.TextEncoder = saved.encoder;
      object.hasOwn = saved.hasOwn;
    }
  });
});

describe("what the add-in wrote and what a host reads back hash alike", () => {
  it("empty as null, undefined or '' ; a Date as its serial number; -0 as 0", () => {
    const written: ChecksumCell[][] = [
      ["Region", "Month", "Count"],
      ["East", 45292.5, 0],
      [null, null, null],
    ];
    const excel: ChecksumCell[][] = [
      ["Region", "Month", "Count"],
      ["East", 45292.5, -0],
      ["", "", ""],
    ];
    const sheets: ChecksumCell[][] = [
      ["Region", "Month", "Count"],
      ["East", new Date(2024, 0, 1, 12), 0],
      ["", undefined, ""],
    ];
    expect(editedRows(resultChecksum(written), excel)).toEqual({ status: "unchanged" });
    expect(editedRows(resultChecksum(written), sheets)).toEqual({ status: "unchanged" });
  });

  it("a row read back shorter (trailing empties dropped) is the same row", () => {
    const written: ChecksumCell[][] = [
      ["a", null],
      ["b", "c"],
    ];
    expect(editedRows(resultChecksum(written), [["a"], ["b", "c"]])).toEqual({ status: "unchanged" });
  });

  it("numbers compare at Excel's 15 significant digits", () => {
    expect(canonicalNumber(0.1 + 0.2)).toBe("0.3");
    expect(canonicalNumber(-0)).toBe("0");
    expect(canonicalNumber(1e21)).toBe("1e+21");
    expect(canonicalNumber(Number.MAX_VALUE)).toBe("1.79769313486232e+308");
    expect(canonicalNumber(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(canonicalNumber(123456789012345680)).toBe("123456789012346000");
    expect(editedRows(resultChecksum([[0.1 + 0.2]]), [[0.3]])).toEqual({ status: "unchanged" });
    // A difference past the 15th digit is one no spreadsheet cell can hold: not an edit.
    expect(editedRows(resultChecksum([[-1000000000000006]]), [[-1000000000000005]])).toEqual({
      status: "unchanged",
    });
    expect(editedRows(resultChecksum([[1.5]]), [[1.50000000000001]])).toMatchObject({ status: "edited" });
  });

  it("a host's own date conversion can be passed in (another time zone than the runtime's)", () => {
    const checksum = resultChecksum([[45292]]);
    const readBack = [[new Date(Date.UTC(2024, 0, 1))]];
    const utc = (d: Date) => d.getTime() / 86_400_000 + 25_569;
    expect(editedRows(checksum, readBack, { dateSerial: utc })).toEqual({ status: "unchanged" });
  });

  it("text, numbers and booleans never collide: '1' vs 1, 'TRUE' vs true, '' vs null vs ' '", () => {
    const pairs: [ChecksumCell, ChecksumCell][] = [
      ["1", 1],
      ["TRUE", true],
      [" ", null],
      ["a", "a\n"],
    ];
    for (const [a, b] of pairs) {
      expect(editedRows(resultChecksum([[a]]), [[b]])).toMatchObject({ status: "edited" });
    }
    // A separator inside text does not move the cell boundary.
    expect(editedRows(resultChecksum([["a_", "b"]]), [["a", "_b"]])).toMatchObject({ status: "edited" });
    expect(editedRows(resultChecksum([["s1:x"]]), [["s1:", "x"]])).toMatchObject({ status: "resized" });
  });

  it("the grid of a report, written then read back from Excel (dates as serials, empty as '')", () => {
    const grid = reportGrid(
      {
        jsonQuery: JSON.stringify({
          measures: ["m"],
          timeDimensions: [{ dimension: "t", granularity: "day" }],
        }),
        pivotItems: null,
      },
      {
        data: [
          { m: "1", "t.day": "2024-01-02T00:00:00.000" },
          { m: null, "t.day": null },
        ],
      },
    );
    const excel = grid.values.map((row) => row.map((v) => (v === null ? "" : v)));
    expect(editedRows(resultChecksum(grid.values), excel)).toEqual({ status: "unchanged" });
  });
});

describe("editedRows", () => {
  it("marks the chunk whose cell changed, merging adjacent chunks into one range", () => {
    const grid = gridOf(10, 3, 2);
    const checksum = resultChecksum(grid);
    const edited = copy(grid);
    for (const r of [3, 4, 5, 8]) edited[r]![1] = changed(edited[r]![1]!);
    expect(editedRows(checksum, edited)).toEqual({
      status: "edited",
      rows: [
        { from: 3, to: 5 },
        { from: 8, to: 8 },
      ],
    });
  });

  it("property: any single-cell change marks exactly the chunk of its row (one row per chunk)", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 40 })
          .chain((rows) =>
            fc.tuple(
              fc.array(fc.array(cell, { minLength: 4, maxLength: 4 }), { minLength: rows, maxLength: rows }),
              fc.nat(rows - 1),
              fc.nat(3),
            ),
          ),
        ([grid, r, c]) => {
          const checksum = resultChecksum(grid);
          const edited = copy(grid);
          edited[r]![c] = changed(edited[r]![c]!);
          expect(editedRows(checksum, edited)).toEqual({ status: "edited", rows: [{ from: r, to: r }] });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("property: beyond 2,000 rows, a single-cell change marks its chunk's rows and no other", () => {
    const rows = 4_100; // chunks of 3 rows; the last one holds 2
    const grid = gridOf(rows, 3, 3);
    const checksum = resultChecksum(grid);
    const per = rowsPerChunk(rows);
    expect(per).toBe(3);
    fc.assert(
      fc.property(fc.nat(rows - 1), fc.nat(2), (r, c) => {
        const edited = copy(grid);
        edited[r]![c] = changed(edited[r]![c]!);
        const from = Math.floor(r / per) * per;
        const to = Math.min(from + per, rows) - 1;
        expect(editedRows(checksum, edited)).toEqual({ status: "edited", rows: [{ from, to }] });
      }),
      { numRuns: 60 },
    );
  });

  it("property: a grid written and read back unchanged is unchanged", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 30 }), (grid) => {
        const readBack = grid.map((row) => row.map((v) => (v === null ? "" : v)));
        expect(editedRows(resultChecksum(grid), readBack)).toEqual({ status: "unchanged" });
      }),
      { numRuns: 200 },
    );
  });

  it("property: a row or column added or removed is reported as resized", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom("add row", "remove row", "add column", "remove column"),
        (rows, columns, change) => {
          const grid = gridOf(rows, columns, rows);
          const now = copy(grid);
          if (change === "add row") now.push(new Array(columns).fill("new"));
          if (change === "remove row") now.pop();
          if (change === "add column") for (const row of now) row.push("new");
          if (change === "remove column") for (const row of now) row.pop();
          const result = editedRows(resultChecksum(grid), now);
          const extent = { rows: now.length, columns: now.length === 0 ? 0 : now[0]!.length };
          expect(result).toEqual({ status: "resized", written: { rows, columns }, now: extent });
        },
      ),
    );
  });

  it("property: a checksum of another version cannot tell, never edited", () => {
    fc.assert(
      fc.property(
        fc.integer().filter((v) => v !== 1),
        (v) => {
          const grid = gridOf(3, 2, 0);
          const other = { ...resultChecksum(grid), v };
          const result = editedRows(other, [[1]]);
          expect(result.status).toBe("cannot-tell");
        },
      ),
    );
  });

  it.each([
    ["missing", null],
    ["not an object", "abc"],
    ["without a version", { chunks: [], payload: "r=0;c=0" }],
    ["without a payload", { v: 1, chunks: [] }],
    ["with a malformed payload", { v: 1, chunks: [], payload: "rows=1" }],
    ["without chunks", { v: 1, payload: "r=1;c=1" }],
    ["with a malformed chunk", { v: 1, chunks: [{ from: -1, hash: "x" }], payload: "r=1;c=1" }],
    ["with a short hash", { v: 1, chunks: [{ from: 0, hash: "abc" }], payload: "r=1;c=1" }],
    ["with chunks that do not cover the rows as version 1", { v: 1, chunks: [], payload: "r=1;c=1" }],
  ])("a checksum %s cannot tell", (_, checksum) => {
    const result = editedRows(checksum, [["a"]]);
    expect(result.status).toBe("cannot-tell");
    expect(result.status === "cannot-tell" && result.reason.length).toBeGreaterThan(0);
  });
});

describe("describeEditedRows names sheet rows for people", () => {
  it.each([
    [[{ from: 2, to: 2 }], 2, "row 4"],
    [[{ from: 2, to: 4 }], 2, "rows 4-6"],
    [
      [
        { from: 2, to: 4 },
        { from: 7, to: 7 },
      ],
      2,
      "rows 4-6 and 9",
    ],
    [
      [
        { from: 0, to: 0 },
        { from: 2, to: 4 },
        { from: 7, to: 7 },
      ],
      2,
      "rows 2, 4-6 and 9",
    ],
    [[], 1, ""],
  ])("%j from anchor row %i: %s", (ranges, anchor, text) => {
    expect(describeEditedRows(ranges, anchor)).toBe(text);
  });
});
