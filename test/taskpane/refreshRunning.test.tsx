// @vitest-environment jsdom
/**
 * One refresh at a time (taskpane/refreshRun.ts): while a run is still ending, a row whose outcome
 * already shows (Not refreshed: why) offers no Refresh that would then not be done. Its menu's
 * Refresh and Refresh report are unavailable until the run has ended, as Refresh all is, and work
 * again after.
 */
import { describe, expect, it } from "vitest";
import type { RefreshOutcome } from "../../src/core/refresh-flow.js";
import type { RefreshItem } from "../../src/core/refresh-plan.js";
import type { RefreshHandlers } from "../../src/hosts/host.js";
import {
  buttonByName,
  CellsFakeHost,
  click,
  ctx,
  report,
  settle,
  WORKBOOK_ID,
  waitFor,
} from "../support/fakeHost.js";
import { openedMenuItems, renderPane } from "../support/pane.js";

const ACTIONS = "Actions for Orders by region at Sales!B2:C5";
const WHY = "Not refreshed: the new result of Orders by region would overwrite Sales!B6:C6.";

/** A host whose refresh reports its outcome, then ends only when `end()` is called. */
class EndingLateHost extends CellsFakeHost {
  runs = 0;
  private ending: (() => void) | null = null;

  end(): void {
    this.ending?.();
  }

  override async refreshPlacements(
    items: readonly RefreshItem[],
    handlers: RefreshHandlers,
  ): Promise<RefreshOutcome[]> {
    this.runs++;
    const outcome: RefreshOutcome = {
      status: "not-refreshed",
      item: items[0]!,
      placement: items[0]!.placement,
      reason: "would-overwrite",
      message: WHY,
    };
    handlers.onOutcome?.(outcome);
    await new Promise<void>((resolve) => {
      this.ending = resolve;
    });
    return [outcome];
  }
}

function host(): EndingLateHost {
  return new EndingLateHost({
    reports: [
      report(8, "Orders by region", [
        {
          id: "p-orders",
          workbookId: WORKBOOK_ID,
          sheetId: "sheet-sales",
          sheetName: "Sales",
          anchorCell: "B2",
          endResultCell: "C5",
          resultLocation: "Sales!B2:C5",
          syncStatus: "CHANGED",
        },
      ]),
    ],
    context: ctx("Sales", "H1", "sheet-sales"),
  });
}

/** The row's menu, opened: its items by label. */
async function openMenu(root: HTMLElement): Promise<(label: string) => HTMLElement> {
  await click(buttonByName(root, ACTIONS));
  await openedMenuItems();
  return (label) => {
    const found = [...document.querySelectorAll<HTMLElement>('[role="menuitem"]')].find(
      (m) => m.textContent === label,
    );
    if (!found) throw new Error(`no menu item ${label}`);
    return found;
  };
}

describe("a row's Refresh while a refresh is still ending", () => {
  it("is unavailable until the run has ended, then starts a new run", async () => {
    const h = host();
    const root = await renderPane(h);
    await waitFor(() => expect(root.textContent).toContain("Sales!B2:C5"));

    await click((await openMenu(root))("Refresh"));
    await waitFor(() => expect(root.textContent).toContain(WHY));
    expect(h.runs).toBe(1);

    // The row says why, but the run has not ended: its Refresh is not offered as if it would run.
    const item = await openMenu(root);
    expect(item("Refresh").getAttribute("aria-disabled")).toBe("true");
    expect(item("Refresh report").getAttribute("aria-disabled")).toBe("true");
    await click(item("Refresh"));
    await settle();
    expect(h.runs).toBe(1);

    // Once it has ended, the same menu's Refresh runs again.
    h.end();
    await waitFor(() => expect(item("Refresh").getAttribute("aria-disabled")).not.toBe("true"));
    await click(item("Refresh"));
    await waitFor(() => expect(h.runs).toBe(2));
    h.end();
  });
});
