/**
 * The simpler NDJSON decoder that src/core/ndjson.ts was measured against (bench/ndjson.ts): the
 * platform's `TextDecoder` in streaming mode (`{ stream: true }`: it holds a character split across
 * chunks itself) turns each chunk into text, and a small line splitter keeps the pending text as
 * one string. Same options, limits and errors as the core's `NdjsonDecoder` (test/bench/ndjson-simple.test.ts
 * runs the core's cases through it), without the byte buffer, the 64 KB spill and the unrolled
 * copy loop.
 */
import { type InvalidNdjsonLine, NdjsonLineTooLong, type NdjsonOptions } from "../src/core/ndjson.js";

const REPORTED_TEXT_LIMIT = 200;
const STREAM = { stream: true } as const;
const NO_VALUES: readonly unknown[] = Object.freeze([]);
const BLANK = /^\s*$/;

export class SimpleNdjsonDecoder {
  #textDecoder: TextDecoder | null = null;
  readonly #onInvalidLine: ((problem: InvalidNdjsonLine) => void) | undefined;
  readonly #maxLine: number;
  /** The text of the current line so far (a V8 rope: appending is cheap, it is flattened once). */
  #pending = "";
  #lineNumber = 0;
  #started = false;

  constructor(options: NdjsonOptions = {}) {
    this.#onInvalidLine = options.onInvalidLine;
    this.#maxLine = options.maxLineLength ?? Infinity;
  }

  push(chunk: Uint8Array | string): readonly unknown[] {
    let text: string;
    if (typeof chunk === "string") {
      // Bytes of a character left incomplete before a text chunk are flushed (as U+FFFD).
      text = this.#textDecoder === null ? chunk : this.#textDecoder.decode() + chunk;
    } else {
      this.#textDecoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
      text = this.#textDecoder.decode(chunk, STREAM);
    }
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const newline = text.indexOf("\n");
    if (newline === -1) {
      this.#pending += text;
      this.#check([]);
      return NO_VALUES;
    }
    const out: unknown[] = [];
    this.#take(this.#pending + text.slice(0, newline), out);
    let start = newline + 1;
    for (let next = text.indexOf("\n", start); next !== -1; next = text.indexOf("\n", start)) {
      this.#take(text.slice(start, next), out);
      start = next + 1;
    }
    this.#pending = text.slice(start);
    this.#check(out);
    return out;
  }

  end(): unknown[] {
    const out: unknown[] = [];
    if (this.#textDecoder !== null) this.#pending += this.#textDecoder.decode();
    if (this.#pending.length > 0) {
      const line = this.#pending;
      this.#pending = "";
      this.#take(line, out);
    }
    return out;
  }

  /** One more than the limit may be a line's "\r" before a "\n" still to come. */
  #check(values: unknown[]): void {
    if (this.#pending.length > this.#maxLine + 1) {
      const error = new NdjsonLineTooLong(this.#maxLine);
      error.values = values;
      throw error;
    }
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
      if (BLANK.test(line)) return;
      this.#onInvalidLine?.({
        line: this.#lineNumber,
        text: line.length > REPORTED_TEXT_LIMIT ? `${line.slice(0, REPORTED_TEXT_LIMIT)}…` : line,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
