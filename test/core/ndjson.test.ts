import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeNdjson,
  decodeNdjsonText,
  type InvalidNdjsonLine,
  NdjsonDecoder,
  NdjsonLineTooLong,
} from "../../src/core/ndjson.js";

const encoder = new TextEncoder();

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const p of parts) yield p;
}

async function collect(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of source) out.push(v);
  return out;
}

function splitBytes(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.slice(at, p));
    at = p;
  }
  out.push(bytes.slice(at));
  return out;
}

// ---------------------------------------------------------------------------------------------

describe("decodeNdjson", () => {
  it("splits on \\n and \\r\\n alike, even when \\r and \\n arrive in different chunks", async () => {
    const problems: InvalidNdjsonLine[] = [];
    const values = await collect(
      decodeNdjson(chunks('{"a":1}\r\n{"b":2}\n{"c":3}\r', '\n{"d":"x\\r"}\r\nbad\r', "\n"), {
        onInvalidLine: (p) => problems.push(p),
      }),
    );
    expect(values).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }, { d: "x\r" }]);
    // The \r belongs to the line ending, not to the line.
    expect(problems.map((p) => p.text)).toEqual(["bad"]);
  });

  it("skips empty and whitespace-only lines silently", async () => {
    const problems: InvalidNdjsonLine[] = [];
    const values = await collect(
      decodeNdjson(chunks('\n{"a":1}\n\n   \n\t\r\n{"b":2}\n\n'), { onInvalidLine: (p) => problems.push(p) }),
    );
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(problems).toEqual([]);
  });

  it("decodes a multi-byte character split across chunks", async () => {
    const bytes = encoder.encode('{"t":"café 😀 ünï"}\n');
    const oneByteChunks = Array.from(bytes, (b) => new Uint8Array([b]));
    expect(await collect(decodeNdjson(chunks(...oneByteChunks)))).toEqual([{ t: "café 😀 ünï" }]);
    const emoji = bytes.indexOf(0xf0);
    const parts = [bytes.subarray(0, emoji + 2), bytes.subarray(emoji + 2)];
    expect(await collect(decodeNdjson(chunks(...parts)))).toEqual([{ t: "café 😀 ünï" }]);
  });

  it("returns a final line that has no newline", async () => {
    expect(await collect(decodeNdjson(chunks('{"a":1}\n{"b', '":2}')))).toEqual([{ a: 1 }, { b: 2 }]);
    expect(await collect(decodeNdjson(chunks(encoder.encode('{"a":1}\n{"b":"é"}'))))).toEqual([
      { a: 1 },
      { b: "é" },
    ]);
  });

  it("reports a malformed line between good ones with its line number and keeps the lines after it", async () => {
    const problems: InvalidNdjsonLine[] = [];
    const values = await collect(
      decodeNdjson(chunks('{"a":1}\n\n{"broken":\n', '{"b":2}\n<html>\n{"c":3}'), {
        onInvalidLine: (p) => problems.push(p),
      }),
    );
    expect(values).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(problems.map((p) => [p.line, p.text])).toEqual([
      [3, '{"broken":'],
      [5, "<html>"],
    ]);
    expect(problems[0]?.error).toMatch(/JSON|Unexpected|end/i);
  });

  it("keeps going past a malformed line when nobody listens", async () => {
    expect(await collect(decodeNdjson(chunks("nope\n", '{"a":1}\n')))).toEqual([{ a: 1 }]);
  });

  it("cuts the reported text of a long malformed line to about 200 characters", async () => {
    const problems: InvalidNdjsonLine[] = [];
    await collect(decodeNdjson(chunks(`x${"y".repeat(5000)}\n`), { onInvalidLine: (p) => problems.push(p) }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.text.length).toBeLessThanOrEqual(201);
    expect(problems[0]?.text.startsWith("xyyy")).toBe(true);
  });

  it("yields nothing for empty input", async () => {
    expect(await collect(decodeNdjson(chunks()))).toEqual([]);
    expect(await collect(decodeNdjson(chunks("", new Uint8Array(0))))).toEqual([]);
    expect(await collect(decodeNdjson(chunks("\n\r\n\n")))).toEqual([]);
    expect(decodeNdjsonText("")).toEqual([]);
  });

  it("reads a web ReadableStream of bytes, a whole string, and drops a leading byte-order mark", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('\uFEFF{"a":1}\n{"b"'));
        controller.enqueue(encoder.encode(":2}\n"));
        controller.close();
      },
    });
    expect(await collect(decodeNdjson(stream))).toEqual([{ a: 1 }, { b: 2 }]);
    expect(await collect(decodeNdjson('\uFEFF{"a":1}\n[2]'))).toEqual([{ a: 1 }, [2]]);
  });

  it("drops the byte-order mark of bytes whose only line has no newline", async () => {
    const problems: InvalidNdjsonLine[] = [];
    const onInvalidLine = (p: InvalidNdjsonLine) => problems.push(p);
    const bytes = encoder.encode('\uFEFF{"a":1}');
    expect(await collect(decodeNdjson(chunks(bytes), { onInvalidLine }))).toEqual([{ a: 1 }]);
    expect(
      await collect(decodeNdjson(chunks(bytes.subarray(0, 2), bytes.subarray(2)), { onInvalidLine })),
    ).toEqual([{ a: 1 }]);
    expect(problems).toEqual([]);
  });

  it("yields each value as soon as its line completes, before the stream ends", async () => {
    let released = () => {};
    const gate = new Promise<void>((resolve) => {
      released = resolve;
    });
    async function* slow() {
      yield '{"first":true}\n{"sec';
      await gate;
      yield 'ond":true}\n';
    }
    const iterator = decodeNdjson(slow())[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ first: true });
    released();
    expect((await iterator.next()).value).toEqual({ second: true });
    expect((await iterator.next()).done).toBe(true);
  });

  it("decodes a 1 MB line fed in 16-byte chunks", async () => {
    const content = "z".repeat(1024 * 1024);
    const bytes = encoder.encode(`${JSON.stringify({ content })}\n{"after":1}\n`);
    const decoder = new NdjsonDecoder();
    const values: unknown[] = [];
    for (let i = 0; i < bytes.length; i += 16) values.push(...decoder.push(bytes.subarray(i, i + 16)));
    values.push(...decoder.end());
    expect(values).toEqual([{ content }, { after: 1 }]);
  });

  it("decodes long lines of 1- to 4-byte characters whatever the chunking, a character split anywhere", () => {
    // Each line is far past 64 KB (the most undecoded bytes held), so characters straddle every
    // point where held bytes are decoded; a leading byte-order mark is dropped once.
    const content = ["a", "é", "€", "𝄞"].map((c, i) => c.repeat(40_000 + i)).join("|");
    const text = `\ufeff${JSON.stringify({ content })}\n${JSON.stringify({ tail: content.slice(7) })}\n{"after":1}\n`;
    const bytes = encoder.encode(text);
    const expected = [{ content }, { tail: content.slice(7) }, { after: 1 }];
    for (const sizes of [[16], [1, 3, 7], [70_000], [65_535, 2, 5], [100_000, 16]]) {
      const decoder = new NdjsonDecoder();
      const values: unknown[] = [];
      for (let i = 0, k = 0; i < bytes.length; k++) {
        const size = sizes[k % sizes.length] as number;
        values.push(...decoder.push(bytes.subarray(i, i + size)));
        i += size;
      }
      values.push(...decoder.end());
      expect(values, String(sizes)).toEqual(expected);
    }
  });

  it("reads right from a source that reuses one buffer for every chunk (a BYOB reader)", () => {
    const text = `${JSON.stringify({ content: "é".repeat(100) })}\n{"after":1}\n`;
    const bytes = encoder.encode(text);
    for (const size of [16, 100]) {
      const decoder = new NdjsonDecoder();
      const shared = new Uint8Array(size);
      const values: unknown[] = [];
      for (let i = 0; i < bytes.length; i += size) {
        const piece = bytes.subarray(i, i + size);
        shared.set(piece);
        values.push(...decoder.push(shared.subarray(0, piece.length)));
        shared.fill(0x2a);
      }
      values.push(...decoder.end());
      expect(values).toEqual(decodeNdjsonText(text));
    }
  });

  it("gives the same values however the same bytes are split into chunks, down to 1 byte", async () => {
    const line = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom("", "  ", "\t", "not json", '{"open":'),
      fc.string({ unit: "grapheme" }).map((s) => JSON.stringify({ s })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n")), { maxLength: 20 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (lines, trailing, cuts) => {
          let text = lines.map(([l, eol]) => l + eol).join("");
          if (!trailing && text.endsWith("\n")) text = text.replace(/\r?\n$/, "");
          const bytes = encoder.encode(text);
          const problems: number[] = [];
          const whole = decodeNdjsonText(text, { onInvalidLine: (p) => problems.push(p.line) });
          const chunkedProblems: number[] = [];
          const chunked = await collect(
            decodeNdjson(chunks(...splitBytes(bytes, cuts)), {
              onInvalidLine: (p) => chunkedProblems.push(p.line),
            }),
          );
          const byteByByte = await collect(
            decodeNdjson(chunks(...Array.from(bytes, (b) => new Uint8Array([b])))),
          );
          expect(chunked).toEqual(whole);
          expect(byteByByte).toEqual(whole);
          expect(chunkedProblems).toEqual(problems);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("the line-length cap", () => {
  const limit = 40;
  const atLimit = JSON.stringify({ s: "a".repeat(limit - 8) });

  it("stops with NdjsonLineTooLong as soon as a chunked line passes it, before the line is all held", () => {
    const decoder = new NdjsonDecoder({ maxLineLength: limit });
    const head = encoder.encode('{"a":1}\n{"long":"');
    expect(decoder.push(head)).toEqual([{ a: 1 }]);
    let pushed = head.length;
    let caught: unknown;
    try {
      for (let i = 0; i < 100; i++) {
        decoder.push(encoder.encode("x".repeat(16)));
        pushed += 16;
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NdjsonLineTooLong);
    expect((caught as NdjsonLineTooLong).message).toBe(`A line is longer than ${limit} characters.`);
    expect(pushed).toBeLessThan(head.length + limit + 16);
  });

  it("counts a line's bytes and the text chunk after them together", () => {
    const decoder = new NdjsonDecoder({ maxLineLength: 10 });
    expect(decoder.push(encoder.encode('{"s":"xx'))).toEqual([]);
    expect(() => decoder.push('xxxxxxxx"}')).toThrow(NdjsonLineTooLong);
  });

  it("yields the lines before an overlong one, then throws, chunked or whole", async () => {
    const text = `{"a":1}\n${JSON.stringify({ s: "b".repeat(limit) })}\n{"c":3}\n`;
    const seen: unknown[] = [];
    const chunked = decodeNdjson(chunks(...splitBytes(encoder.encode(text), [3, 9, 20, 30])), {
      maxLineLength: limit,
    });
    await expect(
      (async () => {
        for await (const v of chunked) seen.push(v);
      })(),
    ).rejects.toBeInstanceOf(NdjsonLineTooLong);
    expect(seen).toEqual([{ a: 1 }]);
    let whole: unknown;
    try {
      decodeNdjsonText(text.trimEnd().split("\n").slice(0, 2).join("\n"), { maxLineLength: limit });
    } catch (error) {
      whole = error;
    }
    expect(whole).toBeInstanceOf(NdjsonLineTooLong);
    expect((whole as NdjsonLineTooLong).values).toEqual([{ a: 1 }]);
  });

  it("accepts a line of exactly the limit, its CRLF not counted, whatever the chunking", () => {
    const text = `${atLimit}\r\n${atLimit}`;
    expect(atLimit.length).toBe(limit);
    const expected = [JSON.parse(atLimit), JSON.parse(atLimit)];
    expect(decodeNdjsonText(text, { maxLineLength: limit })).toEqual(expected);
    const bytes = encoder.encode(text);
    for (const size of [1, 7, 16, bytes.length]) {
      const decoder = new NdjsonDecoder({ maxLineLength: limit });
      const values: unknown[] = [];
      for (let i = 0; i < bytes.length; i += size) values.push(...decoder.push(bytes.slice(i, i + size)));
      values.push(...decoder.end());
      expect(values, `${size}-byte chunks`).toEqual(expected);
    }
  });
});

describe("decodeNdjsonText", () => {
  it("needs no TextDecoder for text (Apps Script's V8 has none)", () => {
    const original = globalThis.TextDecoder;
    // @ts-expect-error: removed on purpose for this test
    delete globalThis.TextDecoder;
    try {
      expect(decodeNdjsonText('{"a":"é"}\n{"b":2}')).toEqual([{ a: "é" }, { b: 2 }]);
    } finally {
      globalThis.TextDecoder = original;
    }
  });

  it("follows the same rules on a whole body", () => {
    const problems: InvalidNdjsonLine[] = [];
    const values = decodeNdjsonText('{"a":1}\r\n\r\n  \nbad\n{"b":2}', {
      onInvalidLine: (p) => problems.push(p),
    });
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(problems.map((p) => p.line)).toEqual([4]);
  });
});

// ---------------------------------------------------------------------------------------------
