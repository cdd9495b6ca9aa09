/**
 * Excel's cells as Office.js reaches them, for the tests of writing and reading a placement's
 * grid: worksheets by id or name, ranges by A1 address, `values`, `numberFormat`,
 * `format.font.bold`, `clear()`, `load()` and `context.sync()`, with Excel's rules written in, each
 * from Microsoft's documentation:
 *
 * - Nothing happens before `context.sync()`: writes are queued and applied by it, in order; a
 *   property is readable only after `load` and a `sync` (else `PropertyNotLoaded`): "Call
 *   context.sync() before reading the properties" (Office.js, load and sync).
 * - A sync whose request is larger than 5 MB fails with `RequestPayloadSizeLimitExceeded` and
 *   applies nothing; an answer larger than 5 MB with `ResponsePayloadSizeLimitExceeded` ("Resource
 *   limits and performance optimization for Office Add-ins", Excel add-ins: Excel on the web's
 *   payload limit for requests and responses).
 * - A range read is limited to 5,000,000 cells (same page); "Read or write to a large range":
 *   split large ranges into row blocks.
 * - `worksheets.getItem` of a sheet that is not there fails at the sync with `ItemNotFound`.
 * - A 2-D `values` or `numberFormat` must have the range's dimensions (`InvalidArgument`).
 */
import { type CellRange, parseCell } from "../../src/core/location.js";
import { officeError } from "./office-proxy.js";

export const EXCEL_PAYLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
export const EXCEL_READ_CELL_LIMIT = 5_000_000;

export interface CellsSheet {
  id: string;
  name: string;
}

function parseAddress(address: string): CellRange {
  const a1 = address.slice(address.lastIndexOf("!") + 1).replace(/\$/g, "");
  const [start, end] = a1.split(":");
  const a = parseCell(start ?? "");
  const b = parseCell(end ?? start ?? "");
  if (!a || !b) throw officeError("InvalidArgument", `The argument is invalid or missing: ${address}`);
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.col, b.col),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.col, b.col),
  };
}

type Op =
  | { kind: "values" | "numberFormat"; sheet: string; address: string; value: unknown[][] }
  | { kind: "bold"; sheet: string; address: string; value: boolean }
  | { kind: "clear"; sheet: string; address: string; applyTo: string }
  | { kind: "load"; sheet: string; address: string; proxy: RangeProxy }
  | { kind: "sheet"; sheet: string };

interface RangeProxy {
  loaded: unknown[][] | null;
}

export interface CellsWorkbook {
  /** The `Excel` global for `Excel.run` (what the Excel host's grid code uses). */
  Excel: { run<T>(batch: (context: unknown) => Promise<T>): Promise<T> };
  sheets: CellsSheet[];
  /** The value of one cell ("B2") of a sheet (by id), undefined when empty. */
  value(sheetId: string, cell: string): unknown;
  numberFormat(sheetId: string, cell: string): string | undefined;
  bold(sheetId: string, cell: string): boolean;
  /** Puts values in the sheet directly (the user typing). */
  type(sheetId: string, topLeft: string, values: unknown[][]): void;
  /** Request bytes of each sync that went through, in order. */
  readonly syncPayloads: number[];
  /** Request bytes of each sync that went through and wrote cells (values, formats, bold, clear). */
  readonly writeSyncs: number[];
  /** Syncs that failed, with their error codes. */
  readonly failedSyncs: string[];
  /** Lets `count` more syncs that write go through, then fails those that write (a write that fails half way). */
  failWritesAfter(count: number, code?: string): void;
  /**
   * One `Excel.run`'s request context, for a fuller Office.js stand-in (office-stand-in.ts) to build
   * its own context on: `worksheet(idOrName)` is `context.workbook.worksheets.getItem`, and `sync`
   * is `context.sync()` for the cells.
   */
  batch(): CellsBatch;
}

export interface CellsBatch {
  worksheet(idOrName: string): object;
  sync(): Promise<void>;
}

/** A text's size in UTF-8 bytes (the payload Excel measures); runs in Node and in a browser. */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function createCellsWorkbook(sheets: CellsSheet[]): CellsWorkbook {
  const cells = new Map<string, Map<string, unknown>>();
  const formats = new Map<string, Map<string, string>>();
  const bolds = new Map<string, Set<string>>();
  const syncPayloads: number[] = [];
  const writeSyncs: number[] = [];
  const failedSyncs: string[] = [];
  let failAfter: { remaining: number; code: string } | null = null;

  const key = (row: number, col: number) => `${row}:${col}`;
  const of = <V>(map: Map<string, V>, sheetId: string, make: () => V): V => {
    let v = map.get(sheetId);
    if (!v) {
      v = make();
      map.set(sheetId, v);
    }
    return v;
  };
  const sheetOf = (idOrName: string): CellsSheet | undefined =>
    sheets.find((s) => s.id === idOrName) ?? sheets.find((s) => s.name === idOrName);

  function apply(op: Op): void {
    if (op.kind === "sheet") return;
    const sheet = sheetOf(op.sheet)!;
    const range = parseAddress(op.address);
    const rows = range.bottom - range.top + 1;
    const cols = range.right - range.left + 1;
    const each = (fn: (row: number, col: number, r: number, c: number) => void) => {
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) fn(range.top + r, range.left + c, r, c);
    };
    switch (op.kind) {
      case "values":
      case "numberFormat": {
        const target =
          op.kind === "values"
            ? of(cells, sheet.id, () => new Map())
            : of(formats, sheet.id, () => new Map());
        each((row, col, r, c) => {
          const v = op.value[r]?.[c];
          if (op.kind === "values" && (v === "" || v === null || v === undefined))
            target.delete(key(row, col));
          else target.set(key(row, col), v as never);
        });
        return;
      }
      case "bold": {
        const set = of(bolds, sheet.id, () => new Set());
        each((row, col) => (op.value ? set.add(key(row, col)) : set.delete(key(row, col))));
        return;
      }
      case "clear": {
        each((row, col) => {
          cells.get(sheet.id)?.delete(key(row, col));
          if (op.applyTo !== "Contents") {
            formats.get(sheet.id)?.delete(key(row, col));
            bolds.get(sheet.id)?.delete(key(row, col));
          }
        });
        return;
      }
      case "load": {
        const count = rows * cols;
        if (count > EXCEL_READ_CELL_LIMIT) {
          throw officeError(
            "ResponsePayloadSizeLimitExceeded",
            `The range has ${count} cells; a read is limited to ${EXCEL_READ_CELL_LIMIT}.`,
          );
        }
        const sheetCells = cells.get(sheet.id);
        op.proxy.loaded = Array.from({ length: rows }, (_, r) =>
          Array.from({ length: cols }, (_, c) => sheetCells?.get(key(range.top + r, range.left + c)) ?? ""),
        );
        return;
      }
    }
  }

  function checkShape(address: string, value: unknown): unknown[][] {
    const range = parseAddress(address);
    const rows = range.bottom - range.top + 1;
    const cols = range.right - range.left + 1;
    if (
      !Array.isArray(value) ||
      value.length !== rows ||
      value.some((row) => !Array.isArray(row) || row.length !== cols)
    ) {
      throw officeError(
        "InvalidArgument",
        `The number of rows or columns in the input array doesn't match the size or dimensions of the range (${address}).`,
      );
    }
    return value as unknown[][];
  }

  function batch(): CellsBatch {
    let queue: Op[] = [];
    return {
      worksheet(idOrName: string) {
        queue.push({ kind: "sheet", sheet: idOrName });
        return {
          getRange(address: string) {
            const proxy: RangeProxy = { loaded: null };
            const range = {
              set values(v: unknown[][]) {
                queue.push({ kind: "values", sheet: idOrName, address, value: checkShape(address, v) });
              },
              get values(): unknown[][] {
                if (!proxy.loaded) {
                  throw officeError(
                    "PropertyNotLoaded",
                    "The property 'values' is not available. Before reading the property's value, call the load method on the containing object and call \"context.sync()\" on the associated request context.",
                  );
                }
                return proxy.loaded;
              },
              set numberFormat(v: unknown[][]) {
                queue.push({
                  kind: "numberFormat",
                  sheet: idOrName,
                  address,
                  value: checkShape(address, v),
                });
              },
              format: {
                font: {
                  set bold(v: boolean) {
                    queue.push({ kind: "bold", sheet: idOrName, address, value: v });
                  },
                },
              },
              clear(applyTo: string = "All") {
                queue.push({ kind: "clear", sheet: idOrName, address, applyTo });
              },
              load(_props?: string) {
                queue.push({ kind: "load", sheet: idOrName, address, proxy });
                return range;
              },
              /** Selecting changes no cell. */
              select() {},
            };
            return range;
          },
        };
      },
      async sync() {
        const ops = queue;
        queue = [];
        const request = JSON.stringify(
          ops.map((op) => (op.kind === "load" ? { ...op, proxy: undefined } : op)),
        );
        const bytes = utf8Bytes(request);
        const writes = ops.some((op) => op.kind !== "load" && op.kind !== "sheet");
        if (failAfter && writes && failAfter.remaining-- <= 0) {
          failedSyncs.push(failAfter.code);
          throw officeError(failAfter.code, "The operation failed (a failure the test asked for).");
        }
        if (bytes > EXCEL_PAYLOAD_LIMIT_BYTES) {
          failedSyncs.push("RequestPayloadSizeLimitExceeded");
          throw officeError(
            "RequestPayloadSizeLimitExceeded",
            "The request payload size has exceeded the limit.",
          );
        }
        for (const op of ops) {
          if ((op.kind === "sheet" || "sheet" in op) && !sheetOf(op.sheet)) {
            failedSyncs.push("ItemNotFound");
            throw officeError("ItemNotFound", `The requested resource doesn't exist: ${op.sheet}`);
          }
        }
        for (const op of ops) apply(op);
        const response = ops
          .filter((op): op is Extract<Op, { kind: "load" }> => op.kind === "load")
          .reduce((n, op) => n + utf8Bytes(JSON.stringify(op.proxy.loaded)), 0);
        if (response > EXCEL_PAYLOAD_LIMIT_BYTES) {
          failedSyncs.push("ResponsePayloadSizeLimitExceeded");
          for (const op of ops) if (op.kind === "load") op.proxy.loaded = null;
          throw officeError(
            "ResponsePayloadSizeLimitExceeded",
            "The response payload size has exceeded the limit.",
          );
        }
        syncPayloads.push(bytes);
        if (writes) writeSyncs.push(bytes);
      },
    };
  }

  async function run<T>(body: (context: unknown) => Promise<T>): Promise<T> {
    const b = batch();
    return body({ workbook: { worksheets: { getItem: b.worksheet } }, sync: b.sync });
  }

  return {
    Excel: { run },
    sheets,
    value: (sheetId, cell) => {
      const ref = parseCell(cell);
      return ref ? cells.get(sheetId)?.get(key(ref.row, ref.col)) : undefined;
    },
    numberFormat: (sheetId, cell) => {
      const ref = parseCell(cell);
      return ref ? formats.get(sheetId)?.get(key(ref.row, ref.col)) : undefined;
    },
    bold: (sheetId, cell) => {
      const ref = parseCell(cell);
      return ref ? (bolds.get(sheetId)?.has(key(ref.row, ref.col)) ?? false) : false;
    },
    type(sheetId, topLeft, values) {
      const ref = parseCell(topLeft)!;
      const target = of(cells, sheetId, () => new Map());
      values.forEach((row, r) => {
        row.forEach((v, c) => {
          target.set(key(ref.row + r, ref.col + c), v);
        });
      });
    },
    syncPayloads,
    writeSyncs,
    failedSyncs,
    failWritesAfter(count, code = "GeneralException") {
      failAfter = { remaining: count, code };
    },
    batch,
  };
}
