// @vitest-environment jsdom
/**
 * The pane reloads when its host says the workbook changed where the context does not show it
 * (Google Sheets: a sheet added, renamed or removed; "Disconnect report here" run from the add-on
 * menu): once per notice, even when a context on a new sheet says the same in the same turn, and
 * not before it is connected.
 */
import { act } from "react";
import { describe, expect, it } from "vitest";
import { withoutPlacement } from "../../src/sandbox/placement-rules.js";
import { CONNECTED, ctx, FakeHost, SHEETS, settle } from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

const items = (root: ParentNode) => [...root.querySelectorAll("li[data-placement-key]")];

describe("a workbook change told by the host", () => {
  it("a report disconnected outside the pane leaves the list after one reload", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    expect(items(root)).toHaveLength(4);
    expect(root.textContent).toContain("Sales!B2:F20");
    expect(host.calls.loadWorkbook).toBe(1);

    // The add-on menu's "Disconnect report here" ran on the server: the pane made no request.
    host.reports = host.reports.map((r) =>
      r.id === 101 ? withoutPlacement(r, { placementId: "p-rev-sales" }) : r,
    );
    await act(async () => host.changeWorkbook());
    await settle();
    expect(host.calls.loadWorkbook).toBe(2);
    expect(host.calls.disconnect).toEqual([]);
    expect(items(root)).toHaveLength(3);
    expect(root.textContent).not.toContain("Sales!B2:F20");
  });

  it("a new sheet told both as a context and as a workbook change reloads once", async () => {
    const host = new FakeHost();
    await renderPane(host);
    host.sheets = [...SHEETS, { id: "sheet-new", name: "Forecast" }];
    await act(async () => {
      host.select(ctx("Forecast", "A1", "sheet-new"));
      host.changeWorkbook();
    });
    await settle();
    expect(host.calls.loadWorkbook).toBe(2);
  });

  it("a sheet renamed elsewhere shows its new name after the reload", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    expect(root.textContent).toContain("Regions!A1:C5");
    host.sheets = SHEETS.map((s) => (s.name === "Regions" ? { ...s, name: "By region" } : s));
    await act(async () => host.changeWorkbook());
    await settle();
    expect(host.calls.loadWorkbook).toBe(2);
    expect(root.textContent).toContain("'By region'!A1:C5");
  });

  it("before the add-in is connected, a workbook change loads nothing", async () => {
    const host = new FakeHost({ settings: { ...CONNECTED, tenantUrl: "", apiKeySet: false } });
    await renderPane(host);
    await act(async () => host.changeWorkbook());
    await settle();
    expect(host.calls.loadWorkbook).toBe(0);
  });
});
