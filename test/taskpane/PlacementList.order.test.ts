/**
 * The list's order (each placement's key and row) is worked out when first asked, not while a long
 * list is first drawn (PlacementList.tsx, orderOf): the first key alone is read for the Tab stop.
 */
import { describe, expect, it } from "vitest";
import type { PlacedReport, SheetGroup } from "../../src/core/placement-view.js";
import { orderOf } from "../../taskpane/PlacementList.js";
import type { Row } from "../../taskpane/VirtualRows.js";

/** Rows of two sheets' placements whose keys count how often they are read. */
function rows(n: number) {
  let reads = 0;
  const group: SheetGroup = { sheetName: "Sales", sheetId: "s1", placements: [] };
  const out: Row[] = [{ kind: "heading", group }];
  for (let i = 0; i < n; i++) {
    if (i === 2) out.push({ kind: "heading", group: { ...group, sheetName: "Notes" } });
    const placement = {
      get key() {
        reads += 1;
        return `p:${i}`;
      },
    } as unknown as PlacedReport;
    out.push({ kind: "placement", group, item: { placement, note: null } });
  }
  return { rows: out, reads: () => reads };
}

describe("orderOf", () => {
  it("reads only the first key until the order is asked for, then every key once", () => {
    const list = rows(5);
    const order = orderOf(list.rows);
    expect(order.first).toBe("p:0");
    expect(list.reads()).toBe(1);
    expect(order.keys).toEqual(["p:0", "p:1", "p:2", "p:3", "p:4"]);
    expect([...order.rowOf]).toEqual([
      ["p:0", 1],
      ["p:1", 2],
      ["p:2", 4],
      ["p:3", 5],
      ["p:4", 6],
    ]);
    expect(list.reads()).toBe(1 + 10);
    // Worked out once.
    void order.keys;
    void order.rowOf;
    expect(list.reads()).toBe(11);
  });

  it("has no first key for a list without placements", () => {
    expect(orderOf(rows(0).rows).first).toBeUndefined();
    expect(orderOf([]).keys).toEqual([]);
  });
});
