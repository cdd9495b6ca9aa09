/**
 * Writing and reading a placement's cells in Excel (Office.js), one `context.sync()` each: the
 * host's half of the refresh flow (src/core/refresh-flow.ts decides the blocks, the order, what to
 * clear and what to ask). Microsoft's rules this follows (docs/excel.md, "Writing cells"):
 *
 * - Excel on the web refuses a request or response over 5 MB (`RequestPayloadSizeLimitExceeded`):
 *   the core sizes each block under it, and each block is one sync ("Resource limits and
 *   performance optimization for Office Add-ins"; "Read or write to a large range").
 * - A `null` in `Range.values` leaves that cell as it is; an empty cell is written as "".
 * - Dates are serial numbers shown through `numberFormat`, set per date area with a 2-D array of
 *   the area's size (a 2-D `numberFormat` must match the range's dimensions).
 */

import { formatCell, parseCell } from "../../core/location.js";
import type { PlaceItem, PlaceOutcome } from "../../core/place-flow.js";
import type { CellBlock, CellRead, RefreshOutcome } from "../../core/refresh-flow.js";
import type { RefreshItem } from "../../core/refresh-plan.js";
import type { DirectGateway } from "../direct-gateway.js";
import { placeWithGateway, type RefreshGateway, refreshWithGateway } from "../direct-refresh.js";
import type { PlaceHandlers, RefreshHandlers } from "../host.js";
import type { ExcelApi } from "./office.js";

function isItemNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ItemNotFound";
}

/** "B2" and a size -> "B2:F8". */
function areaAddress(
  topLeft: string,
  rowOffset: number,
  colOffset: number,
  rows: number,
  columns: number,
): string {
  const start = parseCell(topLeft);
  if (!start) throw new Error(`Not a cell: ${topLeft}`);
  const a = { row: start.row + rowOffset, col: start.col + colOffset };
  const b = { row: a.row + rows - 1, col: a.col + columns - 1 };
  const first = formatCell(a);
  const last = formatCell(b);
  return first === last ? first : `${first}:${last}`;
}

export interface ExcelCells {
  write(block: CellBlock): Promise<void>;
  read(read: CellRead): Promise<unknown[][]>;
}

type Context = Excel.RequestContext;

export function createExcelCells(Excel: Pick<ExcelApi, "run">): ExcelCells {
  /** Runs `batch` on the sheet by its id (a renamed tab keeps it), else by name. */
  async function onSheet<T>(
    sheet: { id: string | null; name: string },
    batch: (context: Context, worksheet: Excel.Worksheet) => Promise<T>,
  ): Promise<T> {
    const run = (key: string) =>
      Excel.run((context: Context) => batch(context, context.workbook.worksheets.getItem(key)));
    if (sheet.id) {
      try {
        return await run(sheet.id);
      } catch (error) {
        if (!isItemNotFound(error)) throw error;
      }
    }
    return run(sheet.name);
  }

  return {
    write(block) {
      return onSheet(block.sheet, async (context, worksheet) => {
        for (const address of block.clear)
          worksheet.getRange(address).clear("Contents" as Excel.ClearApplyTo);
        const rows = block.values.length;
        const columns = block.values[0]?.length ?? 0;
        if (rows > 0 && columns > 0) {
          const range = worksheet.getRange(areaAddress(block.topLeft, 0, 0, rows, columns));
          // null would leave a cell as it was: an empty result cell is written empty.
          range.values = block.values.map((row) => row.map((v) => (v === null ? "" : v)));
          if (block.boldRows > 0) {
            worksheet.getRange(areaAddress(block.topLeft, 0, 0, block.boldRows, columns)).format.font.bold =
              true;
          }
          for (const area of block.dateFormats) {
            const formats = Array.from({ length: area.rows }, () =>
              Array<string>(area.columns).fill(area.format),
            );
            worksheet.getRange(
              areaAddress(block.topLeft, area.row, area.column, area.rows, area.columns),
            ).numberFormat = formats;
          }
        }
        await context.sync();
      });
    },

    read({ sheet, range }) {
      return onSheet(sheet, async (context, worksheet) => {
        const r = worksheet.getRange(range).load("values");
        await context.sync();
        return r.values as unknown[][];
      });
    },
  };
}

/** The Excel host's refresh: the core's flow over these cells and the direct gateway. */
export function refreshInExcel(
  items: readonly RefreshItem[],
  handlers: RefreshHandlers,
  gateway: RefreshGateway,
  Excel: Pick<ExcelApi, "run">,
): Promise<RefreshOutcome[]> {
  return refreshWithGateway(items, handlers, gateway, createExcelCells(Excel));
}

/**
 * Makes sure the workbook's id property holds `id` (the id placements are recorded under), adding
 * it when the file has none (a read-only file could not take it when the pane first read it:
 * host.ts). `CustomPropertyCollection.add` creates the property or sets an existing one (ExcelApi
 * 1.7). Resolves null when it is there, else what to tell the user.
 */
export async function storeWorkbookId(
  Excel: Pick<ExcelApi, "run">,
  property: string,
  id: string,
): Promise<string | null> {
  try {
    return await Excel.run(async (context: Context) => {
      const custom = context.workbook.properties.custom;
      const stored = custom.getItemOrNullObject(property).load("value");
      await context.sync();
      const value = stored.isNullObject === true ? "" : String(stored.value ?? "").trim();
      if (value === id) return null;
      if (value) {
        return "Not placed: this workbook's id is not the one the pane loaded (the file changed). Press Reload list, then try again.";
      }
      custom.add(property, id);
      await context.sync();
      return null;
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `Not placed: the workbook's id could not be saved in its properties (${detail}), so the placement could not be found again. A read-only or protected file cannot hold placements: use a copy you can edit.`;
  }
}

/**
 * The Excel host's "Place a report here": the workbook's id property made sure of (the placement is
 * recorded under it), then the core's place flow over these cells and the direct gateway.
 */
export async function placeInExcel(
  item: PlaceItem,
  handlers: PlaceHandlers,
  gateway: Pick<DirectGateway, "loadReportData" | "connectReportToWorkbook" | "getReport">,
  Excel: Pick<ExcelApi, "run">,
  idProperty: string,
): Promise<PlaceOutcome> {
  const refused = await storeWorkbookId(Excel, idProperty, item.target.workbookId);
  if (refused !== null) return { status: "not-placed", item, reason: "no-workbook-id", message: refused };
  return placeWithGateway(item, handlers, gateway, createExcelCells(Excel));
}
