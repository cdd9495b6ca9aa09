// @vitest-environment jsdom
/**
 * A long list's first paint does not wait for the virtualiser's code (its own chunk): while that
 * loads, the first rows show as a plain list, in the order and with the names the virtualised list
 * then shows.
 */
import { expect, it, vi } from "vitest";
import { waitFor } from "../support/fakeHost.js";
import { manyPlacements } from "../support/many-placements.js";
import { renderPane } from "../support/pane.js";

const chunk = vi.hoisted(() => {
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  return { held, release: () => release() };
});
vi.mock("../../taskpane/VirtualRows.js", async (importOriginal) => {
  await chunk.held;
  return importOriginal();
});

const rows = () => [...document.querySelectorAll<HTMLLIElement>("li[data-placement-key]")];
const scroller = () => document.querySelector("[data-placement-scroller]");

it("shows a long list's first rows while the virtualiser loads, then hands over to it", async () => {
  await renderPane(manyPlacements(500), { until: () => expect(rows().length).toBeGreaterThan(0) });
  expect(scroller()).toBeNull(); // the virtualiser has not loaded
  const first = rows();
  expect(first.length).toBeGreaterThanOrEqual(10);
  expect(first.length).toBeLessThan(100);
  expect(first[0]?.textContent).toContain("Sales!B2:E3");
  expect(first[1]?.textContent).toContain("Sales!B5:E6");

  chunk.release();
  // The virtualiser takes over (jsdom lays nothing out, so it renders no rows here: see
  // PlacementList.virtual.test.tsx for its rows).
  await waitFor(() => expect(scroller()).not.toBeNull());
});
