/**
 * The simpler NDJSON decoder the bench measures the core's against (bench/ndjson-simple.ts) must
 * decode what the core's does, or its figure compares nothing: the same values, the same reported
 * lines and the same line-length cap, however the bytes are chunked.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SimpleNdjsonDecoder } from "../../bench/ndjson-simple.js";
import {
  type InvalidNdjsonLine,
  NdjsonDecoder,
  NdjsonLineTooLong,
  type NdjsonOptions,
} from "../../src/core/ndjson.js";

const encoder = new TextEncoder();

interface Decoder {
  push(chunk: Uint8Array | string): readonly unknown[];
  end(): unknown[];
}

/** Values, reported lines, and the overlong line's error (with the values before it), if any. */
function decodeAll(
  decoder: Decoder,
  chunks: readonly (Uint8Array | string)[],
  problems: InvalidNdjsonLine[],
) {
  const values: unknown[] = [];
  try {
    for (const chunk of chunks) values.push(...decoder.push(chunk));
    values.push(...decoder.end());
    return { values, problems, tooLong: null };
  } catch (error) {
    if (!(error instanceof NdjsonLineTooLong)) throw error;
    return { values: [...values, ...error.values], problems, tooLong: error.message };
  }
}

function both(chunks: readonly (Uint8Array | string)[], options: NdjsonOptions = {}) {
  const core: InvalidNdjsonLine[] = [];
  const simple: InvalidNdjsonLine[] = [];
  return {
    core: decodeAll(new NdjsonDecoder({ ...options, onInvalidLine: (p) => core.push(p) }), chunks, core),
    simple: decodeAll(
      new SimpleNdjsonDecoder({ ...options, onInvalidLine: (p) => simple.push(p) }),
      chunks,
      simple,
    ),
  };
}

function bytesIn(text: string, size: number): Uint8Array[] {
  const bytes = encoder.encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

describe("the bench's simpler NDJSON decoder", () => {
  it("decodes as the core's: CRLF split between chunks, blank and malformed lines, a byte-order mark, a last line without newline", () => {
    const text = '\uFEFF{"a":1}\r\n\n  \nbad\r\n{"t":"café 😀 ünï"}\r\n{"broken":\n{"last":true}';
    for (const size of [1, 2, 3, 16, 1000]) {
      const { core, simple } = both(bytesIn(text, size));
      expect(simple, `${size}-byte chunks`).toEqual(core);
      expect(simple.values).toEqual([{ a: 1 }, { t: "café 😀 ünï" }, { last: true }]);
      expect(simple.problems.map((p) => p.line)).toEqual([4, 6]);
    }
    expect(both([text]).simple).toEqual(both([text]).core);
    const onlyLine = bytesIn('\uFEFF{"only":1}', 3);
    expect(both(onlyLine).simple).toEqual(both(onlyLine).core);
    expect(both(onlyLine).simple.values).toEqual([{ only: 1 }]);
  });

  it("stops at an overlong line as the core's does, with the lines before it, chunked or whole", () => {
    const text = `{"a":1}\n${JSON.stringify({ s: "b".repeat(40) })}\n{"c":3}\n`;
    for (const chunks of [bytesIn(text, 16), bytesIn(text, 5), [text]]) {
      const { core, simple } = both(chunks, { maxLineLength: 40 });
      expect(simple).toEqual(core);
      expect(simple.tooLong).toBe("A line is longer than 40 characters.");
      expect(simple.values).toEqual([{ a: 1 }]);
    }
  });

  it("gives the core's values and reported lines for any lines cut anywhere", () => {
    const line = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom("", "  ", "not json", '{"open":'),
      fc.string({ unit: "grapheme" }).map((s) => JSON.stringify({ s })),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n")), { maxLength: 12 }),
        fc.integer({ min: 1, max: 9 }),
        (lines, size) => {
          const text = lines.map(([l, eol]) => l + eol).join("");
          const { core, simple } = both(bytesIn(text, size));
          expect(simple).toEqual(core);
        },
      ),
      { numRuns: 200 },
    );
  });
});
