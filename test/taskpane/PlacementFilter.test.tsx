// @vitest-environment jsdom
/**
 * Search the list: past ten placements a filter box narrows the list by report name, sheet and
 * address; a short list has none.
 */
import { describe, expect, it } from "vitest";
import { filterPlacements } from "../../taskpane/placementFilter.js";
import { FakeHost, SHEETS, typeInto, waitFor } from "../support/fakeHost.js";
import { manyPlacements } from "../support/many-placements.js";
import { renderPane } from "../support/pane.js";

function filterBox(root: ParentNode): HTMLInputElement | null {
  return root.querySelector<HTMLInputElement>('input[aria-label="Filter reports"]');
}

function listed(root: ParentNode): number {
  return root.querySelectorAll("li[data-placement-key]").length;
}

describe("the list's filter box", () => {
  it("is not shown for ten placements or fewer", async () => {
    const root = await renderPane(new FakeHost());
    await waitFor(() => expect(listed(root)).toBeGreaterThan(0));
    expect(filterBox(root)).toBeNull();
  });

  it("narrows a long list by report name, then by sheet and cell, and says how many are shown", async () => {
    const root = await renderPane(manyPlacements(24));
    await waitFor(() => expect(filterBox(root)).not.toBeNull());
    expect(listed(root)).toBe(24);

    await typeInto(filterBox(root) as HTMLInputElement, "report 3");
    // "Report 3" (placements 2 and 22), not "Report 13".
    await waitFor(() => expect(root.textContent).toContain("2 of 24 shown"));
    expect(listed(root)).toBe(2);

    await typeInto(filterBox(root) as HTMLInputElement, `${SHEETS[1]!.name.toLowerCase()}!b2:`);
    await waitFor(() => expect(listed(root)).toBe(1));

    await typeInto(filterBox(root) as HTMLInputElement, "nothing like this");
    await waitFor(() => expect(root.textContent).toContain('No report matches "nothing like this".'));
    expect(listed(root)).toBe(0);

    await typeInto(filterBox(root) as HTMLInputElement, "");
    await waitFor(() => expect(listed(root)).toBe(24));
  });

  it("keeps a long list in its scrolling region while it is filtered, and the current placement in it", async () => {
    // 300 placements over 20 reports: "report 3" leaves 15, few enough to render whole, but the
    // list keeps the region it scrolls in (the same element), so it neither jumps nor re-renders
    // every row while the user types.
    const root = await renderPane(manyPlacements(300));
    await waitFor(() => expect(filterBox(root)).not.toBeNull());
    await waitFor(() => expect(root.querySelector("[data-placement-scroller]")).not.toBeNull());
    const region = root.querySelector("[data-placement-scroller]");

    await typeInto(filterBox(root) as HTMLInputElement, "report 3");
    await waitFor(() => expect(root.textContent).toContain("15 of 300 shown"));
    expect(root.querySelector("[data-placement-scroller]")).toBe(region);

    await typeInto(filterBox(root) as HTMLInputElement, "");
    await waitFor(() => expect(root.textContent).not.toContain("of 300 shown"));
    expect(root.querySelector("[data-placement-scroller]")).toBe(region);
  });

  it("matches what was typed as a phrase, in any case, in the name or the address", () => {
    const host = manyPlacements(30);
    const here = host.reports.flatMap((r) =>
      (r.externalWorkbookPlacements ?? []).map((p) => ({ ...p, report: r, key: `${r.id}:${p.id}` })),
    );
    expect(filterPlacements(here, SHEETS, "")).toBe(here);
    expect(filterPlacements(here, SHEETS, "REPORT 1 ").map((p) => p.report.name)).toEqual(
      here.filter((p) => p.report.name.toLowerCase().includes("report 1")).map((p) => p.report.name),
    );
    expect(filterPlacements(here, SHEETS, "  regions!B2: ").map((p) => p.id)).toEqual(["v-1"]);
    // A phrase never runs from the name on into the address.
    expect(filterPlacements(here, SHEETS, `report 2 ${SHEETS[1]!.name}`)).toEqual([]);
    // Asked again with the same list (the text of each placement kept), the same answer.
    expect(filterPlacements(here, SHEETS, "REPORT 1 ")).toEqual(filterPlacements(here, SHEETS, "report 1"));
  });
});
