// @vitest-environment jsdom
/**
 * The first screen (src/hosts/list-cache.ts): settings and the workbook are asked for together, not one after
 * the other, and before the pane renders; a first load that has arrived is what the first render
 * shows; the list last shown for this workbook is shown at once, marked "Refreshing…" in a status
 * region, until the fresh list replaces it; a list is kept per workbook only.
 */
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PublicSettings, WorkbookSnapshot } from "../../src/hosts/host.js";
import { forgetKeptLists, startFirstLoad } from "../../src/hosts/list-cache.js";
import { FIRST_FRAME_WAIT_MS, mountTaskPane } from "../../taskpane/mount.js";
import { CONNECTED, ctx, deferred, FakeHost, report, WORKBOOK_ID, waitFor } from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

/** A host whose workbook load waits for the test. */
class SlowWorkbookHost extends FakeHost {
  readonly gate = deferred<void>();
  override async loadWorkbook(): Promise<WorkbookSnapshot> {
    this.calls.loadWorkbook += 1;
    await this.gate.promise;
    return { context: this.context, sheets: this.sheets, reports: this.reports, problems: this.problems };
  }
}

const status = (root: HTMLElement) => root.querySelector('[role="status"]')?.textContent ?? null;
const names = (root: HTMLElement) =>
  [...root.querySelectorAll("li[data-placement-key]")].map((li) => li.textContent ?? "");

/** The pane mounted for `host` with every text it draws recorded, frame by frame. */
async function mountWatched(host: FakeHost) {
  const container = document.createElement("div");
  document.body.append(container);
  const drawn: string[] = [];
  const observer = new MutationObserver(() => drawn.push(container.textContent ?? ""));
  observer.observe(container, { childList: true, subtree: true, characterData: true });
  let unmount = () => {};
  await act(async () => {
    unmount = mountTaskPane(container, host);
  });
  return {
    container,
    drawn,
    unmount() {
      observer.disconnect();
      act(() => unmount());
    },
  };
}

beforeEach(() => {
  forgetKeptLists();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the first screen", () => {
  it("once the add-in has listed a workbook, asks for the reports without waiting for the settings", async () => {
    await renderPane(new FakeHost(), {
      until: (root) => expect(names(root).join()).toContain("Pipeline by stage"),
    });
    const host = new FakeHost();
    const settings = deferred<PublicSettings>();
    host.platform.getSettings = () => settings.promise;
    const root = await renderPane(host);
    expect(host.calls.loadWorkbook).toBe(1);
    settings.resolve(CONNECTED);
    await waitFor(() => expect(status(root)).toBe(""));
    await waitFor(() => expect(names(root).join()).toContain("Revenue by region"));
  });

  it("asks for the workbook as soon as the settings say the add-in is connected, before any pane renders", async () => {
    const host = new FakeHost();
    const settings = deferred<PublicSettings>();
    host.platform.getSettings = () => settings.promise;
    startFirstLoad(host);
    expect(host.calls.loadWorkbook).toBe(0);
    settings.resolve(CONNECTED);
    await waitFor(() => expect(host.calls.loadWorkbook).toBe(1));

    // The pane then takes that load: one request, not a second.
    await renderPane(host, { until: (root) => expect(names(root).join()).toContain("Pipeline by stage") });
    expect(host.calls.loadWorkbook).toBe(1);
  });

  it("draws the list in its first render when the first load arrived before the pane mounted", async () => {
    const host = new FakeHost();
    await startFirstLoad(host).workbook();
    const container = document.createElement("div");
    document.body.append(container);
    // Rendered and committed, with nothing awaited: no loading state first.
    let unmount = () => {};
    act(() => {
      unmount = mountTaskPane(container, host);
    });
    try {
      expect(names(container).join()).toContain("Pipeline by stage");
      expect(container.textContent).not.toContain("Loading");
      expect(host.calls.loadWorkbook).toBe(1);
    } finally {
      act(() => unmount());
    }
  });

  it("draws no loading frame when the first load answers within a moment: the list is the first frame", async () => {
    const host = new SlowWorkbookHost();
    // The pane's own clock: the load answers a moment before the pane would draw its loading
    // frame, however busy the machine running the test is.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const pane = await mountWatched(host);
    try {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(FIRST_FRAME_WAIT_MS - 1);
      });
      expect(pane.drawn).toEqual([]);
      vi.useRealTimers();
      await act(async () => host.gate.resolve());
      await waitFor(() => expect(names(pane.container).join()).toContain("Pipeline by stage"));
      expect(pane.drawn.some((text) => text.includes("Loading the workbook"))).toBe(false);
    } finally {
      pane.unmount();
    }
  });

  it("draws the list kept for this workbook in the reopened pane's first frame, with no loading frame before it", async () => {
    await renderPane(new FakeHost(), {
      until: (root) => expect(names(root).join()).toContain("Pipeline by stage"),
    });
    const host = new SlowWorkbookHost();
    const pane = await mountWatched(host);
    try {
      await waitFor(() => expect(names(pane.container).join()).toContain("Pipeline by stage"));
      expect(status(pane.container)).toBe("Refreshing…");
      expect(pane.drawn.some((text) => text.includes("Loading the workbook"))).toBe(false);
      await act(async () => host.gate.resolve());
      await waitFor(() => expect(status(pane.container)).toBe(""));
    } finally {
      pane.unmount();
    }
  });

  it("shows the list last kept for this workbook at once, marked Refreshing…, until the fresh one lands", async () => {
    // A first pane loads the list for the workbook.
    const first = await renderPane(new FakeHost(), {
      until: (root) => expect(names(root).join()).toContain("Pipeline by stage"),
    });
    expect(status(first)).toBe("");

    // The pane opened again for the same workbook: the kept list, while the fresh one loads.
    const host = new SlowWorkbookHost();
    host.reports = [report(201, "Churn watchlist", [])];
    const again = await renderPane(host, {
      until: (root) => expect(names(root).join()).toContain("Pipeline by stage"),
    });
    expect(status(again)).toBe("Refreshing…");
    expect(again.querySelector('[role="status"]')?.getAttribute("aria-live")).toBe("polite");

    host.gate.resolve();
    await waitFor(() => expect(status(again)).toBe(""));
    expect(names(again).join()).not.toContain("Pipeline by stage");
  });

  it("keeps the list as a disconnect left it: a pane opened again never shows the removed placement", async () => {
    const first = new FakeHost();
    const shown = await renderPane(first, {
      until: (root) => expect(names(root).join()).toContain("Top customers"),
    });
    const outcome = await first.command(ctx("Sales", "H3"));
    expect(outcome.ok).toBe(true);
    // The pane is opened again after the first one showed the placement gone.
    await waitFor(() => expect(names(shown).join()).not.toContain("Top customers"));

    const host = new SlowWorkbookHost();
    const again = await renderPane(host, {
      until: (root) => expect(names(root).join()).toContain("Pipeline by stage"),
    });
    expect(status(again)).toBe("Refreshing…");
    expect(names(again).join()).not.toContain("Top customers");
    host.gate.resolve();
    await waitFor(() => expect(status(again)).toBe(""));
  });

  it("asks nothing of the service before the add-in was ever connected here", async () => {
    const host = new FakeHost({ settings: { ...CONNECTED, tenantUrl: "", apiKeySet: false } });
    // Settings' form is a lazy part: the first screen waits for it, not for a fixed number of turns.
    await renderPane(host, {
      until: (root) => expect(root.textContent).toContain("enter the tenant URL and an API key"),
    });
    expect(host.calls.loadWorkbook).toBe(0);
  });

  it("keeps a list per workbook: another workbook's is never shown", async () => {
    await renderPane(new FakeHost(), {
      until: (root) => expect(names(root).join()).toContain("Pipeline by stage"),
    });
    const host = new SlowWorkbookHost({ context: { ...ctx("Sales", "A1"), workbookId: "wb-else" } });
    expect(host.context.workbookId).not.toBe(WORKBOOK_ID);
    // The pane draws its loading state once the load has taken more than a moment (mount.tsx).
    const other = await renderPane(host, { until: (root) => expect(status(root)).toBe("") });
    expect(names(other)).toEqual([]);
    host.gate.resolve();
  });

  it("keeps the list when it changes, not on every move of the selection (a long list costs nothing per click)", async () => {
    const host = new FakeHost();
    const root = await renderPane(host, {
      until: (root) => expect(names(root).join()).toContain("Pipeline by stage"),
    });
    const writes = vi.spyOn(Storage.prototype, "setItem");
    for (const cell of ["A1", "H4", "B2", "H3"]) {
      await act(async () => host.select(ctx("Sales", cell)));
    }
    await waitFor(() =>
      expect(root.querySelector('[aria-current="true"]')?.textContent).toContain("Top customers"),
    );
    const keptWrites = () =>
      writes.mock.calls.filter(([key]) => String(key).startsWith("reporting-platform:last-list:")).length;
    expect(keptWrites()).toBe(0);

    // A disconnect changes the list: it is kept again, once.
    const outcome = await host.command(ctx("Sales", "H3"));
    expect(outcome.ok).toBe(true);
    await waitFor(() => expect(keptWrites()).toBe(1));
  });
});
