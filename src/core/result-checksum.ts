/**
 * The result checksum (docs/platform-api.md, "The result checksum (version 1)"): a fingerprint of
 * the cells the add-in wrote, stored with the placement, so that a later look at the sheet can say
 * which rows were edited by hand. The service keeps it opaque; its shape is the platform's
 * (`{v, chunks: [{from, hash}], payload}`), everything inside is this add-in's to define.
 *
 * Sans I/O and synchronous: Apps Script has no `crypto.subtle` (and it is async everywhere), so
 * SHA-256 is @noble/hashes' pure-JS one, and text is encoded to UTF-8 here (Apps Script's V8 has no
 * TextEncoder).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { dateToSerial } from "./date-serial.js";

/** The version of the algorithm below; a checksum with another `v` is "cannot tell", never "edited". */
export const RESULT_CHECKSUM_VERSION = 1;
/** The platform stores at most 2,000 chunks. */
export const MAX_CHECKSUM_CHUNKS = 2_000;
/** Hex characters kept of each chunk's SHA-256 (128 bits): small to store, far from any collision. */
export const CHECKSUM_HASH_CHARS = 32;

export interface ResultChecksumChunk {
  /** The chunk's first row, 0-based in the grid (the header row is row 0). */
  from: number;
  hash: string;
}

/** The platform's shape of `resultChecksum`. */
export interface ResultChecksum {
  v: number;
  chunks: ResultChecksumChunk[];
  /** `r=<rows>;c=<columns>`: the extent of the grid the chunks cover. */
  payload?: string;
}

/**
 * One cell as a host gives it: what the grid holds (string, number, boolean, null) or what a host
 * reads back ("" for empty, a Date from Google Sheets' `getValues()`).
 */
export type ChecksumCell = string | number | boolean | null | undefined | Date;

export interface ChecksumOptions {
  /**
   * How a Date read back from a host becomes a serial number. Default: `dateToSerial`, the Date's
   * wall-clock time in the runtime's time zone.
   */
  dateSerial?: (date: Date) => number;
}

export interface GridExtent {
  rows: number;
  columns: number;
}

/** Grid row indexes, 0-based, both ends included. */
export interface RowRange {
  from: number;
  to: number;
}

export type EditedRows =
  /** The checksum is missing, malformed, or of a version this add-in does not know. */
  | { status: "cannot-tell"; reason: string }
  /** The cells now span another number of rows or columns than those written. */
  | { status: "resized"; written: GridExtent; now: GridExtent }
  | { status: "unchanged" }
  /** The rows of every chunk whose cells differ, adjacent ranges merged. */
  | { status: "edited"; rows: RowRange[] };

/** Rows per chunk: one while the grid has at most 2,000 rows, else ceil(rows / 2,000). */
export function rowsPerChunk(rows: number): number {
  return rows <= MAX_CHECKSUM_CHUNKS ? 1 : Math.ceil(rows / MAX_CHECKSUM_CHUNKS);
}

/** The extent of a grid as the checksum counts it: its rows, and its longest row's cells. */
export function gridExtent(values: readonly (readonly ChecksumCell[])[]): GridExtent {
  let columns = 0;
  for (const row of values) if (row.length > columns) columns = row.length;
  return { rows: values.length, columns };
}

/** The checksum of the cells written (or read back): one hash per chunk of rows, and the extent. */
export function resultChecksum(
  values: readonly (readonly ChecksumCell[])[],
  options: ChecksumOptions = {},
): ResultChecksum {
  const steps = resultChecksumSteps(values, options);
  return steps.finish();
}

/** The checksum of a grid made a few rows at a time (resultChecksumSteps). */
export interface ResultChecksumSteps {
  /**
   * Hashes every chunk that lies wholly within the grid's first `rows` rows and is not hashed yet;
   * a chunk that `rows` cuts waits for a later call. Returns the rows hashed so far.
   */
  hashThrough(rows: number): number;
  /** Hashes what is left and gives the checksum: the same as resultChecksum of the whole grid. */
  finish(): ResultChecksum;
}

/**
 * The same checksum as `resultChecksum`, hashed in steps: a refresh hashes the rows of each block
 * after the block is written, so that no one piece of work hashes the whole grid (on a page's one
 * thread, input waits for each piece: docs/benchmarks.md, "Refresh"). The chunks are those of the
 * whole grid (its extent is known from the start), so the result is byte for byte the same. Each
 * chunk is hashed within one call, so the module's one buffer is never held between calls.
 */
export function resultChecksumSteps(
  values: readonly (readonly ChecksumCell[])[],
  options: ChecksumOptions = {},
): ResultChecksumSteps {
  const extent = gridExtent(values);
  const dateSerial = options.dateSerial ?? dateToSerial;
  const per = rowsPerChunk(extent.rows);
  const chunks: ResultChecksumChunk[] = [];
  let next = 0;
  const hashThrough = (rows: number): number => {
    const end = Math.min(rows, extent.rows);
    while (next < extent.rows && Math.min(next + per, extent.rows) <= end) {
      chunks.push(chunkHash(values, extent, next, Math.min(next + per, extent.rows), dateSerial));
      next += per;
    }
    return Math.min(next, extent.rows);
  };
  return {
    hashThrough,
    finish() {
      hashThrough(extent.rows);
      return { v: RESULT_CHECKSUM_VERSION, chunks: [...chunks], payload: extentPayload(extent) };
    },
  };
}

/**
 * Which rows differ from those the checksum was made of. Never says "edited" when it cannot tell: a
 * checksum of an unknown version, or one this add-in cannot read, is "cannot-tell".
 */
export function editedRows(
  checksum: unknown,
  values: readonly (readonly ChecksumCell[])[],
  options: ChecksumOptions = {},
): EditedRows {
  const stored = readChecksum(checksum);
  if (typeof stored === "string") return { status: "cannot-tell", reason: stored };
  const now = gridExtent(values);
  if (stored.extent.rows !== now.rows || stored.extent.columns !== now.columns) {
    return { status: "resized", written: stored.extent, now };
  }
  return compareChunks(stored, now, chunkHashes(values, now, options.dateSerial ?? dateToSerial));
}

/**
 * `editedRows` given the checksum of the cells now, made beforehand (resultChecksumSteps over the
 * cells read back, in steps, so that no one piece of work hashes a large range whole): the same
 * answer as editedRows of those cells.
 */
export function editedRowsOfChecksum(checksum: unknown, current: ResultChecksum): EditedRows {
  const stored = readChecksum(checksum);
  if (typeof stored === "string") return { status: "cannot-tell", reason: stored };
  const extent = PAYLOAD.exec(current.payload ?? "");
  if (!extent) return { status: "cannot-tell", reason: "the cells' own checksum has no extent" };
  const now = { rows: Number(extent[1]), columns: Number(extent[2]) };
  if (stored.extent.rows !== now.rows || stored.extent.columns !== now.columns) {
    return { status: "resized", written: stored.extent, now };
  }
  return compareChunks(stored, now, current.chunks);
}

function compareChunks(
  stored: { chunks: ResultChecksumChunk[] },
  now: GridExtent,
  current: readonly ResultChecksumChunk[],
): EditedRows {
  if (current.length !== stored.chunks.length || current.some((c, i) => c.from !== stored.chunks[i]?.from)) {
    return { status: "cannot-tell", reason: "its chunks do not cover the rows as version 1 does" };
  }
  const rows: RowRange[] = [];
  for (let i = 0; i < current.length; i++) {
    if (current[i]!.hash === stored.chunks[i]!.hash) continue;
    const from = current[i]!.from;
    const to = (current[i + 1]?.from ?? now.rows) - 1;
    const last = rows[rows.length - 1];
    if (last && last.to + 1 === from) last.to = to;
    else rows.push({ from, to });
  }
  return rows.length === 0 ? { status: "unchanged" } : { status: "edited", rows };
}

/**
 * Edited rows for people, as sheet rows (1-based) given the sheet row of the grid's first row:
 * "row 4", "rows 4-6 and 9", "rows 2, 4-6 and 9".
 */
export function describeEditedRows(ranges: readonly RowRange[], anchorRow: number): string {
  const parts = ranges.map(({ from, to }) =>
    from === to ? String(anchorRow + from) : `${anchorRow + from}-${anchorRow + to}`,
  );
  if (parts.length === 0) return "";
  const single = parts.length === 1 && ranges[0]!.from === ranges[0]!.to;
  const list =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `${single ? "row" : "rows"} ${list}`;
}

function extentPayload(extent: GridExtent): string {
  return `r=${extent.rows};c=${extent.columns}`;
}

const PAYLOAD = /^r=(\d{1,9});c=(\d{1,9})$/;
const HASH = new RegExp(`^[0-9a-f]{${CHECKSUM_HASH_CHARS}}$`);

/** The stored checksum, or why it cannot be read (as a version 1 checksum of this add-in). */
function readChecksum(value: unknown): { extent: GridExtent; chunks: ResultChecksumChunk[] } | string {
  if (value == null) return "the placement has no checksum";
  if (typeof value !== "object") return "the checksum is not an object";
  const { v, chunks, payload } = value as Record<string, unknown>;
  if (v !== RESULT_CHECKSUM_VERSION) {
    return `the checksum is of version ${typeof v === "number" ? v : "?"}, this add-in reads version ${RESULT_CHECKSUM_VERSION}`;
  }
  const extent = typeof payload === "string" ? PAYLOAD.exec(payload) : null;
  if (!extent) return "the checksum does not say the extent of the cells it covers";
  if (!Array.isArray(chunks)) return "the checksum has no chunks";
  const read: ResultChecksumChunk[] = [];
  for (const chunk of chunks as unknown[]) {
    const { from, hash } = (chunk ?? {}) as Record<string, unknown>;
    if (!Number.isInteger(from) || (from as number) < 0 || typeof hash !== "string" || !HASH.test(hash)) {
      return "a chunk of the checksum is malformed";
    }
    read.push({ from: from as number, hash });
  }
  return { extent: { rows: Number(extent[1]), columns: Number(extent[2]) }, chunks: read };
}

function chunkHashes(
  values: readonly (readonly ChecksumCell[])[],
  extent: GridExtent,
  dateSerial: (date: Date) => number,
): ResultChecksumChunk[] {
  const per = rowsPerChunk(extent.rows);
  const chunks: ResultChecksumChunk[] = [];
  for (let from = 0; from < extent.rows; from += per) {
    chunks.push(chunkHash(values, extent, from, Math.min(from + per, extent.rows), dateSerial));
  }
  return chunks;
}

/** The hash of rows [from, end) of the grid: one chunk. */
function chunkHash(
  values: readonly (readonly ChecksumCell[])[],
  extent: GridExtent,
  from: number,
  end: number,
  dateSerial: (date: Date) => number,
): ResultChecksumChunk {
  let pos = 0;
  for (let r = from; r < end; r++) pos = writeRow(values[r], extent.columns, pos, dateSerial);
  return { from, hash: hexPrefix(sha256(buf.subarray(0, pos))) };
}

const HEX = "0123456789abcdef";

function hexPrefix(digest: Uint8Array): string {
  let s = "";
  for (let i = 0; i < CHECKSUM_HASH_CHARS / 2; i++) s += HEX[digest[i]! >> 4]! + HEX[digest[i]! & 15]!;
  return s;
}

const EMPTY = 0x5f; // _
const TRUE = 0x54; // T
const FALSE = 0x46; // F
const NUMBER = 0x6e; // n
const NUMBER_END = 0x3b; // ;
const STRING = 0x73; // s
const LENGTH_END = 0x3a; // :
const ROW_END = 0x0a; // \n
const MINUS = 0x2d; // -
const POINT = 0x2e; // .
const ZERO = 0x30; // 0

/**
 * The bytes of the chunk being hashed. The serialisation of version 1 is written straight into it
 * as UTF-8 (no string per row or per cell): per cell `_` (empty), `T`, `F`, `n<number>;` or
 * `s<length>:<text>`, and `\n` after each row. The functions below take the write position and
 * return the next one. One buffer for the module: hashing is synchronous, so never shared.
 */
let buf = new Uint8Array(1 << 16);

/** Makes room for `bytes` more bytes at `pos`. */
function room(pos: number, bytes: number): void {
  if (pos + bytes <= buf.length) return;
  let size = buf.length * 2;
  while (size < pos + bytes) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(buf.subarray(0, pos));
  buf = grown;
}

function writeRow(
  cells: readonly ChecksumCell[] | undefined,
  columns: number,
  start: number,
  dateSerial: (date: Date) => number,
): number {
  let pos = start;
  for (let c = 0; c < columns; c++) {
    const v = cells === undefined ? undefined : cells[c];
    if (typeof v === "number") {
      pos = writeNumber(v, pos);
    } else if (typeof v === "string") {
      pos = v === "" ? writeByte(EMPTY, pos) : writeString(v, pos);
    } else if (v === undefined || v === null) {
      pos = writeByte(EMPTY, pos);
    } else if (v === true || v === false) {
      pos = writeByte(v ? TRUE : FALSE, pos);
    } else if (v instanceof Date) {
      pos = writeNumber(dateSerial(v), pos);
    } else {
      pos = writeString(String(v), pos);
    }
  }
  return writeByte(ROW_END, pos);
}

function writeByte(byte: number, pos: number): number {
  room(pos, 1);
  buf[pos] = byte;
  return pos + 1;
}

function writeNumber(n: number, start: number): number {
  room(start, 32);
  const b = buf;
  let pos = start;
  b[pos++] = NUMBER;
  if ((n | 0) === n) {
    // A 32-bit integer (most counts, every date): the common case, kept short.
    pos = n < 0 ? writeDigits(-n, writeMinus(pos), 1) : writeSmallDigits(n, pos, 1);
  } else if (Number.isInteger(n) && n < 1e15 && n > -1e15) {
    pos = writeDigits(n < 0 ? -n : n, n < 0 ? writeMinus(pos) : pos, 1);
  } else {
    const short = writeShortDecimal(n, pos);
    if (short > 0) {
      pos = short;
    } else {
      // At most 24 characters ("-1.23456789012345e-300"): the room made above holds them.
      const text = canonicalNumber(n);
      for (let i = 0; i < text.length; i++) b[pos++] = text.charCodeAt(i);
    }
  }
  b[pos] = NUMBER_END;
  return pos + 1;
}

function writeMinus(pos: number): number {
  buf[pos] = MINUS;
  return pos + 1;
}

/**
 * The decimal digits of a non-negative integer below 10^15, at least `minDigits` of them (zeros in
 * front). Digits come from 31-bit integer arithmetic: the modulo of a double is several times
 * slower, so a larger integer is written as two halves of at most eight digits' worth each.
 */
function writeDigits(n: number, start: number, minDigits: number): number {
  if (n < 0x40000000) return writeSmallDigits(n, start, minDigits);
  const high = Math.floor(n / 1e8);
  const pos = writeSmallDigits(high, start, minDigits - 8);
  return writeSmallDigits(n - high * 1e8, pos, 8);
}

function writeSmallDigits(n: number, start: number, minDigits: number): number {
  const b = buf;
  let pos = start;
  let x = n | 0;
  do {
    const next = (x / 10) | 0;
    b[pos++] = ZERO + (x - next * 10);
    x = next;
  } while (x > 0 || pos - start < minDigits);
  for (let i = start, j = pos - 1; i < j; i++, j--) {
    const t = b[i]!;
    b[i] = b[j]!;
    b[j] = t;
  }
  return pos;
}

/**
 * A number below 10^9 that is, at 15 significant digits, a decimal of at most six decimals (prices,
 * rates, and their float artefacts such as 0.037500000000000006: most measures), written as
 * canonicalNumber would without formatting it; 0 for any other number.
 *
 * x = round(|n| * 10^6) gives n back as x / 10^6 exactly when n is such a decimal (both are the
 * double nearest the same decimal); below 10^9 doubles lie closer than 10^-6 apart, so no shorter
 * decimal gives n, and the six decimals of x without their trailing zeros are the ones String(n)
 * prints. Otherwise n still rounds to x / 10^6 at 15 significant digits when it lies within a
 * quarter unit of the 15th digit from it (far from a tie, where float error could decide).
 */
function writeShortDecimal(n: number, start: number): number {
  const a = n < 0 ? -n : n;
  if (!(a >= 1e-6 && a < 1e9)) return 0;
  const x = Math.round(a * 1e6);
  const near = x / 1e6;
  if (near !== a) {
    let exponent = Math.floor(Math.log10(a));
    if (10 ** exponent > a) exponent--;
    else if (10 ** (exponent + 1) <= a) exponent++;
    if (!(Math.abs(a - near) < 10 ** (exponent - 14) / 4)) return 0;
  }
  const whole = Math.floor(near);
  let fraction = x - whole * 1e6;
  let pos = n < 0 && x > 0 ? writeMinus(start) : start;
  pos = writeSmallDigits(whole, pos, 1);
  if (fraction === 0) return pos;
  let decimals = 6;
  while (fraction % 10 === 0) {
    fraction = (fraction / 10) | 0;
    decimals--;
  }
  buf[pos++] = POINT;
  return writeSmallDigits(fraction, pos, decimals);
}

/** `s<length>:` then the text as UTF-8 (a lone surrogate as U+FFFD, as TextEncoder writes it). */
function writeString(s: string, start: number): number {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  room(start, 18 + s.length * 3);
  const b = buf;
  let p = start;
  b[p++] = STRING;
  p = writeDigits(s.length, p, 1);
  b[p++] = LENGTH_END;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      b[p++] = c;
    } else if (c < 0x800) {
      b[p++] = 0xc0 | (c >> 6);
      b[p++] = 0x80 | (c & 63);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = s.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          b[p++] = 0xf0 | (c >> 18);
          b[p++] = 0x80 | ((c >> 12) & 63);
          b[p++] = 0x80 | ((c >> 6) & 63);
          b[p++] = 0x80 | (c & 63);
          continue;
        }
        c = 0xfffd;
      }
      b[p++] = 0xe0 | (c >> 12);
      b[p++] = 0x80 | ((c >> 6) & 63);
      b[p++] = 0x80 | (c & 63);
    }
  }
  return p;
}

/**
 * A number as version 1 writes it: rounded to 15 significant digits (what Excel keeps of a number,
 * so a value it stores and gives back hashes as written), then JavaScript's shortest form; -0 is 0
 * (and a number that rounds past the largest double keeps its rounded text).
 */
export function canonicalNumber(n: number): string {
  if (n === 0) return "0";
  const shortest = String(n);
  // Fifteen characters hold at most fifteen digits: already what rounding would give (the common
  // case, and toPrecision costs about a microsecond).
  if (shortest.length <= 15 || !Number.isFinite(n)) return shortest;
  const rounded = n.toPrecision(15);
  const back = Number(rounded);
  // Next to the largest double, rounding up overflows: keep the rounded text, not "Infinity".
  return Number.isFinite(back) ? String(back) : rounded;
}
