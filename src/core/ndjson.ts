/**
 * NDJSON, the chat stream's format (platform-api.md): one JSON value a line, decoded as the bytes
 * arrive, whatever their chunking. Blank lines are skipped; a line that is not JSON is reported and
 * skipped; a line past its limit stops decoding (limits.ts).
 */
import { type ByteSource, iterateChunks } from "./transport.js";

export interface InvalidNdjsonLine {
  /** 1-based, counting every line of the input, blank ones included. */
  line: number;
  /** The line, cut to about 200 characters. */
  text: string;
  error: string;
}

export interface NdjsonOptions {
  /** Called for a line that is not JSON; the line is skipped and decoding goes on. */
  onInvalidLine?: (problem: InvalidNdjsonLine) => void;
  /**
   * Longest line accepted, in characters (bytes while still undecoded). A longer one throws
   * `NdjsonLineTooLong` as soon as its pending part passes the limit, before it is all held.
   */
  maxLineLength?: number;
}

/** A line passed `maxLineLength`: decoding stops. `values` holds the lines completed before it. */
export class NdjsonLineTooLong extends Error {
  override readonly name = "NdjsonLineTooLong";
  values: unknown[] = [];
  constructor(readonly limit: number) {
    super(`A line is longer than ${limit} characters.`);
  }
}

const REPORTED_TEXT_LIMIT = 200;
/** Chunks up to this size are copied byte by byte while searched; larger ones by the native calls. */
const SMALL_CHUNK = 64;
/**
 * Most undecoded bytes held: past this, the pending bytes up to their last whole character are
 * decoded and held as text (a character split at the edge stays, as bytes, for the next piece).
 * The buffer never grows beyond it, so a long line costs no regrowing copies, and the decoding
 * goes on while the line arrives.
 */
const BLOCK_BYTES = 64 * 1024;
const NO_BYTES = new Uint8Array(0);
/** What a chunk that completes no line returns: one shared empty list, not a new one per chunk. */
const NO_VALUES: readonly unknown[] = Object.freeze([]);
const BLANK = /^\s*$/;

/**
 * The incremental NDJSON decoder under `decodeNdjson` and `decodeNdjsonText`: push chunks, get
 * the values of the lines they complete.
 *
 * Linear however the input is chunked: the bytes of a partial line are gathered in one growing
 * buffer (doubled when full, so each byte is copied a bounded number of times), only the new chunk
 * is searched for newlines, and a line is decoded and parsed once, when its newline arrives. A
 * small chunk is copied and searched in the same pass, so a long line in 16-byte pieces costs
 * little more than the line whole. Re-concatenating or re-scanning the pending part per chunk would
 * make a long line in small chunks quadratic. Text chunks are kept as a list of pieces, joined once.
 *
 * Bytes are decoded only up to a newline byte, which never occurs inside a multi-byte UTF-8
 * sequence, so a character split across chunks is decoded whole; and a long line arriving in
 * small chunks costs one decode, not one per chunk.
 *
 * Measured against the platform's `TextDecoder` with `{ stream: true }` per chunk plus a line
 * splitter, and against `TextDecoderStream` (bench/ndjson.ts, docs/decisions.md): both are several
 * times slower for a long line in small chunks, and Apps Script has neither.
 */
export class NdjsonDecoder {
  // Made on the first bytes: Apps Script's V8 has no TextDecoder, and text input needs none.
  #textDecoder: TextDecoder | null = null;
  readonly #onInvalidLine: NdjsonOptions["onInvalidLine"];
  readonly #maxLine: number;
  #pending: string[] = [];
  #pendingChars = 0;
  /** The undecoded bytes of the current line: the first `#pendingByteLength` bytes of this buffer. */
  #pendingBytes: Uint8Array = NO_BYTES;
  #pendingByteLength = 0;
  #lineNumber = 0;
  #started = false;

  constructor(options: NdjsonOptions = {}) {
    this.#onInvalidLine = options.onInvalidLine;
    this.#maxLine = options.maxLineLength ?? Infinity;
  }

  /** Decodes one chunk; returns the values of the lines it completed (often none: then a shared, frozen empty list). */
  push(chunk: Uint8Array | string): readonly unknown[] {
    if (typeof chunk !== "string" && chunk.length <= SMALL_CHUNK) {
      // A small chunk is copied after the pending bytes and searched for a newline in one pass; the
      // usual small chunk of a long line has none and costs nothing more. This path is kept apart
      // from the rest (#pushAny) and small, so that it can be inlined where push is called.
      const buffer =
        this.#pendingByteLength + chunk.length <= this.#pendingBytes.length
          ? this.#pendingBytes
          : this.#reserve(chunk.length);
      const at = this.#pendingByteLength;
      if (copyUntilNewline(chunk, buffer, at) === chunk.length) {
        this.#pendingByteLength = at + chunk.length;
        if (this.#pendingChars + this.#pendingByteLength > this.#maxLine) this.#checkPending();
        return NO_VALUES;
      }
      // A newline: the bytes copied past `at` are not counted, and the general path takes over.
    }
    return this.#pushAny(chunk);
  }

  #pushAny(chunk: Uint8Array | string): readonly unknown[] {
    if (typeof chunk === "string") {
      if (this.#pendingByteLength > 0) this.#spillText(this.#decodePendingBytes());
      const values = this.#pushText(chunk);
      this.#checkPending(values);
      return values;
    }
    const lastNewline = lastNewlineIn(chunk);
    if (lastNewline === -1) {
      if (chunk.length > 0) {
        this.#append(chunk);
        this.#checkPending();
      }
      return NO_VALUES;
    }
    const head = chunk.subarray(0, lastNewline + 1);
    let text: string;
    if (this.#pendingByteLength > 0) {
      this.#append(head);
      text = this.#decodePendingBytes();
    } else {
      text = this.#decode(head);
    }
    if (lastNewline + 1 < chunk.length) this.#append(chunk.subarray(lastNewline + 1));
    const out = this.#pushText(text);
    this.#checkPending(out);
    return out;
  }

  /**
   * Throws once the pending part is surely too long. One more than the limit is still allowed: it
   * may end in the "\r" of a "\r\n" whose "\n" is in the next chunk, and the "\r" is not part of
   * the line; `#take` judges the finished line exactly.
   */
  #checkPending(values: unknown[] = []): void {
    if (this.#pendingChars + this.#pendingByteLength > this.#maxLine + 1) {
      const error = new NdjsonLineTooLong(this.#maxLine);
      error.values = values;
      throw error;
    }
  }

  #decode(bytes: Uint8Array): string {
    // ignoreBOM: each call starts a new decode; only the input's first character may be a
    // byte-order mark, and that one is dropped by hand (#firstText). Never `stream: true`: the
    // decoders' streaming path is several times slower than a whole decode.
    this.#textDecoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
    return this.#textDecoder.decode(bytes);
  }

  /** The pending buffer with room for `more` bytes after the pending ones (#spill first when full). */
  #reserve(more: number): Uint8Array {
    if (this.#pendingByteLength + more > BLOCK_BYTES && this.#pendingByteLength > 0) this.#spill();
    const need = this.#pendingByteLength + more;
    if (need > this.#pendingBytes.length) {
      const grown = new Uint8Array(
        Math.max(need, Math.min(this.#pendingBytes.length * 2, BLOCK_BYTES), 1024),
      );
      grown.set(this.#pendingBytes.subarray(0, this.#pendingByteLength));
      this.#pendingBytes = grown;
    }
    return this.#pendingBytes;
  }

  #append(bytes: Uint8Array): void {
    let rest = bytes;
    if (this.#pendingByteLength > 0 && this.#pendingByteLength + rest.length > BLOCK_BYTES) this.#spill();
    if (this.#pendingByteLength === 0 && rest.length > BLOCK_BYTES) {
      // A large piece is decoded where it is, up to its last whole character, without a copy.
      // (After a character split at the spill, it is copied instead, behind that character.)
      const whole = wholeCharacters(rest);
      this.#spillText(this.#decode(rest.subarray(0, whole)));
      rest = rest.subarray(whole);
    }
    this.#reserve(rest.length).set(rest, this.#pendingByteLength);
    this.#pendingByteLength += rest.length;
  }

  /** The pending bytes up to their last whole character decoded onto the pending text. */
  #spill(): void {
    const length = this.#pendingByteLength;
    const whole = wholeCharacters(this.#pendingBytes.subarray(0, length));
    this.#spillText(this.#decode(this.#pendingBytes.subarray(0, whole)));
    // The split character's first bytes (at most three) start the buffer again.
    this.#pendingBytes.copyWithin(0, whole, length);
    this.#pendingByteLength = length - whole;
  }

  /** Decoded text held as part of the pending line (the input's first text loses its byte-order mark). */
  #spillText(decoded: string): void {
    const text = this.#firstText(decoded);
    this.#pending.push(text);
    this.#pendingChars += text.length;
  }

  #decodePendingBytes(): string {
    const text = this.#decode(this.#pendingBytes.subarray(0, this.#pendingByteLength));
    this.#pendingByteLength = 0;
    return text;
  }

  /** The input's first text loses its byte-order mark, if any. */
  #firstText(text: string): string {
    if (this.#started || text.length === 0) return text;
    this.#started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  #pushText(input: string): unknown[] {
    const text = this.#firstText(input);
    const out: unknown[] = [];
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      let line: string;
      if (this.#pending.length > 0) {
        this.#pending.push(text.slice(start, newline));
        line = this.#pending.join("");
        this.#pending = [];
        this.#pendingChars = 0;
      } else {
        line = text.slice(start, newline);
      }
      this.#take(line, out);
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (start < text.length) {
      this.#pending.push(start === 0 ? text : text.slice(start));
      this.#pendingChars += text.length - start;
    }
    return out;
  }

  /** Ends the input: returns the value of a last line that had no newline, if any. */
  end(): unknown[] {
    const out: unknown[] = [];
    if (this.#pendingByteLength > 0) this.#spillText(this.#decodePendingBytes());
    if (this.#pending.length > 0) {
      const line = this.#pending.join("");
      this.#pending = [];
      this.#pendingChars = 0;
      this.#take(line, out);
    }
    return out;
  }

  #take(raw: string, out: unknown[]): void {
    this.#lineNumber += 1;
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (line.length === 0) return;
    if (line.length > this.#maxLine) {
      const error = new NdjsonLineTooLong(this.#maxLine);
      error.values = out;
      throw error;
    }
    try {
      out.push(JSON.parse(line));
    } catch (error) {
      // Checked only on failure: JSON.parse already accepts surrounding whitespace, so the usual
      // line pays nothing for the blank-line rule.
      if (BLANK.test(line)) return;
      this.#onInvalidLine?.({
        line: this.#lineNumber,
        text: line.length > REPORTED_TEXT_LIMIT ? `${line.slice(0, REPORTED_TEXT_LIMIT)}…` : line,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/**
 * Copies `chunk` into `buffer` from `at` up to its first newline byte; returns how many bytes were
 * copied (the chunk's length when it holds no newline). `buffer` has room for the whole chunk.
 */
function copyUntilNewline(chunk: Uint8Array, buffer: Uint8Array, at: number): number {
  const length = chunk.length;
  let i = 0;
  // Eight bytes a step (a 16-byte chunk in two): the per-byte loop's branch and bounds checks
  // are most of a small chunk's cost. A newline among the eight leaves the rest to the
  // per-byte loop to find.
  for (; i + 7 < length; i += 8) {
    const b0 = chunk[i] as number;
    const b1 = chunk[i + 1] as number;
    const b2 = chunk[i + 2] as number;
    const b3 = chunk[i + 3] as number;
    const b4 = chunk[i + 4] as number;
    const b5 = chunk[i + 5] as number;
    const b6 = chunk[i + 6] as number;
    const b7 = chunk[i + 7] as number;
    if (
      b0 === 10 ||
      b1 === 10 ||
      b2 === 10 ||
      b3 === 10 ||
      b4 === 10 ||
      b5 === 10 ||
      b6 === 10 ||
      b7 === 10
    ) {
      break;
    }
    const to = at + i;
    buffer[to] = b0;
    buffer[to + 1] = b1;
    buffer[to + 2] = b2;
    buffer[to + 3] = b3;
    buffer[to + 4] = b4;
    buffer[to + 5] = b5;
    buffer[to + 6] = b6;
    buffer[to + 7] = b7;
  }
  for (; i < length; i++) {
    const byte = chunk[i] as number;
    if (byte === 10) break;
    buffer[at + i] = byte;
  }
  return i;
}

/**
 * How many of `bytes` end on a whole UTF-8 character: all of them, or all but the one to three
 * bytes of a character the next bytes complete.
 */
function wholeCharacters(bytes: Uint8Array): number {
  const length = bytes.length;
  // Back over continuation bytes (10xxxxxx) to the last lead byte, at most three.
  let lead = length - 1;
  while (lead >= 0 && lead > length - 4 && ((bytes[lead] as number) & 0xc0) === 0x80) lead--;
  if (lead < 0) return 0;
  const byte = bytes[lead] as number;
  const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return lead + size <= length ? length : lead;
}

/**
 * The last newline byte of a chunk, or -1. For a tiny chunk a plain loop beats the native calls'
 * fixed cost; for a larger one, V8's forward `indexOf` is several times faster than
 * `lastIndexOf`, so it settles the common no-newline case, and `lastIndexOf` then only scans the
 * tail after the last newline.
 */
function lastNewlineIn(chunk: Uint8Array): number {
  if (chunk.length <= 64) {
    for (let i = chunk.length - 1; i >= 0; i--) if (chunk[i] === 10) return i;
    return -1;
  }
  return chunk.indexOf(10) === -1 ? -1 : chunk.lastIndexOf(10);
}

/**
 * Decodes newline-delimited JSON from a stream (bytes or text chunks): one value per non-empty
 * line, as each line completes. Blank lines are skipped; a line that is not JSON is reported to
 * `onInvalidLine` and skipped, and later lines still come.
 */
export async function* decodeNdjson(
  source: ByteSource | string,
  options: NdjsonOptions = {},
): AsyncGenerator<unknown, void, undefined> {
  const decoder = new NdjsonDecoder(options);
  try {
    if (typeof source === "string") {
      yield* decoder.push(source);
    } else {
      for await (const chunk of iterateChunks(source)) {
        const values = decoder.push(chunk);
        for (let i = 0; i < values.length; i++) yield values[i];
      }
    }
    yield* decoder.end();
  } catch (error) {
    // The lines completed before an overlong one still count.
    if (error instanceof NdjsonLineTooLong) yield* error.values.splice(0);
    throw error;
  }
}

/** The whole-text form of `decodeNdjson`, for Apps Script, which gets a body at once. */
export function decodeNdjsonText(text: string, options: NdjsonOptions = {}): unknown[] {
  const decoder = new NdjsonDecoder(options);
  const values = [...decoder.push(text)];
  try {
    for (const v of decoder.end()) values.push(v);
  } catch (error) {
    // An overlong last line: the lines before it still count.
    if (error instanceof NdjsonLineTooLong) error.values = [...values, ...error.values];
    throw error;
  }
  return values;
}
