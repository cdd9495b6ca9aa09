// @vitest-environment jsdom
/**
 * One Tab stop for the list: only the active row's buttons (the placement and its "…" menu) are in
 * the Tab order; the arrow keys move between rows, and the row focus moved to becomes the stop.
 */
import { act } from "react";
import { describe, expect, it } from "vitest";
import { ctx, FakeHost, settle, waitFor } from "../support/fakeHost.js";
import { manyPlacements } from "../support/many-placements.js";
import { renderPane } from "../support/pane.js";

function tabStops(root: ParentNode): HTMLElement[] {
  const list = root.querySelector("li[data-placement-key]")?.closest("section")?.parentElement ?? root;
  return [...list.querySelectorAll<HTMLElement>("li[data-placement-key] button")].filter(
    (b) => b.tabIndex >= 0 && !b.closest("[hidden]"),
  );
}

function rowOf(el: Element | null): string | undefined {
  return el?.closest<HTMLElement>("li[data-placement-key]")?.dataset.placementKey;
}

async function press(el: Element, key: string): Promise<void> {
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

describe("the list's Tab stops", () => {
  it("twelve placements: the list and the active row's menu are two stops, not twenty-four", async () => {
    const root = await renderPane(manyPlacements(12));
    await waitFor(() => expect(root.querySelectorAll("li[data-placement-key]")).toHaveLength(12));
    await settle();
    const stops = tabStops(root);
    expect(stops).toHaveLength(2);
    expect(new Set(stops.map(rowOf)).size).toBe(1);
    expect(stops[0]?.hasAttribute("data-placement-select")).toBe(true);
  });

  it("the current placement's row is the stop; an arrow key moves focus and the stop with it", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4", "sheet-sales") });
    const root = await renderPane(host);
    await waitFor(() => expect(root.querySelector('li[aria-current="true"]')).not.toBeNull());
    await settle();
    const current = root.querySelector<HTMLElement>('li[aria-current="true"]')!;
    expect(tabStops(root).map(rowOf)).toEqual([current.dataset.placementKey, current.dataset.placementKey]);

    const select = current.querySelector<HTMLElement>("[data-placement-select]")!;
    select.focus();
    await press(select, "ArrowDown");
    await settle();
    const moved = rowOf(document.activeElement);
    expect(moved).toBeDefined();
    expect(moved).not.toBe(current.dataset.placementKey);
    expect(new Set(tabStops(root).map(rowOf))).toEqual(new Set([moved]));
  });

  it("focus alone (a click) does not move the stop; the Tab key leaving a row makes it the stop", async () => {
    const root = await renderPane(manyPlacements(12));
    await waitFor(() => expect(root.querySelectorAll("li[data-placement-key]")).toHaveLength(12));
    await settle();
    const [first, , third] = [...root.querySelectorAll<HTMLElement>("li[data-placement-key]")];
    expect(new Set(tabStops(root).map(rowOf))).toEqual(new Set([first!.dataset.placementKey]));

    const select = third!.querySelector<HTMLElement>("[data-placement-select]")!;
    await act(async () => select.focus());
    await settle();
    expect(new Set(tabStops(root).map(rowOf))).toEqual(new Set([first!.dataset.placementKey]));

    await press(select, "Tab");
    await settle();
    expect(new Set(tabStops(root).map(rowOf))).toEqual(new Set([third!.dataset.placementKey]));
  });
});
