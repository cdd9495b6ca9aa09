// @vitest-environment jsdom
/**
 * Where keyboard focus goes after "Disconnect this placement" (the "…" menu) removes the row it
 * was on: to the next placement's row, else the previous one, else the list's heading; never to
 * the page's body.
 */
import { describe, expect, it } from "vitest";
import { click, ctx, FakeHost, report, settle, WORKBOOK_ID, waitFor } from "../support/fakeHost.js";
import { openedMenuItems, renderPane } from "../support/pane.js";

function row(key: string): HTMLLIElement {
  const li = document.querySelector<HTMLLIElement>(`li[data-placement-key="${key}"]`);
  if (!li) throw new Error(`no row ${key}`);
  return li;
}

/** The row's own button (the one that selects the placement), what focus should land on. */
const selectButton = (key: string) => row(key).querySelector("button") as HTMLButtonElement;

async function disconnectFromMenu(key: string): Promise<void> {
  const trigger = row(key).querySelector('button[aria-haspopup="menu"]') as HTMLButtonElement;
  trigger.focus();
  await click(trigger);
  const item = (await openedMenuItems()).find((m) => m.textContent === "Disconnect this placement");
  if (!item) throw new Error("no Disconnect this placement item");
  item.focus();
  await click(item);
  await settle();
  await waitFor(() => expect(document.querySelector(`li[data-placement-key="${key}"]`)).toBeNull());
  await settle();
}

describe("focus after Disconnect this placement", () => {
  it("moves to the next placement's row", async () => {
    await renderPane(new FakeHost({ context: ctx("Sales", "A1") }));
    // Sales lists Revenue by region (B2:F20), then Top customers (H2:J10).
    await disconnectFromMenu("p:p-rev-sales");
    expect(document.activeElement).toBe(selectButton("p:p-top"));
  });

  it("moves to the next sheet's first row when the sheet's last row goes", async () => {
    await renderPane(new FakeHost({ context: ctx("Sales", "A1") }));
    await disconnectFromMenu("p:p-top");
    expect(document.activeElement).toBe(selectButton("p:p-rev-regions"));
  });

  it("moves to the previous row when the last row of the list goes", async () => {
    await renderPane(new FakeHost({ context: ctx("Sales", "A1") }));
    const last = [...document.querySelectorAll<HTMLLIElement>("li[data-placement-key]")].at(-1);
    expect(last?.textContent).toContain("Pipeline by stage");
    await disconnectFromMenu(last!.dataset.placementKey!);
    expect(document.activeElement).toBe(selectButton("p:p-rev-regions"));
  });

  it("moves to the list's heading when no placement is left", async () => {
    const host = new FakeHost({
      context: ctx("Sales", "A1"),
      reports: [
        report(7, "Only one", [
          {
            id: "p-only",
            workbookId: WORKBOOK_ID,
            sheetId: "sheet-sales",
            sheetName: "Sales",
            anchorCell: "B2",
            resultLocation: "Sales!B2",
          },
        ]),
      ],
    });
    await renderPane(host);
    await disconnectFromMenu("p:p-only");
    expect(document.body.textContent).toContain("No reports are placed in this workbook yet.");
    const focused = document.activeElement as HTMLElement | null;
    expect(focused?.tagName).toBe("H2");
    expect(focused?.textContent).toBe("Reports in this workbook");
  });
});
