/**
 * The preview's `SpreadsheetHost`: the simulated workbook of `workbook.ts` seen through the same
 * interface Excel and Google Sheets implement. Thin: it reads and changes the workbook, forwards the
 * cell menu's command, and hands the pane a gateway that calls the service from the page.
 */
import { placedReports } from "../../core/placement-view.js";
import { findPlacementAt } from "../../core/placements.js";
import type { CellBlock, CellRead } from "../../core/refresh-flow.js";
import type { DirectGateway } from "../direct-gateway.js";
import { placeWithGateway, refreshWithGateway } from "../direct-refresh.js";
import type {
  ActiveContext,
  HostCommand,
  PlatformGateway,
  RangeTarget,
  SpreadsheetHost,
  WorkbookSnapshot,
} from "../host.js";
import { createListeners, settler } from "../listeners.js";
import type { PreviewWorkbook } from "./workbook.js";

/**
 * What the preview needs of the gateway beyond `PlatformGateway`: this workbook's reports, and a
 * report's data and the record of a refresh (the direct gateway's).
 */
export type PreviewGateway = PlatformGateway &
  Pick<DirectGateway, "listWorkbookReports" | "loadReportData" | "recordRefresh"> &
  // A refresh's load runs in a worker when the gateway has this (src/hosts/direct-refresh.ts).
  Partial<Pick<DirectGateway, "runDataEffect">> &
  // Place a report here is offered when the gateway has all three.
  Partial<Pick<DirectGateway, "listDeploymentReports" | "getReport" | "connectReportToWorkbook">>;

type CommandOutcome = import("../host.js").Outcome;

/** What the preview's page can ask of its sandbox beyond the service's API (docs/sandbox.md). */
export interface PreviewSandbox {
  /** The report's owner changes its query on the platform: its placements turn Out of date. */
  changeQuery(deploymentId: number, reportId: number): Promise<void>;
}

export interface PreviewHost extends SpreadsheetHost {
  /**
   * "Change this report's query" from the cell menu: the report under the active cell changes on
   * the sandbox, and the pane reloads its list (the placement reads Out of date). Resolves with what
   * the workbook's status bar says.
   */
  changeQueryHere(): Promise<CommandOutcome>;
  /**
   * Sends "disconnect-here" at the active cell to the pane, as Excel's cell menu does, and resolves
   * with what the pane reports back.
   */
  disconnectHere(): Promise<CommandOutcome>;
  /**
   * The cells of a range as they are now, read as a refresh reads them back (cells.ts, `readBack`):
   * what was written or typed (numbers as numbers, text as text), "" for an empty cell. The sheet by
   * id, else by name; rejects when neither is in this workbook.
   */
  readRange(target: RangeTarget): Promise<unknown[][]>;
}

/** A selection that stays put this long is reported once, with the latest context. */
export const CONTEXT_COALESCE_MS = 40;

function contextOf(workbook: PreviewWorkbook): ActiveContext {
  const s = workbook.getSnapshot();
  const sheet = workbook.activeSheet();
  return {
    workbookId: s.workbookId,
    workbookName: s.workbookName,
    sheetId: sheet.id,
    sheetName: sheet.name,
    cell: s.activeCell,
  };
}

/** What a context listener cares about: the context and the sheets (renames, recreated tabs). */
function signature(workbook: PreviewWorkbook): string {
  const s = workbook.getSnapshot();
  return JSON.stringify([contextOf(workbook), s.sheets]);
}

export function createPreviewHost(
  workbook: PreviewWorkbook,
  gateway: PreviewGateway,
  sandbox?: PreviewSandbox,
): PreviewHost {
  // The pane replaces a report with the one a disconnect returns; the workbook shades the same.
  const platform: PlatformGateway = {
    getSettings: () => gateway.getSettings(),
    saveSettings: (patch) => gateway.saveSettings(patch),
    listDeployments: () => gateway.listDeployments(),
    listScimUsers: (page) => gateway.listScimUsers(page),
    ask: (request, options) => gateway.ask(request, options),
    abortChat: (chatId) => gateway.abortChat(chatId),
    async disconnect(deploymentId, reportId, input) {
      const report = await gateway.disconnect(deploymentId, reportId, input);
      workbook.replaceReport(report);
      return report;
    },
    async connectReportToWorkbook(deploymentId, reportId, input) {
      const report = await gateway.connectReportToWorkbook(deploymentId, reportId, input);
      workbook.replaceReport(report);
      return report;
    },
  };

  const contextListeners = createListeners<[ActiveContext]>();
  const workbookListeners = createListeners<[]>();
  const commandListeners = createListeners<[HostCommand]>();
  const themeListeners = createListeners<["light" | "dark"]>();

  let lastSignature = signature(workbook);
  let lastTheme = workbook.getSnapshot().theme;

  // Settled, as the interface says "once per settled selection change": a held arrow key reports
  // where it stops, not every cell on the way.
  const selectionSettled = settler(() => {
    const next = signature(workbook);
    if (next === lastSignature) return;
    lastSignature = next;
    contextListeners.notify(contextOf(workbook));
  }, CONTEXT_COALESCE_MS);

  workbook.subscribe(() => {
    const theme = workbook.getSnapshot().theme;
    if (theme !== lastTheme) {
      lastTheme = theme;
      themeListeners.notify(theme);
    }
    selectionSettled.trigger();
  });

  // A hand edit (the grid's typing, Delete) changes cells the context does not show: the pane
  // hears of it as of any change of the workbook. A refresh's own writes are not edits.
  workbook.onCellsEdited(() => workbookListeners.notify());
  const cells = {
    async write(block: CellBlock) {
      workbook.writeCells({
        sheetId: block.sheet.id,
        sheetName: block.sheet.name,
        topLeft: block.topLeft,
        values: block.values,
        dateFormats: block.dateFormats,
        clear: block.clear,
      });
    },
    async read({ sheet, range }: CellRead) {
      return workbook.readCells(sheet.id, sheet.name, range);
    },
  };
  const { listDeploymentReports, getReport, connectReportToWorkbook } = gateway;
  const placing =
    listDeploymentReports && getReport && connectReportToWorkbook
      ? ({
          listDeploymentReports: () => listDeploymentReports.call(gateway),
          async placeReport(item, handlers) {
            const outcome = await placeWithGateway(
              item,
              handlers,
              {
                loadReportData: (report, options) => gateway.loadReportData(report, options),
                getReport: (d, r) => getReport.call(gateway, d, r),
                connectReportToWorkbook: (d, r, input) => connectReportToWorkbook.call(gateway, d, r, input),
              },
              cells,
            );
            // The workbook shades the new placement as the service recorded it.
            if (outcome.status === "placed") workbook.replaceReport(outcome.report);
            return outcome;
          },
        } satisfies Pick<SpreadsheetHost, "listDeploymentReports" | "placeReport">)
      : {};

  return {
    kind: "preview",
    label: "Preview",
    platform,
    ...placing,

    async readCells(read) {
      return cells.read(read);
    },

    async activeContext() {
      return contextOf(workbook);
    },

    async loadWorkbook(): Promise<WorkbookSnapshot> {
      const context = contextOf(workbook);
      const sheets = workbook.getSnapshot().sheets.map((s) => ({ id: s.id, name: s.name }));
      const { reports, problems } = await gateway.listWorkbookReports(context.workbookId);
      workbook.setReports(reports);
      return { context, sheets, reports, problems };
    },

    onContextChanged(listener) {
      return contextListeners.add(listener);
    },

    async selectRange(target) {
      workbook.selectRange(target);
    },

    async refreshPlacements(items, handlers) {
      const outcomes = await refreshWithGateway(
        items,
        {
          ...handlers,
          // The workbook shades what the service recorded, as soon as each placement is done.
          onOutcome(outcome) {
            if (outcome.status === "refreshed") workbook.replaceReport(outcome.report);
            handlers.onOutcome?.(outcome);
          },
        },
        gateway,
        cells,
      );
      return outcomes;
    },

    onCommand(listener) {
      return commandListeners.add(listener);
    },

    onWorkbookChanged(listener) {
      return workbookListeners.add(listener);
    },

    async changeQueryHere() {
      const context = contextOf(workbook);
      const here = findPlacementAt(placedReports([...workbook.getSnapshot().reports]), context);
      if (!here) return { ok: false, message: "No report is placed at this cell." };
      if (!sandbox) return { ok: false, message: "This page has no sandbox to change the report on." };
      try {
        await sandbox.changeQuery(here.report.deploymentId, here.report.id);
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      workbookListeners.notify();
      return {
        ok: true,
        message: `The owner of ${here.report.name} changed its query on the platform: its placements are now Out of date.`,
      };
    },

    disconnectHere() {
      const context = contextOf(workbook);
      if (commandListeners.size === 0) {
        return Promise.resolve({
          ok: false,
          message: "The add-in is still loading. Wait a moment, then try again.",
        });
      }
      return new Promise<CommandOutcome>((resolve) => {
        let answered = false;
        const command: HostCommand = {
          type: "disconnect-here",
          context,
          done(outcome) {
            if (answered) return;
            answered = true;
            resolve({ ok: outcome.ok, message: outcome.message });
          },
        };
        commandListeners.notify(command);
      });
    },

    async readRange(target) {
      return workbook.readCells(target.sheetId, target.sheetName, target.range);
    },

    theme() {
      return workbook.getSnapshot().theme;
    },

    onThemeChanged(listener) {
      return themeListeners.add(listener);
    },
  };
}
