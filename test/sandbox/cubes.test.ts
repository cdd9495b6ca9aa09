/**
 * The sandbox's generated cubes (src/sandbox/cubes.ts): the same rows whatever makes them, each
 * column drawn as its spec says, and made once per process for a seed started again (each preview
 * test and the preview's Reset demo start a sandbox from the same seed).
 */
import { describe, expect, it } from "vitest";
import { type CubeSeed, cubeRows } from "../../src/sandbox/cubes.js";
import { demoSeed } from "../../src/sandbox/demo.js";

/** One column of each kind the generator knows (docs/sandbox.md). */
const MIXED = {
  name: "mixed",
  deploymentId: 1,
  dimensions: [{ name: "day", type: "time" }],
  measures: [],
  generator: {
    seed: 7,
    rows: 4,
    columns: {
      id: { sequence: { prefix: "L-", pad: 4, start: 10, every: 2 } },
      n: { sequence: {} },
      region: { pick: ["North", "South", "West"], weights: [1, 2, 3] },
      city: {
        pickBy: {
          column: "region",
          values: { North: ["Oslo", "Bergen"], South: ["Rome"], West: ["Lima", "Quito"] },
        },
      },
      code: { lookup: { column: "region", values: { North: "N", South: "S" } } },
      qty: { int: [1, 9] },
      price: { decimal: [1, 2], decimals: 3 },
      day: { date: ["2024-01-01", "2024-01-31"] },
      total: { multiply: ["qty", "price"], decimals: 2 },
      flag: { chance: 0.5 },
      any: { pick: [true, false] },
    },
  },
} as unknown as CubeSeed;

describe("a generated cube", () => {
  it("draws each column as its spec says, in column order, the same rows on every run", () => {
    // Written down from the generator as it was first written: a change of how the rows are made
    // must not change a demo figure.
    expect(cubeRows(MIXED)).toEqual([
      {
        id: "L-0010",
        n: 1,
        region: "North",
        city: "Oslo",
        code: "N",
        qty: 9,
        price: 1.699,
        day: 1705449600000,
        total: 15.29,
        flag: true,
        any: true,
      },
      {
        id: "L-0010",
        n: 2,
        region: "South",
        city: "Rome",
        code: "S",
        qty: 7,
        price: 1.258,
        day: 1704412800000,
        total: 8.81,
        flag: false,
        any: false,
      },
      {
        id: "L-0011",
        n: 3,
        region: "South",
        city: "Rome",
        code: "S",
        qty: 3,
        price: 1.535,
        day: 1704844800000,
        total: 4.6,
        flag: false,
        any: true,
      },
      {
        id: "L-0011",
        n: 4,
        region: "West",
        city: "Lima",
        code: null,
        qty: 2,
        price: 1.155,
        day: 1704844800000,
        total: 2.31,
        flag: false,
        any: false,
      },
    ]);
  });

  it("is made once for a seed started again: a new sandbox of the demo reads the rows already made", () => {
    const orders = (at: Date) => demoSeed(at).cubes.find((c) => c.name === "orders")!;
    const first = cubeRows(orders(new Date()));
    expect(first.length).toBe(60_000);
    // A new seed object (as each sandbox copies its seed), the same generator: the same rows, not
    // 60,000 made again.
    expect(cubeRows(structuredClone(orders(new Date())))).toBe(first);
    // Another generator gets rows of its own.
    const fewer = structuredClone(orders(new Date()));
    fewer.generator!.rows = 10;
    expect(cubeRows(fewer)).toHaveLength(10);
    expect(cubeRows(fewer)[0]).toEqual(first[0]);
  });
});
