// @vitest-environment jsdom
/**
 * How a placement reads in a narrow pane (300 px): long report names and "refreshed …" wrap onto
 * at most two lines instead of being cut on one, and the row and the selected-cell card carry every
 * field in their tooltip; the "…" menu's items all have icons; the active cell reads in the UI font.
 */
import { act } from "react";
import { describe, expect, it } from "vitest";
import { click, ctx, FakeHost, report, WORKBOOK_ID } from "../support/fakeHost.js";
import { openedMenuItems, renderPane } from "../support/pane.js";

const LONG_NAME =
  "Quarterly revenue by region, product line and sales channel, restated for the 2024 reorganisation";

function hostWithLongName(): FakeHost {
  const host = new FakeHost({ context: ctx("Sales", "M3") });
  host.reports = [
    ...host.reports,
    report(150, LONG_NAME, [
      {
        id: "p-long",
        workbookId: WORKBOOK_ID,
        sheetId: "sheet-sales",
        sheetName: "Sales",
        anchorCell: "L2",
        resultLocation: "Sales!L2",
        endResultCell: "P40",
        syncStatus: "CHANGED",
        refreshedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
      },
    ]),
  ];
  return host;
}

function longItem(root: ParentNode): HTMLLIElement {
  const li = root.querySelector<HTMLLIElement>('li[data-placement-key="p:p-long"]');
  if (!li) throw new Error("no long placement");
  return li;
}

/** The element whose own text is exactly `text` (the name's Text, not its container). */
function elementWithText(root: Element, text: string): HTMLElement {
  const found = [...root.querySelectorAll<HTMLElement>("*")].find(
    (el) => el.textContent === text && el.children.length <= 1 && el.tagName !== "BDI",
  );
  if (!found) throw new Error(`no element reading "${text}"`);
  return found;
}

describe("long names at 300 px", () => {
  it("a listed placement's name and meta line wrap onto at most two lines, not cut on one", async () => {
    const root = await renderPane(hostWithLongName());
    const li = longItem(root);
    const name = elementWithText(li, LONG_NAME);
    expect(getComputedStyle(name).whiteSpace).not.toBe("nowrap");
    expect(getComputedStyle(name).overflow).toBe("hidden");
    const meta = [...li.querySelectorAll<HTMLElement>("*")].find((el) =>
      /^Sales!L2:P40 · refreshed 3 hours ago$/.test(el.textContent ?? ""),
    );
    expect(meta).toBeDefined();
    expect(getComputedStyle(meta as HTMLElement).whiteSpace).not.toBe("nowrap");
  });

  it("the row's tooltip carries every field: name, where, status and when refreshed", async () => {
    const root = await renderPane(hostWithLongName());
    const select = longItem(root).querySelector("button") as HTMLButtonElement;
    const title = select.getAttribute("title") ?? "";
    expect(title).toContain(LONG_NAME);
    expect(title).toContain("Sales!L2:P40");
    expect(title).toContain("Out of date");
    expect(title).toContain("refreshed 3 hours ago");
  });

  it("the selected-cell card wraps the name too and its tooltip carries every field", async () => {
    const root = await renderPane(hostWithLongName());
    const card = root.querySelector('section[aria-labelledby="cell-heading"]') as HTMLElement;
    const name = elementWithText(card, LONG_NAME);
    expect(getComputedStyle(name).whiteSpace).not.toBe("nowrap");
    const titled = [...card.querySelectorAll<HTMLElement>("[title]")].map((el) => el.title);
    const all = titled.find((t) => t.includes(LONG_NAME)) ?? "";
    expect(all).toContain("Sales!L2:P40");
    expect(all).toContain("Out of date");
    expect(all).toContain("refreshed 3 hours ago");
  });
});

describe("polish", () => {
  it("every item of a placement's menu has an icon", async () => {
    const root = await renderPane(hostWithLongName());
    await click(longItem(root).querySelector('button[aria-haspopup="menu"]') as HTMLElement);
    const menuItems = await openedMenuItems();
    expect(menuItems.map((m) => m.textContent)).toEqual(["Select in workbook", "Disconnect this placement"]);
    for (const item of menuItems) expect(item.querySelector("svg"), item.textContent ?? "").not.toBeNull();
  });

  it("the active cell's address reads in the UI font, not a monospace one", async () => {
    const host = hostWithLongName();
    const root = await renderPane(host);
    await act(async () => host.select(ctx("Sales", "C4")));
    const cell = root.querySelector('[data-testid="active-cell"]') as HTMLElement;
    expect(cell.textContent).toBe("Sales!C4");
    expect(getComputedStyle(cell).fontFamily).not.toMatch(/monospace/i);
  });
});
