// @vitest-environment jsdom
/**
 * A long list is indexed for the selection's lookups once the browser is idle after it is shown
 * (indexWhenIdle.ts): not on the first list's path, not for a short list, and not for a list that
 * was replaced or closed before it came to it.
 */
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { indexPlacements } from "../../src/core/placement-index.js";
import type { ReportPlacement } from "../../src/core/schema.js";
import { useIndexWhenIdle } from "../../taskpane/indexWhenIdle.js";

vi.mock("../../src/core/placement-index.js", () => ({ indexPlacements: vi.fn() }));

const list = (n: number): ReportPlacement[] =>
  Array.from({ length: n }, (_, i) => ({ workbookId: "wb", resultLocation: `Sales!B${i + 2}` }));

function Probe({ placed }: { placed: readonly ReportPlacement[] }) {
  useIndexWhenIdle(placed);
  return null;
}

const host = document.createElement("div");
document.body.append(host);
let root = createRoot(host);

/** The browser's idle callbacks, run when the test says the browser is idle. */
const idleQueue: (() => void)[] = [];
const g = globalThis as { requestIdleCallback?: (run: () => void) => void };

beforeEach(() => {
  g.requestIdleCallback = (run) => idleQueue.push(run);
  vi.mocked(indexPlacements).mockClear();
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  idleQueue.length = 0;
  delete g.requestIdleCallback;
});

/** The lists indexed so far. */
const indexed = () => vi.mocked(indexPlacements).mock.calls.map((call) => call[0]);

/** The browser idle: every idle callback runs; then waits until `list` is indexed (its chunk loaded). */
async function idleUntilIndexed(list: readonly ReportPlacement[]) {
  for (const run of idleQueue.splice(0)) run();
  await vi.waitFor(() => expect(indexed()).toContain(list));
}

it("indexes a list of more than 100 placements once idle, not while it is first drawn", async () => {
  const long = list(101);
  act(() => root.render(<Probe placed={long} />));
  expect(idleQueue).toHaveLength(1);
  expect(indexPlacements).not.toHaveBeenCalled();
  await idleUntilIndexed(long);
  expect(indexed()).toEqual([long]);
});

it("leaves a list of 100 placements or fewer to be gone through: nothing is even scheduled", () => {
  act(() => root.render(<Probe placed={list(100)} />));
  expect(idleQueue).toHaveLength(0);
});

it("indexes only the list shown: one replaced before the browser was idle is not indexed", async () => {
  const first = list(150);
  const second = list(150);
  act(() => root.render(<Probe placed={first} />));
  act(() => root.render(<Probe placed={second} />));
  await idleUntilIndexed(second);
  expect(indexed()).toHaveLength(1);
  expect(indexed()[0]).toBe(second);
});

it("indexes nothing once the pane is gone", async () => {
  const closed = list(150);
  act(() => root.render(<Probe placed={closed} />));
  act(() => root.unmount());
  // Another pane's list, shown after: once it is indexed, the closed one's turn has come and gone.
  root = createRoot(host);
  const shown = list(150);
  act(() => root.render(<Probe placed={shown} />));
  await idleUntilIndexed(shown);
  expect(indexed()).toHaveLength(1);
  expect(indexed()[0]).toBe(shown);
});
