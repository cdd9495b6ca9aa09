// @vitest-environment jsdom
/**
 * A row's "…" button is a placeholder until the menu's code (a lazy chunk) arrives; the menu's own
 * button then takes its place. Focus on the placeholder (reached by Tab) moves to the menu's button
 * with it, not to the page's body.
 */
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

describe("focus on a row's … placeholder", () => {
  it("moves to the menu's own button when the menu's code arrives", async () => {
    await renderPane(new FakeHost({ context: ctx("Sales", "A1") }));
    await waitFor(() => expect(rows().length).toBeGreaterThan(2));
    const row = rows()[1]!;
    const placeholder = menuButton(row);
    const label = placeholder.getAttribute("aria-label");
    placeholder.focus();
    expect(document.activeElement).toBe(placeholder);

    chunk.release();
    await waitFor(() => expect(placeholder.isConnected).toBe(false));
    await settle();

    const focused = document.activeElement as HTMLElement | null;
    expect(focused).not.toBe(document.body);
    expect(focused?.getAttribute("aria-label")).toBe(label);
    expect(focused?.closest("li")).toBe(rows()[1]);
  }, 60_000);
});
