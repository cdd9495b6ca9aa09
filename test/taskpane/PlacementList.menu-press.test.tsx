// @vitest-environment jsdom
/**
 * A press on a row's "…" button opens its menu, also when the menu's code (a lazy chunk) arrives
 * while the button is pressed. The button used to be a placeholder that the menu's own button
 * replaced when the chunk arrived: a render between the press (mousedown, which focuses the button)
 * and its click swapped them mid-press, the click landed on a button no longer in the page, no menu
 * opened and focus fell to the page's body. The button is now the row's own throughout.
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

describe("a press on a row's … button", () => {
  it("opens the menu when the menu's code arrives between the press and its click", async () => {
    // No placement under A1: the first row is the list's Tab stop; the press is on another row.
    await renderPane(new FakeHost({ context: ctx("Sales", "A1") }));
    await waitFor(() => expect(rows().length).toBeGreaterThan(2));
    const row = rows()[1]!;
    const pressed = menuButton(row);
    expect(pressed.getAttribute("title")).toBe("Actions");

    // The chunk arrives; React has not shown the menu's button yet (its retry is a task away).
    chunk.release();
    await import("../../taskpane/PlacementActions.js");
    for (let i = 0; i < 5; i++) await Promise.resolve();

    // The press, as a browser makes it: mousedown focuses the button; the microtasks in between
    // run (React's updates of the focus event); then the click on the element pressed.
    pressed.dispatchEvent(new MouseEvent("mousedown", { bubbles: true, cancelable: true }));
    pressed.focus();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await act(async () => {
      pressed.click();
    });
    await settle();

    expect([...document.querySelectorAll('[role="menuitem"]')].map((m) => m.textContent)).toContain(
      "Disconnect this placement",
    );
  }, 60_000);
});
