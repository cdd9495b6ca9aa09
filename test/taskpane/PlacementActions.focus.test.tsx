// @vitest-environment jsdom
/**
 * A row's "…" button is the row's own from the first frame; only the menu behind it is a lazy
 * chunk, mounted while open. The button is never swapped for another element (a swap under a
 * focused or pressed button left focus on the page's body and the press on a detached node), and
 * the menu, opened from the keyboard, gives focus back to it when it closes.
 */
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { ctx, FakeHost, settle, waitFor } from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

// The menu's chunk is held until the test lets it go.
const chunk = vi.hoisted(() => {
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { arrived, release };
});
vi.mock("../../taskpane/PlacementActions.js", async (importOriginal) => {
  await chunk.arrived;
  return importOriginal();
});

const rows = () => [...document.querySelectorAll<HTMLLIElement>("li[data-placement-key]")];
const menuButton = (row: Element) => row.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]')!;
const menuItems = () => [...document.querySelectorAll<HTMLElement>('[role="menuitem"]')];

function key(target: Element, k: string) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  });
}

describe("a row's … button and its lazily loaded menu", () => {
  it("stays the same focused element when the menu's code arrives; the down arrow opens the menu, Escape returns to the button", async () => {
    await renderPane(new FakeHost({ context: ctx("Sales", "A1") }));
    await waitFor(() => expect(rows().length).toBeGreaterThan(2));
    const row = rows()[1]!;
    const button = menuButton(row);
    button.focus();
    expect(document.activeElement).toBe(button);

    // The down arrow asks for the menu before its code is there: it opens once the code arrives.
    key(button, "ArrowDown");
    expect(button.getAttribute("aria-expanded")).toBe("true");
    chunk.release();
    await waitFor(() => expect(menuItems().length).toBeGreaterThan(0));
    await settle();

    expect(button.isConnected).toBe(true);
    expect(menuButton(rows()[1]!)).toBe(button);
    // (Focus moving onto the first item needs layout: the Chromium keyboard walk checks it.)
    const first = menuItems()[0]!;
    act(() => first.focus());
    key(first, "Escape");
    await settle();
    expect(menuItems()).toEqual([]);
    expect(document.activeElement).toBe(button);
    expect(button.hasAttribute("aria-expanded")).toBe(false);
  }, 60_000);

  it("closes on a second press of its button, without opening again", async () => {
    chunk.release();
    await renderPane(new FakeHost({ context: ctx("Sales", "A1") }));
    await waitFor(() => expect(rows().length).toBeGreaterThan(2));
    const button = menuButton(rows()[2]!);
    await act(async () => {
      button.click();
    });
    await waitFor(() => expect(menuItems().length).toBeGreaterThan(0));
    // A press as a browser makes it: mousedown, mouseup, click on the button.
    await act(async () => {
      for (const type of ["mousedown", "mouseup"])
        button.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true }));
      button.click();
    });
    await settle();
    expect(menuItems()).toEqual([]);
    expect(button.isConnected).toBe(true);
  }, 60_000);
});
