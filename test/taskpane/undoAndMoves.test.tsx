// @vitest-environment jsdom
/**
 * Undo of a disconnect, a renamed tab's address corrected, and Move here, in the pane. The fake
 * service applies disconnect and connect-workbook with the sandbox's own rules (the service's side).
 */
import { act } from "react";
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import {
  buttonByName,
  click,
  ctx,
  FakeHost,
  queryButton,
  report,
  SHEETS,
  settle,
  settledDemoReports,
  WORKBOOK_ID,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

const items = (root: ParentNode) => [...root.querySelectorAll<HTMLLIElement>("li[data-placement-key]")];
const itemNamed = (root: ParentNode, name: string) =>
  items(root).find((li) => li.textContent?.includes(name));
const messages = () => document.querySelector('[aria-label="Messages"]') as HTMLElement;

const settledReports = settledDemoReports;

async function menuItem(root: HTMLElement, actions: string, label: string): Promise<Element> {
  await click(buttonByName(root, actions));
  await settle();
  let found: Element | undefined;
  await waitFor(() => {
    found = [...document.querySelectorAll('[role="menuitem"]')].find((m) => m.textContent === label);
    expect(found).toBeDefined();
  });
  return found!;
}

describe("Undo of a disconnect", () => {
  it("offers Undo on the outcome; Undo re-creates the same placement, says so and focuses its row", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), reports: settledReports() });
    const root = await renderPane(host);
    const before = host.reports[0]!.externalWorkbookPlacements!.find((p) => p.id === "p-rev-sales")!;
    await click(buttonByName(root, "Disconnect report here"));
    await waitFor(() =>
      expect(messages().textContent).toContain("Disconnected Revenue by region from Sales!B2:F20"),
    );
    expect(items(root)).toHaveLength(3);

    await click(buttonByName(messages(), "Undo"));
    await waitFor(() =>
      expect(messages().textContent).toContain("Undone: Revenue by region is placed at Sales!B2:F20 again."),
    );
    expect(host.calls.connect).toHaveLength(1);
    const { placementId, ...sent } = host.calls.connect[0]!.input;
    expect(placementId).toBeUndefined();
    expect(sent).toEqual({
      externalWorkbookId: WORKBOOK_ID,
      resultLocation: "Sales!B2",
      sheetId: "sheet-sales",
      sheetName: "Sales",
      anchorCell: "B2",
      endResultCell: "F20",
      workbookName: "Q3.xlsx",
      host: "EXCEL",
    });
    // Back in the list, under the cell, and focus is on its row.
    await waitFor(() => expect(items(root)).toHaveLength(4));
    const back = host.reports[0]!.externalWorkbookPlacements!.find((p) => p.anchorCell === "B2")!;
    expect(back).toMatchObject({ sheetId: before.sheetId, endResultCell: before.endResultCell });
    const row = itemNamed(root, "Sales!B2:F20");
    await waitFor(() => expect(document.activeElement).toBe(row?.querySelector("[data-placement-select]")));
    // The disconnect's message went with its Undo.
    expect(messages().textContent).not.toContain("Disconnected Revenue by region");
  });

  it("offers Undo on the right-click command's outcome too, and on a disconnect from the placement's menu", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1"), reports: settledReports() });
    const root = await renderPane(host);
    await act(async () => {
      await host.command(ctx("Sales", "H3"));
    });
    await waitFor(() => expect(queryButton(messages(), "Undo")).toBeDefined());
    await click(buttonByName(messages(), "Undo"));
    await waitFor(() =>
      expect(messages().textContent).toContain("Undone: Top customers is placed at Sales!H2:J10 again."),
    );

    const item = await menuItem(
      root,
      "Actions for Revenue by region at Regions!A1:C5",
      "Disconnect this placement",
    );
    await click(item);
    await waitFor(() =>
      expect(messages().textContent).toContain("Disconnected Revenue by region from Regions!A1:C5"),
    );
    await click(buttonByName(messages(), "Undo"));
    await waitFor(() => expect(messages().textContent).toContain("is placed at Regions!A1:C5 again."));
    expect(items(root)).toHaveLength(4);
  });

  it("keeps the Undo while the message shows (a success with an action does not pass by itself)", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), reports: settledReports() });
    const root = await renderPane(host);
    await click(buttonByName(root, "Disconnect report here"));
    await waitFor(() => expect(queryButton(messages(), "Undo")).toBeDefined());
    // Dismissed: the Undo goes with it.
    await click(buttonByName(messages(), "Dismiss"));
    await settle();
    expect(queryButton(messages(), "Undo")).toBeUndefined();
  });

  it("after the list changed elsewhere, says why nothing was restored (placed again already)", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), reports: settledReports() });
    const root = await renderPane(host);
    await click(buttonByName(root, "Disconnect report here"));
    await waitFor(() => expect(queryButton(messages(), "Undo")).toBeDefined());
    // Someone placed the report at the same spot again meanwhile.
    await host.platform.connectReportToWorkbook(1, 101, {
      externalWorkbookId: WORKBOOK_ID,
      resultLocation: "Sales!B2",
      endResultCell: "F20",
    });
    await click(buttonByName(messages(), "Undo"));
    await waitFor(() => expect(messages().textContent).toContain("is placed at Sales!B2:F20 again already"));
    expect(host.calls.connect).toHaveLength(1);
    expect(queryButton(messages(), "Undo")).toBeUndefined();
  });

  it("says the report is gone, and offers Undo again after a failure that may pass", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4"), reports: settledReports() });
    const root = await renderPane(host);
    await click(buttonByName(root, "Disconnect report here"));
    await waitFor(() => expect(queryButton(messages(), "Undo")).toBeDefined());
    host.connectError = new PlatformError(
      "server",
      "The Reporting Platform had a problem (503). Try again.",
      {
        status: 503,
      },
    );
    await click(buttonByName(messages(), "Undo"));
    await waitFor(() =>
      expect(messages().textContent).toContain("Not undone: The Reporting Platform had a problem (503)"),
    );
    expect(queryButton(messages(), "Undo")).toBeDefined();

    host.connectError = undefined;
    host.reports = host.reports.filter((r) => r.id !== 101);
    await click(buttonByName(messages(), "Undo"));
    await waitFor(() =>
      expect(messages().textContent).toContain("Revenue by region is no longer in the deployment"),
    );
  });
});

describe("a renamed tab", () => {
  it("corrects the placement's address once, with addressOnly, and says so", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1") });
    const root = await renderPane(host);
    await waitFor(() =>
      expect(messages().textContent).toContain("Revenue by region moved with its sheet, now on Regions"),
    );
    expect(host.calls.connect).toEqual([
      {
        deploymentId: 1,
        reportId: 101,
        input: {
          placementId: "p-rev-regions",
          externalWorkbookId: WORKBOOK_ID,
          resultLocation: "Regions!A1:C5",
          sheetName: "Regions",
          anchorCell: "A1",
          endResultCell: "C5",
          sheetId: "sheet-regions",
          addressOnly: true,
        },
      },
    ]);
    // Stored under the new name: no note, and no second correction on a reload.
    const row = itemNamed(root, "Regions!A1:C5")!;
    expect(row.textContent).not.toContain("Sheet renamed from");
    await click(buttonByName(root, "Reload list"));
    await settle();
    expect(host.calls.connect).toHaveLength(1);
    // The status it had is kept (addressOnly keeps the refresh fields).
    expect(host.reports[0]!.externalWorkbookPlacements![1]).toMatchObject({ sheetName: "Regions" });
  });

  it("a correction the service refuses is said, and the placement is still listed under the new name", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1") });
    host.connectError = new PlatformError("forbidden", "The API key is valid but not allowed (403).", {
      status: 403,
    });
    const root = await renderPane(host);
    await waitFor(() =>
      expect(messages().textContent).toContain("but the service could not record the new name"),
    );
    expect(itemNamed(root, "Regions!A1:C5")?.textContent).toContain("Sheet renamed from Regional");
  });
});

describe("a placement stored without a sheet id whose sheet name is gone", () => {
  const lost = () => [
    ...settledReports(),
    report(104, "Margin by product", [
      {
        id: "p-margin",
        workbookId: WORKBOOK_ID,
        sheetName: "Products",
        anchorCell: "B2",
        resultLocation: "Products!B2",
        endResultCell: "D8",
        syncStatus: "UP_TO_DATE",
      },
    ]),
  ];

  it("is Not found, with Move here next to Disconnect; Move here records it at the active cell", async () => {
    const host = new FakeHost({ context: ctx("Pipeline", "H4"), reports: lost() });
    const root = await renderPane(host);
    const row = itemNamed(root, "Margin by product")!;
    expect(row.textContent).toContain("Not found: no sheet is named Products now.");
    expect(row.textContent).toContain("choose Move here from the Actions menu");
    expect(row.textContent).not.toContain("no longer in this workbook");
    const move = await menuItem(root, "Actions for Margin by product at Products!B2:D8", "Move here");
    expect([...document.querySelectorAll('[role="menuitem"]')].map((m) => m.textContent)).toContain(
      "Disconnect this placement",
    );
    await click(move);
    await waitFor(() =>
      expect(messages().textContent).toContain("Margin by product is now recorded at Pipeline!H4:J10."),
    );
    expect(host.calls.connect.at(-1)).toEqual({
      deploymentId: 1,
      reportId: 104,
      input: {
        placementId: "p-margin",
        externalWorkbookId: WORKBOOK_ID,
        resultLocation: "Pipeline!H4:J10",
        sheetName: "Pipeline",
        anchorCell: "H4",
        endResultCell: "J10",
        sheetId: SHEETS[2]!.id,
        addressOnly: true,
      },
    });
    await waitFor(() => expect(itemNamed(root, "Margin by product")?.textContent).not.toContain("Not found"));
  });

  it("offers no Move here on a placement that is found", async () => {
    const host = new FakeHost({ context: ctx("Sales", "A1"), reports: lost() });
    const root = await renderPane(host);
    await menuItem(root, "Actions for Top customers at Sales!H2:J10", "Disconnect this placement");
    expect([...document.querySelectorAll('[role="menuitem"]')].map((m) => m.textContent)).not.toContain(
      "Move here",
    );
  });
});
