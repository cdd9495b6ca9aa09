// @vitest-environment jsdom
/**
 * "Place a report here" (taskpane/PlacePicker.tsx): offered where no report is under the cell and
 * the host can place; the deployment's reports by name, searched, the ones here marked; Place writes
 * the cells, records the placement, lists it Up to date and makes it the current one; the overwrite
 * question when cells are not empty.
 */
import { describe, expect, it } from "vitest";
import { resultChecksum } from "../../src/core/result-checksum.js";
import {
  buttonByName,
  CellsFakeHost,
  click,
  ctx,
  FakeHost,
  fieldByLabel,
  queryButton,
  report,
  typeInto,
  WORKBOOK_ID,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

const placedHere = report(7, "Revenue by region", [
  {
    id: "p-rev",
    workbookId: WORKBOOK_ID,
    sheetId: "sheet-sales",
    sheetName: "Sales",
    anchorCell: "B2",
    endResultCell: "C5",
    resultLocation: "Sales!B2:C5",
    syncStatus: "UP_TO_DATE",
    resultChecksum: resultChecksum([["x"]]),
  },
]);

function host() {
  const h = new CellsFakeHost({ reports: [placedHere], context: ctx("Sales", "E10", "sheet-sales") });
  h.catalogue = [
    placedHere,
    report(8, "Orders by region", []),
    report(9, "Pipeline by stage", []),
    { ...report(10, "Finance", []), type: "FOLDER" },
  ];
  return h;
}

function radios(root: ParentNode): HTMLInputElement[] {
  return [...root.querySelectorAll<HTMLInputElement>("input[type=radio]")];
}

function radioNamed(root: ParentNode, name: string): HTMLInputElement {
  const found = radios(root).find((r) => r.closest("span")?.textContent?.startsWith(name));
  if (!found) throw new Error(`no option ${name}`);
  return found;
}

async function openPicker(root: HTMLElement) {
  await click(buttonByName(root, "Place a report here"));
  await waitFor(() => radioNamed(root, "Orders by region"));
}

describe("Place a report here", () => {
  it("is offered only where no report is under the cell, and only where the host can place", async () => {
    const root = await renderPane(host());
    expect(queryButton(root, "Place a report here")).toBeDefined();
    const h2 = host();
    h2.context = ctx("Sales", "B3", "sheet-sales");
    const under = await renderPane(h2);
    expect(queryButton(under, "Place a report here")).toBeUndefined();
    const plain = await renderPane(new FakeHost({ context: ctx("Sales", "Z99", "sheet-sales") }));
    expect(queryButton(plain, "Place a report here")).toBeUndefined();
  });

  it("lists the deployment's reports by name, marks the ones here, and searches by name", async () => {
    const root = await renderPane(host());
    await openPicker(root);
    expect(radios(root).map((r) => r.closest("span")?.textContent)).toEqual([
      "Revenue by region · in this workbook",
      "Orders by region",
      "Pipeline by stage",
    ]);
    const marked = radioNamed(root, "Revenue by region");
    expect(document.getElementById(marked.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Already placed in this workbook",
    );
    expect(radioNamed(root, "Orders by region").getAttribute("aria-describedby")).toBeNull();
    await typeInto(fieldByLabel(root, "Search reports") as HTMLInputElement, "STAGE");
    await waitFor(() => expect(radios(root)).toHaveLength(1));
    expect(radios(root)[0]?.closest("span")?.textContent).toBe("Pipeline by stage");
  });

  it("Place writes the cells, records the placement, and lists it Up to date as the current one", async () => {
    const h = host();
    const root = await renderPane(h);
    await openPicker(root);
    expect(buttonByName(root, "Place").getAttribute("aria-disabled")).toBe("true");
    await click(radioNamed(root, "Orders by region"));
    await click(buttonByName(root, "Place"));
    await waitFor(() => expect(root.textContent).toContain("Placed Orders by region at Sales!E10:F13."));
    expect(h.cells.get("Sales!E10")).toBe("Orders Region");
    expect(h.cells.get("Sales!F13")).toBe(3);
    expect(h.cellCalls.connect).toBe(1);
    const item = [...root.querySelectorAll("li[data-placement-key]")].find((li) =>
      li.textContent?.includes("Orders by region"),
    );
    expect(item?.textContent).toContain("Up to date");
    expect(item?.getAttribute("aria-current")).toBe("true");
    const card = root.querySelector("[data-testid=selected-cell-card]")!;
    expect(card.textContent).toContain("Orders by region");
    expect(queryButton(root, "Place a report here")).toBeUndefined();
    expect(document.activeElement).toBe(card);
  });

  it("asks before overwriting cells that are not empty; Cancel places nothing", async () => {
    const h = host();
    h.type("Sales", "F12", "mine");
    const root = await renderPane(h);
    await openPicker(root);
    await click(radioNamed(root, "Orders by region"));
    await click(buttonByName(root, "Place"));
    await waitFor(() =>
      expect(root.textContent).toContain(
        "Orders by region placed here covers Sales!E10:F13, and F12 is not empty. Overwrite those cells?",
      ),
    );
    const cancel = [...root.querySelectorAll("button")].filter((b) => b.textContent === "Cancel")[0]!;
    await click(cancel);
    await waitFor(() => expect(root.textContent).toContain("Not placed: Orders by region would overwrite"));
    expect(h.cells.get("Sales!F12")).toBe("mine");
    expect(h.cellCalls.connect).toBe(0);
  });
});
