/**
 * Loads the BUILT `dist/sheets/Code.js` the way Apps Script does: one plain script in a fresh
 * global scope (a `node:vm` context with only the ECMAScript built-ins, no URL, no TextDecoder, no
 * timers, as in Apps Script's V8), beside fakes of the Apps Script services it uses. Tests drive it
 * only through the global functions the script defines.
 *
 * The fakes record what the script does: menus, sidebars, toasts, property reads and writes per
 * store, and every UrlFetchApp request. `UrlFetchApp.fetch` answers from a handler: a scripted
 * one, or `forwardTo()` (apps-script-forward.ts), which makes the request for real over loopback so
 * the same flows run against the sandbox.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import {
  type AccountKind,
  CELL_LIMIT_MESSAGE,
  checkMetaTag,
  checkPropertyWrite,
  checkRequestHeaders,
  DailyQuotas,
  ExecutionClock,
  FLUSH_MS,
  fakeCache,
  SHEETS_CELL_LIMIT,
  SimultaneousExecutions,
  SLEEP_LIMIT_MS,
  URL_FETCH_RESPONSE_LIMIT_BYTES,
  URL_FETCH_TIMEOUT_MS,
  utf8Bytes,
  WRITE_MS_PER_CELL,
} from "./apps-script-limits.js";

/** How long a fetch takes on the fake clock unless its answer says otherwise. */
const DEFAULT_FETCH_MS = 100;

const HERE = dirname(fileURLToPath(import.meta.url));
export const DIST = resolve(HERE, "../../dist/sheets");

export interface FetchedRequest {
  url: string;
  /** Upper case, as sent ("DELETE"). */
  method: string;
  headers: Record<string, string>;
  contentType: string | null;
  payload: string | null;
  muteHttpExceptions: boolean;
  followRedirects: boolean;
}

export interface FetchAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** How long the service takes to answer (fake clock); past about 60 s UrlFetchApp throws. */
  durationMs?: number;
}

export type FetchHandler = (request: FetchedRequest) => FetchAnswer;

interface FakeSheet {
  id: number;
  name: string;
  /** The active cell on this sheet ("B2"). */
  cell?: string;
  /** The grid's size (a new sheet's: 1,000 rows by 26 columns). */
  rows?: number;
  columns?: number;
}

/** What a cell holds: a value as Sheets stored it (text, number, boolean, Date) or a formula. */
export type StoredCell = string | number | boolean | Date | { formula: string };

/** One sheet's cells, by "row,column" (1-based). */
export interface SheetCells {
  values: Map<string, StoredCell>;
  formats: Map<string, string>;
  weights: Map<string, string>;
}

export interface WorldOptions {
  spreadsheetId?: string;
  spreadsheetName?: string;
  sheets?: FakeSheet[];
  /** Name of the active sheet (default: the first). */
  activeSheet?: string;
  /** The built project to load (dist/sheets by default). */
  dist?: string;
  /** Which daily quotas apply (apps-script-limits.ts): a consumer account by default. */
  account?: AccountKind;
  fetch?: FetchHandler;
  /**
   * The spreadsheet's time zone (File > Settings), "Etc/UTC" by default; the script's stays
   * "Etc/UTC". A date cell's `getValues()` Date is the instant of its wall-clock time in this zone.
   */
  spreadsheetTimeZone?: string;
}

type Store = Map<string, string>;

interface PropertyAccess {
  store: "user" | "document" | "script";
  op: "get" | "set" | "delete" | "keys";
  key?: string;
}

interface SidebarShown {
  file: string;
  title: string | null;
  width: number | null;
  metaTags: { name: string; content: string }[];
}

export interface World {
  /** The script's global scope: its functions, as Apps Script would call them. */
  // biome-ignore lint/suspicious/noExplicitAny: the script's globals are untyped by nature.
  global: Record<string, any>;
  requests: FetchedRequest[];
  toasts: { message: string; title: string | null }[];
  menus: { name: string; items: { caption: string; functionName: string }[] }[];
  sidebars: SidebarShown[];
  /** The HTML files read with HtmlService.createHtmlOutputFromFile(...).getContent(). */
  htmlFilesRead: string[];
  propertyAccess: PropertyAccess[];
  properties: { user: Store; document: Store; script: Store };
  sleeps: number[];
  /** The fake clock and the current execution (6 minutes at most each). */
  clock: ExecutionClock;
  /** CacheService.getUserCache(). */
  cache: ReturnType<typeof fakeCache>;
  /** Daily quotas (property reads and writes, URL fetches), counted and enforced per day. */
  quotas: DailyQuotas;
  /** Executions running at once (30 at most per user). */
  executions: SimultaneousExecutions;
  selections: { sheet: string; range: string }[];
  /** AuthMode.NONE: property and network access throw, as they do in Apps Script. */
  authMode: "NONE" | "LIMITED" | "FULL";
  fetch: FetchHandler;
  select(sheetName: string, cell: string): void;
  sheets: FakeSheet[];
  activeSheetName: string;
  /** Each sheet's cells, by sheet id. */
  cells: Map<number, SheetCells>;
  /** SpreadsheetApp.flush() calls, and each setValues (sheet, A1, cells). */
  flushes: number;
  writes: { sheet: string; range: string; cells: number }[];
  /** Fake-clock cost of one written cell and of one flush (apps-script-limits.ts by default). */
  writeMsPerCell: number;
  /**
   * Makes the n-th setValues from now (1 = the next) fail as Sheets does when it cannot reach the
   * document ("Service Spreadsheets failed while accessing document with id ..."); null: none.
   */
  failSetValuesAt: number | null;
  flushMs: number;
  /** The values of `a1` on a sheet, as stored ("" where empty): what a test reads back. */
  valuesOf(sheetName: string, a1: string): StoredCell[][];
}

const AuthMode = { NONE: "NONE", LIMITED: "LIMITED", CUSTOM_FUNCTION: "CUSTOM_FUNCTION", FULL: "FULL" };

/** "B2:F8" -> rows and columns (1-based); a single cell is a range of one. */
function parseA1(a1: string): { row: number; col: number; rows: number; cols: number } {
  const cell = (text: string) => {
    const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(text);
    if (!m) throw new Error(`Range not found`);
    let col = 0;
    for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
    return { row: Number(m[2]), col };
  };
  const [first, last] = a1.split(":");
  const a = cell(first!);
  const b = last ? cell(last) : a;
  return {
    row: Math.min(a.row, b.row),
    col: Math.min(a.col, b.col),
    rows: Math.abs(b.row - a.row) + 1,
    cols: Math.abs(b.col - a.col) + 1,
  };
}

function a1Of(row: number, col: number, rows: number, cols: number): string {
  const letters = (c: number) => {
    let out = "";
    for (let n = c; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
    return out;
  };
  const first = `${letters(col)}${row}`;
  return rows === 1 && cols === 1 ? first : `${first}:${letters(col + cols - 1)}${row + rows - 1}`;
}

/** A date format: a number under it reads back as a Date (getValues). */
function isDateFormat(format: string | undefined): boolean {
  return !!format && /[dy]/i.test(format.replace(/"[^"]*"/g, ""));
}

/**
 * What Sheets stores for a value written with setValues: a string is read as if typed (a number,
 * TRUE/FALSE, a formula), unless it starts with an apostrophe, which marks text and is not kept.
 */
function typedIn(value: unknown): StoredCell | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Date || Object.prototype.toString.call(value) === "[object Date]")
    return value as Date;
  const text = String(value);
  if (text.startsWith("'")) return text.slice(1) === "" ? null : text.slice(1);
  if (text.startsWith("=")) return { formula: text };
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text.trim())) return Number(text);
  if (/^(true|false)$/i.test(text.trim())) return text.trim().toUpperCase() === "TRUE";
  return text;
}

const SERIAL_EPOCH = Date.UTC(1899, 11, 30);

/** The wall-clock time of the instant `t` in `timeZone`, as the milliseconds of `Date.UTC(...)`. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockMs(t: number, timeZone: string): number {
  if (timeZone === "Etc/UTC" || timeZone === "UTC") return t;
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(t));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const ms = ((t % 1000) + 1000) % 1000;
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"), ms);
}

/** The instant whose wall-clock time in `timeZone` is `wall` (milliseconds of `Date.UTC(...)`). */
function instantOfWallClock(wall: number, timeZone: string): number {
  let t = wall - (wallClockMs(wall, timeZone) - wall);
  t = wall - (wallClockMs(t, timeZone) - t);
  return t;
}

/**
 * Utilities.formatDate(date, timeZone, format): Java's SimpleDateFormat patterns; the fake knows
 * yyyy, MM, dd, HH, mm, ss, SSS and quoted text, and throws for any other letter.
 */
function formatDate(date: Date, timeZone: string, format: string): string {
  const wall = new Date(wallClockMs(date.getTime(), timeZone));
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  const fields: Record<string, string> = {
    yyyy: pad(wall.getUTCFullYear(), 4),
    MM: pad(wall.getUTCMonth() + 1, 2),
    dd: pad(wall.getUTCDate(), 2),
    HH: pad(wall.getUTCHours(), 2),
    mm: pad(wall.getUTCMinutes(), 2),
    ss: pad(wall.getUTCSeconds(), 2),
    SSS: pad(wall.getUTCMilliseconds(), 3),
  };
  let out = "";
  for (let i = 0; i < format.length; ) {
    if (format[i] === "'") {
      const end = format.indexOf("'", i + 1);
      if (end < 0) throw new Error(`Invalid argument: format (${format})`);
      out += format.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    const token = Object.keys(fields).find((k) => format.startsWith(k, i));
    if (token) {
      out += fields[token];
      i += token.length;
    } else if (/[A-Za-z]/.test(format[i]!)) {
      throw new Error(`The fake's Utilities.formatDate does not know the pattern letter ${format[i]}`);
    } else out += format[i++];
  }
  return out;
}

function cellObject(a1: string) {
  return {
    getA1Notation: () => a1,
    getCell: (_r: number, _c: number) => cellObject(a1.split(":")[0]!),
    activate() {
      return this;
    },
  };
}

/**
 * UrlFetchApp as Apps Script runs it: no streaming (the whole answer at once), about 60 s per fetch
 * on the fake clock (a longer one throws), restricted headers refused, a 4xx/5xx thrown unless
 * `muteHttpExceptions`. Used by the built Code.js's world and, alone, by tests of the core's sync
 * runners over the Sheets server's transport.
 */
export function fakeUrlFetchApp(o: {
  clock: ExecutionClock;
  fetch: FetchHandler;
  record?: (request: FetchedRequest) => void;
  denyInNone?: (what: string) => void;
}) {
  return {
    fetch(url: string, params: Record<string, unknown> = {}) {
      o.denyInNone?.("UrlFetchApp.fetch");
      checkRequestHeaders((params.headers as Record<string, unknown>) ?? {});
      const request: FetchedRequest = {
        url,
        method: String(params.method ?? "get").toUpperCase(),
        headers: { ...((params.headers as Record<string, string>) ?? {}) },
        contentType: (params.contentType as string) ?? null,
        payload: params.payload === undefined ? null : String(params.payload),
        muteHttpExceptions: params.muteHttpExceptions === true,
        followRedirects: params.followRedirects !== false,
      };
      o.record?.(request);
      const answer = o.fetch(request);
      // A round trip takes some time even when the test says nothing of it.
      const duration = Math.max(0, answer.durationMs ?? DEFAULT_FETCH_MS);
      if (duration > URL_FETCH_TIMEOUT_MS) {
        o.clock.spend(URL_FETCH_TIMEOUT_MS);
        throw new Error(`Timeout: ${url}`);
      }
      o.clock.spend(duration);
      // "URL Fetch response size: 50 MB / call" (Quotas for Google Services). The exception's text
      // is not documented; the code under test must not depend on it.
      if (utf8Bytes(answer.body ?? "") > URL_FETCH_RESPONSE_LIMIT_BYTES) {
        throw new Error(`Exception: the response from ${url} is larger than 50 MB.`);
      }
      if (!request.muteHttpExceptions && answer.status >= 400) {
        throw new Error(`Request failed for ${url} returned code ${answer.status}.`);
      }
      return {
        getResponseCode: () => answer.status,
        getAllHeaders: () => ({ ...(answer.headers ?? {}) }),
        getHeaders: () => ({ ...(answer.headers ?? {}) }),
        getContentText: () => answer.body ?? "",
      };
    },
  };
}

/** Utilities.sleep: at most 5 minutes a call, and the time counts against the execution. */
export function fakeUtilitiesSleep(clock: ExecutionClock, sleeps: number[] = []) {
  return {
    sleep(ms: number) {
      if (!(ms >= 0 && ms <= SLEEP_LIMIT_MS)) throw new Error("Invalid argument: milliseconds");
      sleeps.push(ms);
      clock.spend(ms);
    },
  };
}

export function loadAppsScript(options: WorldOptions = {}): World {
  const dist = options.dist ?? DIST;
  const code = readFileSync(join(dist, "Code.js"), "utf8");
  const clock = new ExecutionClock();
  const spreadsheetTimeZone = options.spreadsheetTimeZone ?? "Etc/UTC";
  const sheets: FakeSheet[] = (options.sheets ?? [{ id: 0, name: "Sheet1", cell: "A1" }]).map((s) => ({
    ...s,
  }));
  const world: World = {
    global: {},
    requests: [],
    toasts: [],
    menus: [],
    sidebars: [],
    htmlFilesRead: [],
    propertyAccess: [],
    properties: { user: new Map(), document: new Map(), script: new Map() },
    sleeps: [],
    clock,
    cache: fakeCache(clock),
    quotas: new DailyQuotas(clock, options.account ?? "consumer"),
    executions: new SimultaneousExecutions(),
    selections: [],
    authMode: "FULL",
    fetch: options.fetch ?? (() => ({ status: 599, body: "no fetch handler in this test" })),
    sheets,
    activeSheetName: options.activeSheet ?? sheets[0]!.name,
    select(sheetName, cell) {
      const sheet = sheets.find((s) => s.name === sheetName);
      if (!sheet) throw new Error(`no sheet ${sheetName}`);
      world.activeSheetName = sheetName;
      sheet.cell = cell;
    },
    cells: new Map(),
    flushes: 0,
    writes: [],
    writeMsPerCell: WRITE_MS_PER_CELL,
    failSetValuesAt: null,
    flushMs: FLUSH_MS,
    valuesOf(sheetName, a1) {
      const sheet = sheets.find((s) => s.name === sheetName);
      if (!sheet) throw new Error(`no sheet ${sheetName}`);
      const r = parseA1(a1);
      const stored = world.cells.get(sheet.id)?.values;
      return Array.from({ length: r.rows }, (_, i) =>
        Array.from({ length: r.cols }, (_, j) => stored?.get(`${r.row + i},${r.col + j}`) ?? ""),
      );
    },
  };

  const denyInNone = (what: string) => {
    if (world.authMode === "NONE") {
      throw new Error(`You do not have permission to call ${what} (AuthMode.NONE).`);
    }
    // Each property call counts as one "Properties read/write", each fetch as one "URL Fetch call".
    if (what === "PropertiesService") world.quotas.count("properties");
    if (what === "UrlFetchApp.fetch") world.quotas.count("urlfetch");
  };

  function propertyStore(store: PropertyAccess["store"]) {
    const data = world.properties[store];
    return {
      getProperty(key: string) {
        denyInNone("PropertiesService");
        world.propertyAccess.push({ store, op: "get", key });
        return data.get(key) ?? null;
      },
      setProperty(key: string, value: string) {
        denyInNone("PropertiesService");
        world.propertyAccess.push({ store, op: "set", key });
        checkPropertyWrite(data, { [key]: String(value) });
        data.set(key, String(value));
        return this;
      },
      /** Every value and the store's total are checked before anything is written. */
      setProperties(properties: Record<string, unknown>, deleteAllOthers = false) {
        denyInNone("PropertiesService");
        const writes = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, String(v)]));
        for (const key of Object.keys(writes)) world.propertyAccess.push({ store, op: "set", key });
        checkPropertyWrite(data, writes, deleteAllOthers);
        if (deleteAllOthers) data.clear();
        for (const [key, value] of Object.entries(writes)) data.set(key, value);
        return this;
      },
      deleteProperty(key: string) {
        denyInNone("PropertiesService");
        world.propertyAccess.push({ store, op: "delete", key });
        data.delete(key);
        return this;
      },
      getProperties() {
        denyInNone("PropertiesService");
        world.propertyAccess.push({ store, op: "keys" });
        return Object.fromEntries(data);
      },
      getKeys() {
        denyInNone("PropertiesService");
        world.propertyAccess.push({ store, op: "keys" });
        return [...data.keys()];
      },
    };
  }

  function cellsOf(sheet: FakeSheet): SheetCells {
    let cells = world.cells.get(sheet.id);
    if (!cells) {
      cells = { values: new Map(), formats: new Map(), weights: new Map() };
      world.cells.set(sheet.id, cells);
    }
    return cells;
  }
  const gridRows = (sheet: FakeSheet) => sheet.rows ?? 1000;
  const gridColumns = (sheet: FakeSheet) => sheet.columns ?? 26;
  /** Every sheet's grid together: what Sheets counts against its 10 million cells. */
  const totalCells = () => sheets.reduce((n, s) => n + gridRows(s) * gridColumns(s), 0);

  /** A Range over rows and columns of `sheet`, with the methods a refresh uses. */
  function rangeObject(sheet: FakeSheet, row: number, col: number, rows: number, cols: number) {
    if (!(row >= 1 && col >= 1 && rows >= 1 && cols >= 1)) {
      throw new Error("The starting row and column of the range must be at least 1, and its size too.");
    }
    if (row + rows - 1 > gridRows(sheet) || col + cols - 1 > gridColumns(sheet)) {
      throw new Error("The coordinates of the range are outside the dimensions of the sheet.");
    }
    const a1 = a1Of(row, col, rows, cols);
    const each = (fn: (key: string, r: number, c: number) => void) => {
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) fn(`${row + r},${col + c}`, r, c);
    };
    const cells = cellsOf(sheet);
    const range = {
      ...cellObject(a1),
      activate() {
        world.selections.push({ sheet: sheet.name, range: a1 });
        sheet.cell = a1.split(":")[0];
        return range;
      },
      getNumRows: () => rows,
      getNumColumns: () => cols,
      setValues(values: unknown[][]) {
        if (!Array.isArray(values) || values.length !== rows) {
          throw new Error(
            `The number of rows in the data does not match the number of rows in the range. The data has ${Array.isArray(values) ? values.length : 0} but the range has ${rows}.`,
          );
        }
        for (const line of values) {
          if (!Array.isArray(line) || line.length !== cols) {
            throw new Error(
              `The number of columns in the data does not match the number of columns in the range. The data has ${Array.isArray(line) ? line.length : 0} but the range has ${cols}.`,
            );
          }
        }
        if (world.failSetValuesAt !== null && --world.failSetValuesAt === 0) {
          world.failSetValuesAt = null;
          throw new Error(
            `Service Spreadsheets failed while accessing document with id ${options.spreadsheetId ?? "1FakeSpreadsheetIdForTests0123456789abcdef"}.`,
          );
        }
        clock.spend(rows * cols * world.writeMsPerCell);
        each((key, r, c) => {
          const stored = typedIn(values[r]![c]);
          if (stored === null) cells.values.delete(key);
          else cells.values.set(key, stored);
        });
        world.writes.push({ sheet: sheet.name, range: a1, cells: rows * cols });
        return range;
      },
      getValues(): unknown[][] {
        const out: unknown[][] = [];
        for (let r = 0; r < rows; r++) {
          const line: unknown[] = [];
          for (let c = 0; c < cols; c++) {
            const key = `${row + r},${col + c}`;
            const v = cells.values.get(key);
            if (v === undefined) line.push("");
            else if (typeof v === "object" && !(v instanceof Date)) line.push("#ERROR!");
            else if (typeof v === "number" && isDateFormat(cells.formats.get(key))) {
              line.push(new Date(instantOfWallClock(SERIAL_EPOCH + v * 86_400_000, spreadsheetTimeZone)));
            } else line.push(v);
          }
          out.push(line);
        }
        return out;
      },
      clearContent() {
        each((key) => cells.values.delete(key));
        return range;
      },
      clear() {
        each((key) => {
          cells.values.delete(key);
          cells.formats.delete(key);
          cells.weights.delete(key);
        });
        return range;
      },
      setNumberFormat(format: string) {
        each((key) => cells.formats.set(key, String(format)));
        return range;
      },
      setNumberFormats(formats: string[][]) {
        if (formats.length !== rows || formats.some((f) => f.length !== cols)) {
          throw new Error("The number of rows or columns in the data does not match the range.");
        }
        each((key, r, c) => cells.formats.set(key, String(formats[r]![c])));
        return range;
      },
      setFontWeight(weight: string | null) {
        each((key) => {
          if (weight === "bold") cells.weights.set(key, "bold");
          else cells.weights.delete(key);
        });
        return range;
      },
    };
    return range;
  }

  function sheetObject(sheet: FakeSheet) {
    return {
      getSheetId: () => sheet.id,
      getName: () => sheet.name,
      getActiveCell: () => cellObject(sheet.cell ?? "A1"),
      getCurrentCell: () => cellObject(sheet.cell ?? "A1"),
      getActiveRange: () => cellObject(sheet.cell ?? "A1"),
      activate() {
        world.activeSheetName = sheet.name;
        return this;
      },
      getMaxRows: () => gridRows(sheet),
      getMaxColumns: () => gridColumns(sheet),
      /** Adds rows to the grid: refused past 10 million cells in the spreadsheet. */
      insertRowsAfter(after: number, howMany: number) {
        if (!(after >= 1 && after <= gridRows(sheet) && howMany >= 1)) throw new Error("Invalid argument");
        if (totalCells() + howMany * gridColumns(sheet) > SHEETS_CELL_LIMIT)
          throw new Error(CELL_LIMIT_MESSAGE);
        sheet.rows = gridRows(sheet) + howMany;
        return this;
      },
      insertColumnsAfter(after: number, howMany: number) {
        if (!(after >= 1 && after <= gridColumns(sheet) && howMany >= 1)) throw new Error("Invalid argument");
        if (totalCells() + howMany * gridRows(sheet) > SHEETS_CELL_LIMIT) throw new Error(CELL_LIMIT_MESSAGE);
        sheet.columns = gridColumns(sheet) + howMany;
        return this;
      },
      /** getRange("B2:F8") or getRange(row, column, numRows?, numColumns?). */
      getRange(a: string | number, col?: number, rows = 1, cols = 1) {
        if (typeof a === "number") return rangeObject(sheet, a, col ?? 1, rows, cols);
        const r = parseA1(String(a));
        return rangeObject(sheet, r.row, r.col, r.rows, r.cols);
      },
    };
  }

  const spreadsheet = {
    getId: () => options.spreadsheetId ?? "1FakeSpreadsheetIdForTests0123456789abcdef",
    getName: () => options.spreadsheetName ?? "Budget 2025",
    getSpreadsheetTimeZone: () => spreadsheetTimeZone,
    getActiveSheet: () => sheetObject(sheets.find((s) => s.name === world.activeSheetName)!),
    getSheets: () => sheets.map(sheetObject),
    getSheetByName: (name: string) => {
      const s = sheets.find((x) => x.name === name);
      return s ? sheetObject(s) : null;
    },
    getSheetById: (id: number) => {
      const s = sheets.find((x) => x.id === id);
      return s ? sheetObject(s) : null;
    },
    getCurrentCell: () => spreadsheet.getActiveSheet().getCurrentCell(),
    getActiveRange: () => spreadsheet.getActiveSheet().getActiveRange(),
    toast(message: string, title?: string) {
      world.toasts.push({ message: String(message), title: title ?? null });
    },
  };

  const ui = {
    createAddonMenu() {
      const menu = { name: "add-on", items: [] as { caption: string; functionName: string }[] };
      const builder = {
        addItem(caption: string, functionName: string) {
          menu.items.push({ caption, functionName });
          return builder;
        },
        addSeparator: () => builder,
        addToUi() {
          world.menus.push(menu);
        },
      };
      return builder;
    },
    showSidebar(html: SidebarShown) {
      world.sidebars.push({ file: html.file, title: html.title, width: html.width, metaTags: html.metaTags });
    },
  };

  const services = {
    ScriptApp: { AuthMode },
    SpreadsheetApp: {
      /** Applies pending changes: each flush costs time on the clock. */
      flush() {
        world.flushes++;
        clock.spend(world.flushMs);
      },
      getUi: () => ui,
      getActive: () => spreadsheet,
      getActiveSpreadsheet: () => spreadsheet,
    },
    PropertiesService: {
      getUserProperties: () => propertyStore("user"),
      getDocumentProperties: () => propertyStore("document"),
      getScriptProperties: () => propertyStore("script"),
    },
    HtmlService: {
      createHtmlOutputFromFile(file: string) {
        const output = {
          file,
          title: null as string | null,
          width: null as number | null,
          metaTags: [] as { name: string; content: string }[],
          /** Only a few names are accepted; meta tags written in the file itself are ignored. */
          addMetaTag(name: string, content: string) {
            checkMetaTag(name);
            output.metaTags.push({ name, content: String(content) });
            return output;
          },
          setTitle(t: string) {
            output.title = t;
            return output;
          },
          setWidth(w: number) {
            output.width = w;
            return output;
          },
          /** The file as the project holds it (dist/sheets/<file>.html); Apps Script throws for a missing one. */
          getContent() {
            const path = join(dist, file.endsWith(".html") ? file : `${file}.html`);
            if (!/^[A-Za-z0-9_]+(\.html)?$/.test(file) || !existsSync(path)) {
              throw new Error(`No HTML file named ${file} was found.`);
            }
            world.htmlFilesRead.push(file);
            return readFileSync(path, "utf8");
          },
        };
        return output;
      },
    },
    UrlFetchApp: fakeUrlFetchApp({
      clock,
      fetch: (request) => world.fetch(request),
      record: (request) => world.requests.push(request),
      denyInNone,
    }),
    Utilities: {
      ...fakeUtilitiesSleep(clock, world.sleeps),
      // A random (version 4) UUID, as java.util.UUID.randomUUID() gives one.
      getUuid: () => randomUUID(),
      formatDate: (date: Date, timeZone: string, format: string) => formatDate(date, timeZone, format),
    },
    Session: {
      getActiveUser: () => ({ getEmail: () => "" }),
      getEffectiveUser: () => ({ getEmail: () => "" }),
      getScriptTimeZone: () => "Etc/UTC",
    },
    CacheService: {
      getUserCache: () => world.cache,
    },
    Logger: { log: () => {} },
    console: { log() {}, info() {}, warn() {}, error() {} },
  };

  const context = vm.createContext({ ...services });
  // Apps Script's clock is the fake one: no test waits, and none depends on the wall clock.
  (vm.runInContext("Date", context) as DateConstructor).now = () => clock.now;
  vm.runInContext(code, context, { filename: "Code.js" });
  // Each call of a global function is one execution, which Apps Script ends at 6 minutes.
  const exported = Object.keys((context as Record<string, object>).ReportingPlatformAddon ?? {});
  for (const name of exported) {
    const original = (context as Record<string, unknown>)[name];
    if (typeof original !== "function") continue;
    (context as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const outer = !clock.inExecution;
      if (outer) world.executions.enter();
      try {
        return clock.run(name, () => (original as (...a: unknown[]) => unknown)(...args));
      } finally {
        if (outer) world.executions.leave();
      }
    };
  }
  world.global = context as Record<string, unknown>;
  return world;
}

/** Calls a sidebar function and unwraps its envelope, failing the test on `{ok: false}`. */
export function callOk<T = unknown>(world: World, name: string, ...args: unknown[]): T {
  const answer = world.global[name](...args);
  if (answer?.ok !== true) {
    throw new Error(`${name} failed: ${JSON.stringify(answer?.error ?? answer)}`);
  }
  return cloneAcrossScriptRun(answer.value) as T;
}

/** Calls a sidebar function that should fail; returns the serialized PlatformError. */
export function callError(
  world: World,
  name: string,
  ...args: unknown[]
): { kind: string; message: string; status: number | null } {
  const answer = world.global[name](...args);
  if (answer?.ok !== false) throw new Error(`${name} was expected to fail: ${JSON.stringify(answer)}`);
  return cloneAcrossScriptRun(answer.error) as { kind: string; message: string; status: number | null };
}

/** What google.script.run hands the sidebar: plain data (and objects from the script's realm made local). */
export function cloneAcrossScriptRun(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}
