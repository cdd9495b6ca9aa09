// @vitest-environment jsdom
/**
 * The task pane's placements: the list (grouped by sheet, statuses, rename and recreated-tab notes,
 * other workbooks), the current placement following the selection, and "Disconnect report here"
 * from the button and from the host's command (one request per placement, the toast, the list).
 */
import { act } from "react";
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import {
  buttonByName,
  click,
  ctx,
  FakeHost,
  report,
  SALES_ID,
  settle,
  WORKBOOK_ID,
  waitFor,
} from "../support/fakeHost.js";
import { openedMenuItems, renderPane } from "../support/pane.js";

function items(root: ParentNode): HTMLLIElement[] {
  return [...root.querySelectorAll<HTMLLIElement>("li[data-placement-key]")];
}

function itemNamed(root: ParentNode, name: string, where?: string): HTMLLIElement {
  const found = items(root).find(
    (li) => li.textContent?.includes(name) && (where === undefined || li.textContent.includes(where)),
  );
  if (!found) throw new Error(`no placement item ${name} ${where ?? ""}`);
  return found;
}

const disconnectButton = (root: ParentNode) => buttonByName(root, "Disconnect report here");

describe("the placements list", () => {
  it("groups this workbook's placements by the sheets' current names, with status badges and refresh times", async () => {
    const host = new FakeHost();
    // The service refuses to record the new name (a correction the pane tries once): the placement
    // stays stored as "Regional", and the note says so.
    host.connectError = new PlatformError("forbidden", "Not allowed (403).", { status: 403 });
    const root = await renderPane(host);
    const headings = [...root.querySelectorAll("h3")].map((h) => h.textContent);
    expect(headings).toEqual(["Sales", "Regions", "Pipeline"]);

    const sales = itemNamed(root, "Revenue by region", "Sales!B2:F20");
    expect(sales.textContent).toContain("Up to date");
    expect(sales.textContent).toContain("3 hours ago");

    // Stored as "Regional" but the sheet id is the one now named "Regions" (renamed since): shown by its new name.
    const regions = itemNamed(root, "Revenue by region", "Regions!A1:C5");
    expect(regions.closest("section")?.querySelector("h3")?.textContent).toBe("Regions");
    expect(regions.textContent).toContain("Out of date");
    expect(regions.textContent).toContain("Sheet renamed from Regional");

    // The stored sheet id is gone but a tab of that name exists: it was recreated.
    const pipeline = itemNamed(root, "Pipeline by stage");
    expect(pipeline.textContent).toContain("Unknown");
    expect(pipeline.textContent).toContain("The tab was recreated");

    // Placements in other workbooks are listed under the report, read-only, with workbook and host.
    expect(sales.textContent).toContain("Also in Board Pack 2024 (Google Sheets) · KPIs!A1:D9");
    expect(items(root)).toHaveLength(4);
  });

  it("shows Unknown for a status the add-in does not know (null, UNKNOWN, or a newer service's value)", async () => {
    const host = new FakeHost();
    host.reports = [
      ...host.reports,
      report(104, "Churn forecast", [
        {
          id: "p-churn",
          workbookId: WORKBOOK_ID,
          sheetId: "sheet-sales",
          sheetName: "Sales",
          anchorCell: "L2",
          resultLocation: "Sales!L2",
          syncStatus: "STALE_SOON" as never,
        },
      ]),
    ];
    const root = await renderPane(host);
    const badgeText = (li: HTMLLIElement) =>
      [...li.querySelectorAll("*")].find(
        (el) => el.children.length === 0 && /^(Up to date|Out of date|Unknown)$/.test(el.textContent ?? ""),
      )?.textContent;
    expect(badgeText(itemNamed(root, "Top customers"))).toBe("Unknown");
    expect(badgeText(itemNamed(root, "Pipeline by stage"))).toBe("Unknown");
    expect(badgeText(itemNamed(root, "Churn forecast"))).toBe("Unknown");
    expect(badgeText(itemNamed(root, "Revenue by region", "Sales!B2"))).toBe("Up to date");
  });

  it("says what to do when nothing is placed in the workbook", async () => {
    const root = await renderPane(new FakeHost({ reports: [] }));
    expect(root.textContent).toContain("No reports are placed in this workbook yet.");
    expect(disconnectButton(root).disabled).toBe(true);
  });

  it("shows reports it could not read as a warning while listing the rest", async () => {
    const root = await renderPane(
      new FakeHost({ problems: ["Report 7 could not be read (a field is missing)."] }),
    );
    expect(root.textContent).toContain("One report could not be shown.");
    expect(root.textContent).toContain("Report 7 could not be read");
    expect(items(root)).toHaveLength(4);
  });

  it("selects a placement's range in the workbook when it is clicked", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    const regions = itemNamed(root, "Revenue by region", "Regions!A1:C5");
    await click(regions.querySelector("button") as HTMLButtonElement);
    expect(host.calls.selectRange).toEqual([
      { sheetId: "sheet-regions", sheetName: "Regions", range: "A1:C5" },
    ]);
  });
});

describe("the current placement", () => {
  it("marks the placement under the active cell and follows the selection", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1") });
    const root = await renderPane(host);
    expect(root.querySelectorAll('[aria-current="true"]')).toHaveLength(0);
    expect(root.textContent).toContain("Sales!A1");

    await act(async () => host.select(ctx("Sales", "C4")));
    const current = root.querySelectorAll('[aria-current="true"]');
    expect(current).toHaveLength(1);
    expect(current[0]?.textContent).toContain("Sales!B2:F20");
    expect(root.textContent).toContain("Sales!C4");

    await act(async () => host.select(ctx("Regions", "B3")));
    expect(root.querySelector('[aria-current="true"]')?.textContent).toContain("Regions!A1:C5");

    await act(async () => host.select(ctx("Sales", "Z99")));
    expect(root.querySelectorAll('[aria-current="true"]')).toHaveLength(0);
  });

  it("names a placement on a renamed sheet by the sheet's current name, the old one as a note", async () => {
    // p-rev-regions is stored as Regional!A1:C5; the tab with its sheet id is called Regions now.
    const host = new FakeHost({ context: ctx("Regions", "B3") });
    // The new name is not recorded (the service refuses the correction): the note stays.
    host.connectError = new PlatformError("forbidden", "Not allowed (403).", { status: 403 });
    const root = await renderPane(host);
    const card = root.querySelector('section[aria-labelledby="cell-heading"]') as HTMLElement;
    expect(card.textContent).toContain("Placed at Regions!A1:C5");
    expect(card.textContent).toContain("Sheet renamed from Regional");
    expect(card.textContent).not.toContain("Regional!");
  });

  it("names the outcome of Disconnect report here on a renamed sheet by its current name", async () => {
    const host = new FakeHost({ context: ctx("Regions", "B3") });
    const root = await renderPane(host);
    await click(disconnectButton(root));
    await settle();
    await waitFor(() =>
      expect(document.body.textContent).toContain(
        "Disconnected Revenue by region from Regions!A1:C5; the cells keep their values.",
      ),
    );
    expect(document.body.textContent).not.toContain("Regional!A1:C5");
  });

  it("enables Disconnect report here only when a placement is under the cell", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1") });
    const root = await renderPane(host);
    expect(disconnectButton(root).disabled).toBe(true);
    expect(root.textContent).toContain("No report is placed under this cell.");
    await act(async () => host.select(ctx("Sales", "D10")));
    expect(disconnectButton(root).disabled).toBe(false);
  });

  it("does not treat a recreated tab's placement as under the cell (disconnect rule 6)", async () => {
    const host = new FakeHost({ context: ctx("Pipeline", "C4") });
    const root = await renderPane(host);
    expect(disconnectButton(root).disabled).toBe(true);
  });
});

describe("Disconnect report here", () => {
  it("sends exactly one request with the placement's input even when double-clicked", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), holdDisconnects: true });
    const root = await renderPane(host);
    const button = disconnectButton(root);
    await act(async () => {
      button.click();
      button.click();
    });
    await settle();
    expect(disconnectButton(root).disabled).toBe(true);
    await click(disconnectButton(root));
    expect(host.calls.disconnect).toEqual([
      { deploymentId: 1, reportId: 101, input: { placementId: "p-rev-sales" } },
    ]);

    await act(async () => host.pendingDisconnects[0]?.resolve());
    await settle();
    expect(host.calls.disconnect).toHaveLength(1);

    // The toast says what happened; the list shows the report the service returned.
    await waitFor(() =>
      expect(document.body.textContent).toContain(
        "Disconnected Revenue by region from Sales!B2:F20; the cells keep their values.",
      ),
    );
    expect(root.querySelector('[aria-current="true"]')).toBeNull();
    expect(items(root).some((li) => li.textContent?.includes("Sales!B2:F20"))).toBe(false);
    // The report's other placements stay, here and elsewhere.
    const regions = itemNamed(root, "Revenue by region", "Regions!A1:C5");
    expect(regions.textContent).toContain("Board Pack 2024");
    expect(items(root)).toHaveLength(3);
    expect(disconnectButton(root).disabled).toBe(true);
  });

  it("addresses an older placement without an id by workbook, sheet name and anchor", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1") });
    host.reports = host.reports.map((r) =>
      r.id === 103
        ? {
            ...r,
            externalWorkbookPlacements: (r.externalWorkbookPlacements ?? []).map((p) => ({ ...p, id: null })),
          }
        : r,
    );
    const root = await renderPane(host);
    await act(async () => host.select(ctx("Sales", "I5")));
    await click(disconnectButton(root));
    await settle();
    expect(host.calls.disconnect[0]?.input).toEqual({
      externalWorkbookId: WORKBOOK_ID,
      sheetName: "Sales",
      anchorCell: "H2",
      sheetId: "sheet-sales",
    });
  });

  it("shows the error as a toast and keeps the list when the service refuses", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4") });
    host.platform.disconnect = async () => {
      throw {
        kind: "forbidden",
        message: "The API key is valid but not allowed (403). Use a key that covers it.",
      };
    };
    const root = await renderPane(host);
    await click(disconnectButton(root));
    await settle();
    await waitFor(() => expect(document.body.textContent).toContain("not allowed (403)"));
    expect(items(root)).toHaveLength(4);
    expect(disconnectButton(root).disabled).toBe(false);
  });

  it("disconnects a recreated tab's placement from its menu, without the stale sheet id (disconnect rule 7)", async () => {
    const host = new FakeHost({ context: ctx("Pipeline", "C4") });
    const root = await renderPane(host);
    const pipeline = itemNamed(root, "Pipeline by stage");
    await click(buttonByName(pipeline, "Actions for Pipeline by stage at Pipeline!B3:E12"));
    const menuItem = (await openedMenuItems()).find((m) => m.textContent === "Disconnect this placement");
    expect(menuItem).toBeDefined();
    await click(menuItem as Element);
    await settle();
    expect(host.calls.disconnect).toEqual([
      {
        deploymentId: 1,
        reportId: 102,
        input: { externalWorkbookId: WORKBOOK_ID, sheetName: "Pipeline", anchorCell: "B3" },
      },
    ]);
    expect(items(root).some((li) => li.textContent?.includes("Pipeline by stage"))).toBe(false);
  });
});

describe("the host's Disconnect report here command", () => {
  it("disconnects the placement under the command's cell and reports the outcome through done", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1") });
    const root = await renderPane(host);
    let outcome: { ok: boolean; message: string } | undefined;
    await act(async () => {
      outcome = await host.command(ctx("Regions", "B2"));
    });
    await settle();
    expect(outcome).toEqual({
      ok: true,
      message: "Disconnected Revenue by region from Regions!A1:C5; the cells keep their values.",
    });
    expect(host.calls.disconnect).toEqual([
      { deploymentId: 1, reportId: 101, input: { placementId: "p-rev-regions" } },
    ]);
    await waitFor(() =>
      expect(document.body.textContent).toContain("Disconnected Revenue by region from Regions!A1:C5"),
    );
    expect(items(root)).toHaveLength(3);
  });

  it("says there is nothing to disconnect when no placement is under the cell", async () => {
    const host = new FakeHost();
    await renderPane(host);
    let outcome: { ok: boolean; message: string } | undefined;
    await act(async () => {
      outcome = await host.command(ctx("Sales", "Z99"));
    });
    await settle();
    expect(outcome?.ok).toBe(false);
    expect(outcome?.message).toContain("No report is placed at Sales!Z99");
    expect(host.calls.disconnect).toHaveLength(0);
    await waitFor(() => expect(document.body.textContent).toContain("No report is placed at Sales!Z99"));
  });

  it("sends one request when a command arrives while the same placement is being disconnected", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), holdDisconnects: true });
    const root = await renderPane(host);
    await click(disconnectButton(root));
    await settle();
    let outcome: { ok: boolean; message: string } | undefined;
    let pending: Promise<void> = Promise.resolve();
    await act(async () => {
      pending = host.command(ctx("Sales", "D5")).then((o) => {
        outcome = o;
      });
    });
    await settle();
    expect(host.calls.disconnect).toHaveLength(1);
    await act(async () => host.pendingDisconnects[0]?.resolve());
    await act(async () => pending);
    await settle();
    expect(host.calls.disconnect).toHaveLength(1);
    expect(outcome?.ok).toBe(true);
  });
});

describe("the host's right-click command follows the active cell", () => {
  it("is offered over a placement and withdrawn off every placement", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4", SALES_ID) });
    await renderPane(host);
    await waitFor(() => expect(host.calls.offerCellCommands.at(-1)).toBe(true));
    await act(async () => host.select(ctx("Sales", "Z99", SALES_ID)));
    await waitFor(() => expect(host.calls.offerCellCommands.at(-1)).toBe(false));
    await act(async () => host.select(ctx("Sales", "B2", SALES_ID)));
    await waitFor(() => expect(host.calls.offerCellCommands.at(-1)).toBe(true));
  });
});
