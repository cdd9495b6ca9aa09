// @vitest-environment jsdom
/**
 * A change of settings makes every answer of the old settings void: a list (or a disconnect's
 * answer) asked for under the old tenant and answered after the change is never shown as the new
 * tenant's. Settings is a stand-in here that saves what the test gives it.
 */
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import type { PublicSettings, WorkbookSnapshot } from "../../src/hosts/host.js";
import { buttonByName, CONNECTED, click, deferred, FakeHost, settle } from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

const next = vi.hoisted(() => ({ settings: null as PublicSettings | null }));

vi.mock("../../taskpane/SettingsPanel.js", () => ({
  default: ({ onSaved }: { onSaved(s: PublicSettings): void }) => (
    <form aria-label="Settings stand-in">
      <button type="button" onClick={() => next.settings && onSaved(next.settings)}>
        Save the new tenant
      </button>
    </form>
  ),
}));

const items = (root: ParentNode) => [...root.querySelectorAll("li[data-placement-key]")];

describe("settings changed while an answer of the old ones is on its way", () => {
  it("a list asked for under the old tenant, answered after the change, is not shown", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    expect(items(root)).toHaveLength(4);
    // A refresh under tenant A, held by the network.
    const late = deferred<WorkbookSnapshot>();
    const oldAnswer = { context: host.context, sheets: host.sheets, reports: host.reports, problems: [] };
    host.loadWorkbook = () => late.promise;
    await act(async () => host.changeWorkbook());
    // The user moves to tenant B, whose key is not pasted yet: nothing can be listed for B.
    next.settings = { ...CONNECTED, tenantUrl: "https://other.example.com", apiKeySet: false };
    await click(buttonByName(root, "Settings"));
    await click(buttonByName(root, "Save the new tenant"));
    await settle();
    await act(async () => late.resolve(oldAnswer));
    await settle();
    // A's list never becomes B's: Settings stays, asking for B's key, and no list is shown.
    expect(root.querySelector('[aria-label="Settings stand-in"]')).not.toBeNull();
    expect(root.querySelector<HTMLElement>('[role="tabpanel"]')?.hidden ?? true).toBe(true);
  });
});
