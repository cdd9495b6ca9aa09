/**
 * The one way the task pane's tests put the pane into jsdom. `renderPane(host)` mounts the pane as
 * every host does (`mountTaskPane`) into a container on the page, lets it settle, and returns the
 * container. Every pane rendered is unmounted, and the page emptied (Fluent's menus and toasts live
 * in portals outside the container), after each test: this module registers that `afterEach` when a
 * test file imports it, so a test file keeps no pane bookkeeping of its own.
 *
 * The jsdom stand-ins Fluent needs (matchMedia, ResizeObserver) and React's act environment come
 * with `./fakeHost.js`, imported here.
 */
import { act } from "react";
import { afterEach } from "vitest";
import type { SpreadsheetHost } from "../../src/hosts/host.js";
import { mountTaskPane } from "../../taskpane/mount.js";
import { settle, waitFor } from "./fakeHost.js";

export interface PaneOptions {
  /**
   * What the pane must show before the test goes on, beyond the first settle: a check that throws
   * until it holds (lazy parts take a few rounds), e.g. `(root) => fieldByLabel(root, "Ask the agent")`.
   */
  until?: (root: HTMLElement) => unknown;
}

const mounted: (() => void)[] = [];

afterEach(() => {
  for (const unmount of mounted.splice(0)) unmount();
  document.body.innerHTML = "";
});

/** Renders the task pane for `host`; returns its container. Unmounted after the test. */
export async function renderPane(host: SpreadsheetHost, options: PaneOptions = {}): Promise<HTMLElement> {
  const container = document.createElement("div");
  document.body.append(container);
  let unmount: () => void = () => {};
  await act(async () => {
    unmount = mountTaskPane(container, host);
  });
  mounted.push(() => {
    act(() => unmount());
    container.remove();
  });
  await settle();
  const { until } = options;
  if (until) await waitFor(() => until(container));
  return container;
}

/**
 * The items of the menu just opened, once it shows: a row's menu is a lazy chunk, mounted when it
 * opens (taskpane/PlacementActions.tsx), so it may arrive a moment after the press.
 */
export async function openedMenuItems(): Promise<HTMLElement[]> {
  let items: HTMLElement[] = [];
  await waitFor(() => {
    items = [...document.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    if (items.length === 0) throw new Error("no menu is open");
  });
  return items;
}
