// @vitest-environment jsdom
/**
 * The pane's shell: the Reports and Ask views (WAI-ARIA tabs, the chat kept while switching),
 * outcomes shown inside the pane (a polite live region, dismissible), "Open settings" on a refused
 * key, and focus that never falls to the page's body.
 */
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import { PASSING_MS } from "../../taskpane/PaneMessages.js";
import {
  buttonByName,
  CONNECTED,
  click,
  ctx,
  deferred,
  FakeHost,
  fieldByLabel,
  queryButton,
  settle,
  settledDemoReports,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";
import { openedMenuItems, renderPane } from "../support/pane.js";

function tabs(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('[role="tablist"] [role="tab"]')];
}

function tab(root: ParentNode, name: string): HTMLElement {
  const found = tabs(root).find((t) => t.textContent?.trim() === name);
  if (!found) throw new Error(`no tab "${name}"`);
  return found;
}

function panelOf(t: HTMLElement): HTMLElement {
  const id = t.getAttribute("aria-controls");
  const panel = id ? document.getElementById(id) : null;
  if (!panel) throw new Error(`tab "${t.textContent}" controls nothing`);
  return panel;
}

async function press(el: Element, key: string): Promise<void> {
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

const unauthorized = () =>
  new PlatformError(
    "unauthorized",
    "The API key was refused (401): it is missing, malformed or expired. Paste a new one in Settings.",
  );

describe("the Reports and Ask views", () => {
  it("are WAI-ARIA tabs: one selected, each controlling its panel, the other panel hidden", async () => {
    const root = await renderPane(new FakeHost());
    expect(tabs(root).map((t) => t.textContent?.trim())).toEqual(["Reports", "Ask"]);
    const reports = tab(root, "Reports");
    const ask = tab(root, "Ask");
    expect(reports.getAttribute("aria-selected")).toBe("true");
    expect(ask.getAttribute("aria-selected")).toBe("false");
    // Roving tab stop: only the selected tab is in the tab order.
    expect(reports.tabIndex).toBe(0);
    expect(ask.tabIndex).toBe(-1);
    const reportsPanel = panelOf(reports);
    const askPanel = panelOf(ask);
    expect(reportsPanel.getAttribute("role")).toBe("tabpanel");
    expect(reportsPanel.getAttribute("aria-labelledby")).toBe(reports.id);
    expect(askPanel.getAttribute("role")).toBe("tabpanel");
    expect(reportsPanel.hidden).toBe(false);
    expect(askPanel.hidden).toBe(true);
    expect(reportsPanel.textContent).toContain("Selected cell");
    expect(reportsPanel.textContent).toContain("Reports in this workbook");
    expect(reportsPanel.textContent).not.toContain("Ask the agent");

    await click(ask);
    expect(ask.getAttribute("aria-selected")).toBe("true");
    expect(reports.getAttribute("aria-selected")).toBe("false");
    expect(reportsPanel.hidden).toBe(true);
    expect(askPanel.hidden).toBe(false);
    await waitFor(() => expect(askPanel.contains(fieldByLabel(root, "Ask the agent"))).toBe(true));
  });

  it("move with the arrow keys, Home and End, selecting and focusing the tab", async () => {
    const root = await renderPane(new FakeHost());
    const reports = tab(root, "Reports");
    const ask = tab(root, "Ask");
    act(() => reports.focus());
    await press(reports, "ArrowRight");
    expect(document.activeElement).toBe(ask);
    expect(ask.getAttribute("aria-selected")).toBe("true");
    await press(ask, "ArrowRight");
    expect(document.activeElement).toBe(reports);
    await press(reports, "ArrowLeft");
    expect(document.activeElement).toBe(ask);
    await press(ask, "Home");
    expect(document.activeElement).toBe(reports);
    await press(reports, "End");
    expect(document.activeElement).toBe(ask);
    expect(panelOf(ask).hidden).toBe(false);
  });

  it("mount the chat when its view first opens, not with the first screen", async () => {
    const root = await renderPane(new FakeHost(), {
      until: (r) => expect(r.querySelector("li[data-placement-key]")).not.toBeNull(),
    });
    await settle();
    expect(root.querySelector('textarea, [aria-label="Ask the agent"]')).toBeNull();
    await click(tab(root, "Ask"));
    await waitFor(() => fieldByLabel(root, "Ask the agent"));
  });

  it("keep the conversation and a streaming answer when switching views", async () => {
    const answer = deferred<never>();
    const host = new FakeHost({ ask: () => answer.promise });
    const root = await renderPane(host);
    await click(tab(root, "Ask"));
    await waitFor(() => fieldByLabel(root, "Ask the agent"));
    await typeInto(fieldByLabel(root, "Ask the agent"), "Which region grew fastest?");
    await click(buttonByName(root, "Send"));
    await waitFor(() => expect(queryButton(root, "Stop")).toBeDefined());

    await click(tab(root, "Reports"));
    await click(tab(root, "Ask"));
    // Still the same conversation, still streaming: nothing was remounted or aborted.
    expect(panelOf(tab(root, "Ask")).textContent).toContain("Which region grew fastest?");
    expect(queryButton(root, "Stop")).toBeDefined();
    expect(host.calls.ask).toHaveLength(1);
    expect(host.calls.abortChat).toHaveLength(0);
  });
});

describe("messages inside the pane", () => {
  it("shows an outcome in a polite live region inside the main landmark, dismissible", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), reports: settledDemoReports() });
    host.platform.disconnect = async () => {
      throw { kind: "forbidden", message: "The API key is valid but not allowed (403)." };
    };
    const root = await renderPane(host);
    await click(buttonByName(root, "Disconnect report here"));
    const region = await waitForMessages(root, "not allowed (403)");
    expect(region.getAttribute("role")).toBe("status");
    expect(region.getAttribute("aria-live")).toBe("polite");
    expect(region.closest("main")).not.toBeNull();
    // Nothing is shown outside the pane's box.
    expect([...document.body.children].filter((c) => c !== root && c.textContent?.includes("(403)"))).toEqual(
      [],
    );
    await click(buttonByName(region, "Dismiss"));
    expect(region.textContent).not.toContain("not allowed (403)");
  });

  it("keeps an error, and a success that offers Undo, until dismissed; a success without an action goes by itself", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), reports: settledDemoReports() });
    const disconnect = host.platform.disconnect.bind(host.platform);
    host.platform.disconnect = async () => {
      throw { kind: "server", message: "The Reporting Platform had a problem (503)." };
    };
    const root = await renderPane(host);
    await click(buttonByName(root, "Disconnect report here"));
    const region = await waitForMessages(root, "(503)");
    host.platform.disconnect = disconnect;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await act(async () => {
        await host.command(ctx("Sales", "C4"));
      });
      expect(region.textContent).toContain("Disconnected Revenue by region");
      await act(async () => {
        vi.advanceTimersByTime(PASSING_MS);
      });
      // Its Undo is still there to be used.
      expect(region.textContent).toContain("Disconnected Revenue by region");
      await click(buttonByName(region, "Undo"));
      for (let i = 0; i < 20 && !region.textContent?.includes("Undone:"); i++) {
        await act(async () => {
          await Promise.resolve();
        });
      }
      expect(region.textContent).toContain("Undone: Revenue by region is placed at Sales!B2:F20 again.");
      await act(async () => {
        vi.advanceTimersByTime(PASSING_MS);
      });
    } finally {
      vi.useRealTimers();
    }
    expect(region.textContent).not.toContain("Undone:");
    expect(region.textContent).not.toContain("Disconnected Revenue by region");
    expect(region.textContent).toContain("(503)");
  });

  it("names a placement disconnected from its menu by its sheet's current name, not the old one", async () => {
    // p-rev-regions is stored as Regional!A1:C5; the tab with its sheet id is called Regions now.
    const host = new FakeHost();
    const root = await renderPane(host);
    await click(buttonByName(root, "Actions for Revenue by region at Regions!A1:C5"));
    const item = (await openedMenuItems()).find((m) => m.textContent === "Disconnect this placement");
    await click(item as Element);
    const region = await waitForMessages(root, "Disconnected Revenue by region");
    expect(region.textContent).toContain("from Regions!A1:C5");
    expect(region.textContent).not.toContain("Regional");
  });
});

async function waitForMessages(root: HTMLElement, text: string): Promise<HTMLElement> {
  let region: HTMLElement | null = null;
  await waitFor(() => {
    region =
      [...root.querySelectorAll<HTMLElement>('[aria-label="Messages"]')].find((r) =>
        r.textContent?.includes(text),
      ) ?? null;
    expect(region).not.toBeNull();
  });
  return region as unknown as HTMLElement;
}

describe("Open settings on a refused key", () => {
  it("offers Open settings on a 401 list error, opening Settings at the API key", async () => {
    const host = new FakeHost({ loadError: unauthorized() });
    const root = await renderPane(host);
    const text = root.textContent ?? "";
    expect(text).toContain("The API key was refused (401)");
    // The service's reason first, and no doubled punctuation.
    expect(text.indexOf("The API key was refused")).toBeLessThan(text.indexOf("could not be loaded"));
    expect(text).not.toMatch(/\.\.|\. \./);
    await click(buttonByName(root, "Open settings"));
    await waitFor(() => fieldByLabel(root, "API key"));
    // Settings puts focus in the field it is opened at (App.openSettings.test.tsx: at the API key);
    // until then it waits in the pane, never on the page's body.
    expect(root.contains(document.activeElement)).toBe(true);
  });

  it("offers it on a refresh refused with 403 too, and not on other failures", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    host.loadError = new PlatformError("server", "The Reporting Platform had a problem (503).");
    await click(buttonByName(root, "Reload list"));
    await settle();
    expect(root.textContent).toContain("(503)");
    expect(queryButton(root, "Open settings")).toBeUndefined();
    host.loadError = new PlatformError("forbidden", "The API key is valid but not allowed (403).");
    await click(buttonByName(root, "Reload list"));
    await settle();
    expect(queryButton(root, "Open settings")).toBeDefined();
  });
});

describe("focus", () => {
  it("stays on Refresh while it refreshes and after", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    const gate = deferred<void>();
    const load = host.loadWorkbook.bind(host);
    host.loadWorkbook = async () => {
      await gate.promise;
      return load();
    };
    const refresh = buttonByName(root, "Reload list");
    act(() => refresh.focus());
    await click(refresh);
    expect(document.activeElement).toBe(buttonByName(root, "Reload list"));
    expect(buttonByName(root, "Reload list").matches(":disabled")).toBe(false);
    expect(buttonByName(root, "Reload list").getAttribute("aria-disabled")).toBe("true");
    await act(async () => gate.resolve());
    await settle();
    expect(document.activeElement).toBe(buttonByName(root, "Reload list"));
  });

  it("returns to the Settings button when Settings closes with Back, Save or the Settings toggle", async () => {
    const root = await renderPane(new FakeHost());
    for (const close of ["Back", "Save", "Settings"]) {
      await click(buttonByName(root, "Settings"));
      await waitFor(() => fieldByLabel(root, "Tenant URL"));
      act(() => fieldByLabel(root, "Tenant URL").focus());
      await click(buttonByName(root, close));
      await settle();
      await waitFor(() => expect(queryButton(root, "Back")).toBeUndefined());
      expect(document.activeElement).toBe(buttonByName(root, "Settings"));
    }
  });

  it("goes to the selected-cell card after Disconnect report here", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4") });
    const root = await renderPane(host);
    const button = buttonByName(root, "Disconnect report here");
    act(() => button.focus());
    await click(button);
    await waitFor(() => expect(root.textContent).toContain("Disconnected Revenue by region"));
    const card = root.querySelector<HTMLElement>('[data-testid="selected-cell-card"]');
    expect(card).not.toBeNull();
    expect(card?.tabIndex).toBe(-1);
    expect(card?.getAttribute("aria-label") ?? card?.getAttribute("aria-labelledby")).toBeTruthy();
    expect(document.activeElement).toBe(card);
  });
});

describe("landmarks and headings", () => {
  it("has exactly one main landmark and one h1, naming the platform once", async () => {
    const host = new FakeHost({ loadError: unauthorized() });
    const root = await renderPane(host);
    expect(root.querySelectorAll('main, [role="main"]')).toHaveLength(1);
    expect(root.querySelectorAll("h1")).toHaveLength(1);
    const header = root.querySelector("header");
    expect(header?.textContent?.split("Reporting Platform").length).toBe(2);
  });

  it("keeps the chat when Settings opens and closes", async () => {
    const root = await renderPane(new FakeHost({ settings: { ...CONNECTED } }));
    await click(tab(root, "Ask"));
    await waitFor(() => fieldByLabel(root, "Ask the agent"));
    await typeInto(fieldByLabel(root, "Ask the agent"), "draft question");
    await click(buttonByName(root, "Settings"));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    await click(buttonByName(root, "Settings"));
    await settle();
    expect(tab(root, "Ask").getAttribute("aria-selected")).toBe("true");
    expect((fieldByLabel(root, "Ask the agent") as HTMLTextAreaElement).value).toBe("draft question");
  });
});
