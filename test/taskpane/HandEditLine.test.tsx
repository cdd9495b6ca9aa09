// @vitest-environment jsdom
/**
 * Hand edits in the pane (taskpane/HandEditLine.tsx, HandEditsWatch.tsx, editWatch.ts): Edited with
 * the rows and Locate; "cannot tell" for a checksum of another version, never Edited; the range
 * read once per list load and when the user leaves it, never on a move inside it; Refresh of an
 * edited placement asks first.
 */
import { describe, expect, it, vi } from "vitest";
import { placedReports } from "../../src/core/placement-view.js";
import { resultChecksum } from "../../src/core/result-checksum.js";
import { createEditWatch } from "../../taskpane/editWatch.js";
import {
  buttonByName,
  CellsFakeHost,
  click,
  ctx,
  report,
  settle,
  WORKBOOK_ID,
  waitFor,
} from "../support/fakeHost.js";
import { hashes } from "../support/hash-count.js";
import { renderPane } from "../support/pane.js";

// Every SHA-256 the checksum computes, counted (test/support/hash-count.ts).
vi.mock("@noble/hashes/sha2.js", async (original) =>
  (await import("../support/hash-count.js")).countingSha2(
    await original<typeof import("@noble/hashes/sha2.js")>(),
  ),
);

/** What was written at Sales!B2:C5. */
const GRID = [
  ["Region", "Count"],
  ["North", 1],
  ["South", 2],
  ["West", 3],
];

function placement(checksum: unknown, extra: Record<string, unknown> = {}) {
  return {
    id: "p-orders",
    workbookId: WORKBOOK_ID,
    sheetId: "sheet-sales",
    sheetName: "Sales",
    anchorCell: "B2",
    endResultCell: "C5",
    resultLocation: "Sales!B2:C5",
    syncStatus: "UP_TO_DATE" as const,
    resultChecksum: checksum as never,
    ...extra,
  };
}

function host(checksum: unknown = resultChecksum(GRID), extra: Record<string, unknown> = {}) {
  const h = new CellsFakeHost({
    reports: [report(8, "Orders by region", [placement(checksum, extra)])],
    context: ctx("Sales", "H1", "sheet-sales"),
  });
  GRID.forEach((row, r) => {
    row.forEach((v, c) => {
      h.type("Sales", `${"BC"[c]}${2 + r}`, v);
    });
  });
  return h;
}

function row(root: ParentNode): HTMLElement {
  const li = root.querySelector<HTMLElement>("li[data-placement-key]");
  if (!li) throw new Error("no placement row");
  return li;
}

describe("hand edits", () => {
  it("an edited placement shows Edited with its rows, and Locate selects them", async () => {
    const h = host();
    h.type("Sales", "C3", 10);
    h.type("Sales", "B4", "Sud");
    const root = await renderPane(h);
    await waitFor(() => expect(row(root).querySelector("[data-hand-edits=edited]")).not.toBeNull());
    expect(row(root).textContent).toContain("Edited");
    expect(row(root).textContent).toContain("rows 3-4 edited");
    await click(buttonByName(row(root), "Locate"));
    expect(h.calls.selectRange.at(-1)).toEqual({
      sheetId: "sheet-sales",
      sheetName: "Sales",
      range: "B3:C4",
    });
  });

  it("unchanged cells show nothing; a checksum of another version reads cannot tell, never Edited", async () => {
    const same = await renderPane(host());
    await settle(10);
    expect(row(same).querySelector("[data-hand-edits]")).toBeNull();

    const h = host({ v: 2, chunks: [{ from: 0, hash: "abc" }] });
    h.type("Sales", "C3", 10);
    const root = await renderPane(h);
    await waitFor(() => expect(row(root).querySelector("[data-hand-edits=cannot-tell]")).not.toBeNull());
    expect(row(root).textContent).toContain("Hand edits: cannot tell (its fingerprint is of version 2");
    expect(row(root).textContent).not.toContain("Edited");
    // Nothing was read for it.
    expect(h.cellCalls.read).toHaveLength(0);
  });

  it("reads the range once per list load and when the user leaves it, never on a move inside it", async () => {
    const h = host();
    const root = await renderPane(h);
    await waitFor(() => expect(h.cellCalls.read).toHaveLength(1));
    expect(h.cellCalls.read[0]).toEqual({ sheet: { id: "sheet-sales", name: "Sales" }, range: "B2:C5" });

    // Into the placement, and around inside it: nothing read.
    h.select(ctx("Sales", "B2", "sheet-sales"));
    await settle();
    h.type("Sales", "C4", 99);
    h.select(ctx("Sales", "C4", "sheet-sales"));
    await settle();
    h.select(ctx("Sales", "B5", "sheet-sales"));
    await settle();
    expect(h.cellCalls.read).toHaveLength(1);

    // Out of it: read once, and the edit shows.
    h.select(ctx("Sales", "H1", "sheet-sales"));
    await waitFor(() => expect(row(root).textContent).toContain("row 4 edited"));
    expect(h.cellCalls.read).toHaveLength(2);

    // Reload list: once more.
    await click(buttonByName(root, "Reload list"));
    await waitFor(() => expect(h.cellCalls.read).toHaveLength(3));
  });

  it("Refresh of an edited placement asks first; Cancel keeps the edits", async () => {
    const h = host();
    h.type("Sales", "C3", 10);
    h.context = ctx("Sales", "B2", "sheet-sales");
    const root = await renderPane(h);
    await waitFor(() => expect(row(root).textContent).toContain("row 3 edited"));
    const card = root.querySelector<HTMLElement>("[data-testid=selected-cell-card]")!;
    await click(buttonByName(card, "Refresh"));
    await waitFor(() =>
      expect(root.textContent).toContain(
        "Refresh will overwrite your edits in row 3 of Orders by region (Sales!B3:C3).",
      ),
    );
    await click(buttonByName(root, "Cancel"));
    await waitFor(() =>
      expect(root.textContent).toContain("Not refreshed: your edits in row 3 of Orders by region were kept."),
    );
    expect(h.cells.get("Sales!C3")).toBe(10);
    expect(h.cellCalls.record).toBe(0);

    // Asked again, Overwrite: refreshed, and no longer Edited.
    await click(buttonByName(card, "Refresh"));
    await waitFor(() => expect(root.textContent).toContain("Refresh will overwrite your edits"));
    await click(buttonByName(root, "Overwrite"));
    await waitFor(() => expect(h.cellCalls.record).toBe(1));
    await waitFor(() => expect(row(root).querySelector("[data-hand-edits]")).toBeNull());
  });
});

describe("editWatch, a range past the size limit", () => {
  it("is compared lazily, in slices, and says so until then", async () => {
    const rows = 60_000;
    const values = Array.from({ length: rows }, (_, i) => [`R${i}`, i]);
    const reads: string[] = [];
    const cellHost = {
      async readCells({ range }: { range: string }) {
        reads.push(range);
        const [a, b] = range.split(":");
        const top = Number(a!.slice(1));
        const bottom = Number(b!.slice(1));
        return values.slice(top - 1, bottom).map((r) => [...r]);
      },
    };
    const [big] = placedReports([
      report(3, "Big", [
        placement(resultChecksum(values), {
          anchorCell: "A1",
          endResultCell: `B${rows}`,
          resultLocation: `Sales!A1:B${rows}`,
        }),
      ]),
    ]);
    values[41_000]![1] = -1;
    const watch = createEditWatch(cellHost);
    await watch.checkAll([big!], [{ id: "sheet-sales", name: "Sales" }]);
    expect(watch.getSnapshot().get(big!.key)).toEqual({
      kind: "pending",
      text: "Hand edits: checking… (a large range of 120,000 cells, compared after the others)",
    });
    await watch.idle();
    expect(reads).toEqual(["A1:B25000", "A25001:B50000", "A50001:B60000"]);
    expect(watch.getSnapshot().get(big!.key)).toMatchObject({
      kind: "edited",
      text: "rows 40981-41010 edited",
    });
  });

  it("hashes the cells read a slice at a time, the pane's tasks running between the slices", async () => {
    const rows = 60_000;
    const values = Array.from({ length: rows }, (_, i) => [`R${i}`, i]);
    const cellHost = {
      async readCells({ range }: { range: string }) {
        const [a, b] = range.split(":");
        return values.slice(Number(a!.slice(1)) - 1, Number(b!.slice(1))).map((r) => [...r]);
      },
    };
    const [big] = placedReports([
      report(3, "Big", [
        placement(resultChecksum(values), {
          anchorCell: "A1",
          endResultCell: `B${rows}`,
          resultLocation: `Sales!A1:B${rows}`,
        }),
      ]),
    ]);
    const watch = createEditWatch(cellHost);
    // A task after every task: what the hash count was each time the pane could handle input.
    hashes.count = 0;
    const seen: number[] = [];
    let ticking = true;
    const tick = () => {
      seen.push(hashes.count);
      if (ticking) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    await watch.checkAll([big!], [{ id: "sheet-sales", name: "Sales" }]);
    await watch.idle();
    ticking = false;
    const total = hashes.count;
    expect(total).toBe(2_000);
    // Tasks ran while part of the chunks was hashed: never all of them in one piece of work.
    expect(seen.some((n) => n > 0 && n < total)).toBe(true);
    expect(watch.getSnapshot().get(big!.key)).toBeUndefined();
  });
});
