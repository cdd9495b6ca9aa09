// @vitest-environment jsdom
/**
 * A long placement list (20,000 placements, ten times the service's cap per document) renders only
 * the rows in view: a bounded number in the DOM, the others reached by scrolling or by the arrow
 * keys; selecting a placement still selects its range. A short list renders every row.
 *
 * jsdom lays nothing out: the list's scrolling region is given a 400 px viewport and every row a
 * 60 px height, what a browser would measure, and scrolling moves scrollTop and fires "scroll".
 */
import { act } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { click, SHEETS, settle, waitFor } from "../support/fakeHost.js";
import { manyPlacements } from "../support/many-placements.js";
import { renderPane } from "../support/pane.js";

const VIEWPORT = 400;
const ROW = 60;
const N = 20_000;

const restore: (() => void)[] = [];
beforeAll(() => {
  const client = Object.getOwnPropertyDescriptor(Element.prototype, "clientHeight");
  Object.defineProperty(Element.prototype, "clientHeight", {
    configurable: true,
    get(this: Element) {
      return this.hasAttribute("data-placement-scroller") ? VIEWPORT : 0;
    },
  });
  // The region scrolls over the whole list, as high as the list says it is.
  const scrollHeight = Object.getOwnPropertyDescriptor(Element.prototype, "scrollHeight");
  Object.defineProperty(Element.prototype, "scrollHeight", {
    configurable: true,
    get(this: Element) {
      if (!this.hasAttribute("data-placement-scroller")) return 0;
      return Number.parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? "0") || 0;
    },
  });
  const offset = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "offsetHeight");
  Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.tagName === "LI" && this.hasAttribute("data-index") ? ROW : 0;
    },
  });
  // Scrolling moves the region's scrollTop and fires its scroll event, as a browser does.
  const scrollTo = Element.prototype.scrollTo;
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
    const top = typeof options === "object" ? options.top : undefined;
    if (top !== undefined) scrollRegion(this as HTMLElement, top);
  } as typeof Element.prototype.scrollTo;
  restore.push(() => {
    if (client) Object.defineProperty(Element.prototype, "clientHeight", client);
    if (scrollHeight) Object.defineProperty(Element.prototype, "scrollHeight", scrollHeight);
    if (offset) Object.defineProperty(HTMLElement.prototype, "offsetHeight", offset);
    Element.prototype.scrollTo = scrollTo;
  });
});
afterAll(() => {
  for (const r of restore) r();
});

function scrollRegion(el: HTMLElement, top: number) {
  Object.defineProperty(el, "scrollTop", { configurable: true, value: top });
  el.dispatchEvent(new Event("scroll"));
}

const rows = () => [...document.querySelectorAll<HTMLLIElement>("li[data-placement-key]")];
const scroller = () => document.querySelector<HTMLElement>("[data-placement-scroller]") as HTMLElement;
/** The long list's code is a chunk of its own (VirtualRows.tsx): its rows come once it has loaded. */
const longListShown = { until: () => expect(scroller()).not.toBeNull() };

describe("a long placement list", () => {
  it("renders a bounded number of its 20,000 rows, and others as it scrolls", async () => {
    const root = await renderPane(manyPlacements(N), longListShown);
    expect(root.textContent).toContain(String(N)); // the count by the heading
    const first = rows();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(40);
    expect(first[0]?.textContent).toContain("Sales!B2:E3");
    // Each row says where it stands in the whole list.
    expect(Number(first[0]?.getAttribute("aria-setsize"))).toBeGreaterThan(N);

    // Halfway down: the rows there are rendered, the first ones are not.
    await act(async () => scrollRegion(scroller(), (N / 2) * (ROW + 4)));
    await settle();
    const middle = rows();
    expect(middle.length).toBeLessThan(40);
    expect(middle.some((li) => li.dataset.placementKey === first[0]?.dataset.placementKey)).toBe(false);
    expect(Number(middle[0]?.getAttribute("aria-posinset"))).toBeGreaterThan(N / 3);
  });

  it("selects a row's range in the workbook after scrolling to it", async () => {
    const host = manyPlacements(N);
    await renderPane(host, longListShown);
    await act(async () => scrollRegion(scroller(), 5000 * (ROW + 4)));
    await settle();
    const row = rows()[3] as HTMLLIElement;
    await click(row.querySelector("button") as HTMLButtonElement);
    const where = /(Sales|Regions|Pipeline)!(B\d+:E\d+)/.exec(row.textContent ?? "");
    expect(where).not.toBeNull();
    expect(host.calls.selectRange.at(-1)).toMatchObject({ sheetName: where?.[1], range: where?.[2] });
  });

  it("moves focus between rows with the arrow keys, End reaching the last row of 20,000", async () => {
    await renderPane(manyPlacements(N), longListShown);
    const first = rows()[0]?.querySelector("button") as HTMLButtonElement;
    first.focus();
    const press = (key: string) =>
      act(async () => {
        (document.activeElement as HTMLElement).dispatchEvent(
          new KeyboardEvent("keydown", { key, bubbles: true }),
        );
      });
    await press("ArrowDown");
    await settle();
    expect(document.activeElement?.closest("li")?.textContent).toContain("Sales!B5:E6");
    await press("End");
    await waitFor(() => expect(document.activeElement?.closest("li")?.textContent).toContain("Pipeline!"));
    expect(rows().length).toBeLessThan(40);
    // The last row is Pipeline's (the last sheet) lowest placement: the last i with i % 3 === 2.
    const last = N - 1 - ((N - 1 - 2) % SHEETS.length);
    const lastRow = 3 * Math.floor(last / SHEETS.length) + 2;
    expect(document.activeElement?.closest("li")?.textContent).toContain(`B${lastRow}:E${lastRow + 1}`);
  });

  it("a short list renders every row, for tests and screen readers alike", async () => {
    await renderPane(manyPlacements(90));
    expect(rows()).toHaveLength(90);
    expect(document.querySelector("[data-placement-scroller]")).toBeNull();
  });
});
