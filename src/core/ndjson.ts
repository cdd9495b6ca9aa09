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
const BLANK = /^\s*$/;

/**
 * The incremental NDJSON decoder under `decodeNdjson` and `decodeNdjsonText`: push chunks, get
 * the values of the lines they complete. A pushed byte chunk is kept, not copied, until its line
 * completes: do not reuse its buffer (streams hand out fresh chunks).
 *
 * Linear however the input is chunked: a partial line is kept as a list of pieces and joined once,
 * when its newline arrives, and only the new chunk is searched for newlines. Re-concatenating or
 * re-scanning the pending text per chunk would make a long line in small chunks quadratic.
 *
 * Bytes are decoded only up to a newline byte, which never occurs inside a multi-byte UTF-8
 * sequence, so a character split across chunks is decoded whole; and a long line arriving in
 * small chunks costs one decode, not one per chunk.
 */
export class NdjsonDecoder {
  // Made on the first bytes: Apps Script's V8 has no TextDecoder, and text input needs none.
  #textDecoder: TextDecoder | null = null;
  readonly #onInvalidLine: NdjsonOptions["onInvalidLine"];
  readonly #maxLine: number;
  #pending: string[] = [];
  #pendingChars = 0;
  #pendingBytes: Uint8Array[] = [];
  #pendingByteLength = 0;
  #lineNumber = 0;
  #started = false;

  constructor(options: NdjsonOptions = {}) {
    this.#onInvalidLine = options.onInvalidLine;
    this.#maxLine = options.maxLineLength ?? Infinity;
  }

  /** Decodes one chunk; returns the values of the lines it completed (often none). */
  push(chunk: Uint8Array | string): unknown[] {
    if (typeof chunk === "string") {
      if (this.#pendingByteLength > 0) this.#pending.push(this.#decodePendingBytes());
      const values = this.#pushText(chunk);
      this.#checkPending(values);
      return values;
    }
    const lastNewline = lastNewlineIn(chunk);
    if (lastNewline === -1) {
      if (chunk.length > 0) {
        this.#pendingBytes.push(chunk);
        this.#pendingByteLength += chunk.length;
        this.#checkPending();
      }
      return [];
    }
    const head = chunk.subarray(0, lastNewline + 1);
    let text: string;
    if (this.#pendingByteLength > 0) {
      this.#pendingBytes.push(head);
      this.#pendingByteLength += head.length;
      text = this.#decodePendingBytes();
    } else {
      text = this.#decode(head);
    }
    if (lastNewline + 1 < chunk.length) {
      const rest = chunk.subarray(lastNewline + 1);
      this.#pendingBytes.push(rest);
      this.#pendingByteLength += rest.length;
    }
    const out = this.#pushText(text);
    this.#checkPending(out);
    return out;
  }

  #checkPending(values: unknown[] = []): void {
    if (this.#pendingChars + this.#pendingByteLength > this.#maxLine) {
      const error = new NdjsonLineTooLong(this.#maxLine);
      error.values = values;
      throw error;
    }
  }

  #decode(bytes: Uint8Array): string {
    // ignoreBOM: each call starts a new decode; only the input's first character may be a
    // byte-order mark, and that one is dropped by hand in #pushText.
    this.#textDecoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
    return this.#textDecoder.decode(bytes);
  }

  #decodePendingBytes(): string {
    const parts = this.#pendingBytes;
    let whole: Uint8Array;
    if (parts.length === 1) {
      whole = parts[0] as Uint8Array;
    } else {
      whole = new Uint8Array(this.#pendingByteLength);
      let at = 0;
      for (const part of parts) {
        whole.set(part, at);
        at += part.length;
      }
    }
    this.#pendingBytes = [];
    this.#pendingByteLength = 0;
    return this.#decode(whole);
  }

  #pushText(input: string): unknown[] {
    let text = input;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
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
    if (this.#pendingByteLength > 0) this.#pending.push(this.#decodePendingBytes());
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
  const values = decoder.push(text);
  try {
    for (const v of decoder.end()) values.push(v);
  } catch (error) {
    // An overlong last line: the lines before it still count.
    if (error instanceof NdjsonLineTooLong) error.values = [...values, ...error.values];
    throw error;
  }
  return values;
}
