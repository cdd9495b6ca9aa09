/**
 * A keyboard-only walk of every flow of the pane, in a real Chromium (the preview), in one page:
 * only Tab, Shift+Tab, the arrows, Enter, Space, Escape and typed text; after every key the
 * focused element is somewhere, never the page's body (nor null). The walk: the grid's active cell
 * moved to an empty cell, the current-cell card's Place a report here (its picker opened and
 * cancelled); the list (one Tab stop, the arrows, a row's menu opened and closed with Escape back
 * to its button), the filter box (the demo has more than 10 placements); the active cell moved into
 * a placement, the card's Refresh, Disconnect report here and the outcome's Undo; Reload list;
 * Settings (opened by the gear, Escape back to it, opened again, Save back to the gear); the Ask tab (a
 * question typed and sent, Stop).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, onTestFailed, test, vi } from "vitest";
import { type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 240_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession({ chatDelayMs: 5 });
});

afterAll(async () => {
  await session?.close();
});

/** The focused element, described: its name (aria-label, else text), or BODY / NULL. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return "NULL";
    if (el === document.body) return "BODY";
    const label = (el as HTMLInputElement).labels?.[0]?.textContent;
    const name = el.getAttribute("aria-label") ?? label ?? el.textContent ?? "";
    return `${el.getAttribute("role") ?? el.tagName.toLowerCase()} "${name.trim().slice(0, 60)}"`;
  });
}

class Walk {
  readonly trail: string[] = [];
  readonly lost: string[] = [];
  constructor(readonly page: Page) {}

  /** Presses one key (or types text) and records where focus went; body or null is a loss. */
  async press(key: string, text?: string): Promise<string> {
    if (text === undefined) await this.page.keyboard.press(key);
    else await this.page.keyboard.type(text);
    const at = await focused(this.page);
    this.trail.push(`${key} -> ${at}`);
    if (at === "BODY" || at === "NULL") this.lost.push(this.trail.slice(-4).join(" | "));
    return at;
  }

  /** Presses `key` (Tab or Shift+Tab) until focus is on an element whose description matches. */
  async tabTo(match: RegExp, key = "Tab", most = 40): Promise<void> {
    for (let i = 0; i < most; i++) {
      if (match.test(await this.press(key))) return;
    }
    throw new Error(`${key} never reached ${match}: ${this.trail.slice(-most).join(" | ")}`);
  }

  /** Waits until focus is on an element matching (focus moved by the pane after an action). */
  async focusOn(match: RegExp): Promise<void> {
    await expect.poll(() => focused(this.page), { timeout: 30_000 }).toMatch(match);
  }

  /** Focus is nowhere lost now, either (after a wait for the pane). */
  async check(what: string): Promise<void> {
    const at = await focused(this.page);
    this.trail.push(`(${what}) ${at}`);
    if (at === "BODY" || at === "NULL") this.lost.push(this.trail.slice(-4).join(" | "));
  }
}

describe("a keyboard-only walk of every flow", () => {
  test("never leaves focus on the page's body", async () => {
    const page = await session.openPreview();
    await waitForPlacements(page);
    const pane = paneOf(page);
    const card = pane.getByTestId("selected-cell-card");
    const walk = new Walk(page);
    onTestFailed(() => console.log(`focus lost:\n${walk.lost.join("\n")}\ntrail:\n${walk.trail.join("\n")}`));

    // The grid's active cell (A1, empty), from the page's first Tab stops.
    await walk.tabTo(/^gridcell "A1"/);

    // The card at an empty cell: Place a report here, its picker opened and cancelled.
    await walk.tabTo(/^button "Place a report here"/);
    await walk.press("Enter");
    await card.getByRole("searchbox", { name: "Search reports" }).waitFor();
    await walk.check("picker open");
    await walk.tabTo(/^button "Cancel"/);
    await walk.press("Enter");
    await walk.focusOn(/^button "Place a report here"/);

    // The list: one Tab stop (a row and its menu), the arrows move between rows.
    await walk.tabTo(/^textbox "Filter reports"|^input "Filter reports"/);
    await walk.press("Tab");
    const first = await focused(page);
    expect(first).toMatch(/^button "Revenue by Region/);
    await walk.press("ArrowDown");
    await walk.press("ArrowDown");
    const third = await focused(page);
    expect(third).not.toBe(first);
    expect(await walk.press("Tab")).toMatch(/^button "Actions for /);
    // A row's menu: Enter opens it (focus in it), Escape closes it back to its button.
    await walk.press("Enter");
    await walk.focusOn(/^menuitem /);
    await walk.press("ArrowDown");
    await walk.press("Escape");
    await walk.focusOn(/^button "Actions for /);
    // Space opens it too.
    await walk.press("Space");
    await walk.focusOn(/^menuitem /);
    await walk.press("Escape");
    await walk.focusOn(/^button "Actions for /);
    // Back up to the row (Shift+Tab stays in the row, then leaves the list in one more).
    expect(await walk.press("Shift+Tab")).toBe(third);
    expect(await walk.press("Shift+Tab")).toMatch(/Filter reports/);

    // The filter box: typed text narrows the list; emptied again.
    await walk.press("type", "Top 10");
    await expect.poll(() => pane.locator("li[data-placement-key]").count()).toBeLessThan(5);
    for (let i = 0; i < 6; i++) await walk.press("Backspace");
    await walk.check("filter emptied");

    // The active cell into a placement (B2, in Revenue by Region's B2:F8): the grid's arrows.
    await walk.tabTo(/^gridcell "A1"/, "Shift+Tab");
    await walk.press("ArrowRight");
    await walk.press("ArrowDown");
    await expect.poll(() => card.textContent()).toContain("Revenue by Region");

    // The card's Refresh: the outcome in the pane, focus kept.
    await walk.tabTo(/^button "Refresh"$/);
    await walk.press("Enter");
    await expect.poll(() => pane.textContent(), { timeout: 60_000 }).toContain("Refreshed Revenue by Region");
    await walk.check("after Refresh");

    // Disconnect report here, then the outcome's Undo.
    await walk.tabTo(/^button "Disconnect report here"/);
    await walk.press("Enter");
    await expect.poll(() => pane.getByRole("button", { name: "Undo" }).count(), { timeout: 60_000 }).toBe(1);
    await walk.check("after Disconnect");
    await walk.tabTo(/^button "Undo"/, "Shift+Tab");
    await walk.press("Enter");
    await expect
      .poll(() => card.getByRole("button", { name: "Refresh" }).count(), { timeout: 60_000 })
      .toBe(1);
    await walk.check("after Undo");

    // Reload list.
    await walk.tabTo(/^button "Reload list"/, "Shift+Tab");
    await walk.press("Enter");
    await waitForPlacements(page);
    await walk.check("after Reload list");

    // Settings by the gear: focus into Settings; Escape goes back to the gear.
    await walk.tabTo(/^button "Settings"/);
    await walk.press("Enter");
    await pane.getByRole("button", { name: "Back" }).waitFor();
    await walk.check("Settings open");
    await walk.press("Escape");
    await walk.focusOn(/^button "Settings"/);
    // Again, then Save and Done.
    await walk.press("Enter");
    await pane.getByRole("button", { name: "Back" }).waitFor();
    await walk.tabTo(/^button "Save"/);
    await walk.press("Enter");
    // Saved: a connected pane goes back to the list, focus on the gear (Done is offered only
    // while Settings stays open: first run, or not connected).
    await pane.getByRole("tab", { name: "Reports" }).waitFor();
    await walk.focusOn(/^button "Settings"/);

    // The Ask tab: the arrows select it; a question typed and sent; Stop.
    await walk.tabTo(/^tab "Reports"/);
    await walk.press("ArrowRight");
    await walk.focusOn(/^tab "Ask"/);
    // The question box drawn (the Ask view loads its code on first use) before the Tab to it.
    await pane.getByRole("textbox", { name: "Ask the agent" }).waitFor();
    await walk.tabTo(/^textarea "Ask the agent/);
    await walk.press("type", "trigger:slow Which region had the highest revenue in Q3?");
    await walk.press("Enter");
    await pane.getByRole("button", { name: "Stop" }).waitFor();
    await walk.check("answer streaming");
    await walk.tabTo(/^button "Stop"/);
    await walk.press("Enter");
    await pane.locator('[data-answer-status="stopped"]').waitFor({ timeout: 30_000 });
    await walk.check("after Stop");
    // Back to the Reports tab by Shift+Tab and the arrows.
    await walk.tabTo(/^tab "Ask"/, "Shift+Tab");
    await walk.press("ArrowLeft");
    await walk.focusOn(/^tab "Reports"/);

    expect(walk.lost, walk.trail.join("\n")).toEqual([]);
  });
});
