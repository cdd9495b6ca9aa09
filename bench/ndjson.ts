/**
 * NDJSON decoding. Goal: one long line fed in 16-byte chunks decodes within 2x of the same line fed
 * whole (and so linear however chunked). Beside the core's decoder, the same figure for the simpler
 * one it was measured against (bench/ndjson-simple.ts: the platform's streaming `TextDecoder` and a
 * line splitter) and for `TextDecoderStream` in front of that splitter. Also shown, without a goal:
 * throughput against `JSON.parse` over the same lines, and larger chunk sizes.
 */
import { cpus, loadavg } from "node:os";
import { decodeNdjson, NdjsonDecoder } from "../src/core/ndjson.js";
import { ratioLine } from "./goal.js";
import { SimpleNdjsonDecoder } from "./ndjson-simple.js";

const MB = 1024 * 1024;

/** Lines shaped like a real chat stream: mostly small assistant deltas, some tool calls, a state snapshot. */
function chatLikeLines(targetBytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    let line: string;
    if (i % 50 === 0) {
      line = JSON.stringify({
        id: `tool-${i}`,
        role: "assistant",
        graphPath: ["cube_data_analyst_agent", "tools"],
        toolCall: {
          name: "load_data",
          input: { query: { measures: ["orders.count"], dimensions: ["orders.status"] } },
          result: Array.from({ length: 20 }, (_, k) => ({ status: `s${k}`, count: k * 37 })),
        },
        sort: i,
      });
    } else {
      line = JSON.stringify({
        id: `answer-${Math.floor(i / 10)}`,
        role: "assistant",
        content: `Revenue grew ${i % 97}% in Q${(i % 4) + 1}; café orders — ünïcödé ok. `,
        graphPath: ["final"],
        isDelta: true,
        isInProcess: true,
        sort: i,
      });
    }
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function timeAsync(fn: () => Promise<unknown>, runs = 3): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** The best wall-clock and the best CPU time (process.cpuUsage: user + system) of the runs timed. */
class Best {
  wallMs = Infinity;
  cpuMs = Infinity;
  time(fn: () => unknown): void {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    this.wallMs = Math.min(this.wallMs, wall);
    this.cpuMs = Math.min(this.cpuMs, (cpu.user + cpu.system) / 1000);
  }
}

async function countAsync(source: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of source) n++;
  return n;
}

interface Decoder {
  push(chunk: Uint8Array | string): readonly unknown[];
  end(): unknown[];
}

function decodeSync(chunks: readonly Uint8Array[], make: () => Decoder = () => new NdjsonDecoder()): number {
  const decoder = make();
  let n = 0;
  for (const chunk of chunks) n += decoder.push(chunk).length;
  return n + decoder.end().length;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The line through `TextDecoderStream` in `chunks`, its text split by the simpler decoder. */
async function decodeThroughStream(chunks: readonly Uint8Array[]): Promise<number> {
  let next = 0;
  const text = new ReadableStream<BufferSource>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++] as Uint8Array<ArrayBuffer>);
      else controller.close();
    },
  }).pipeThrough(new TextDecoderStream());
  const decoder = new SimpleNdjsonDecoder();
  let n = 0;
  const reader = text.getReader();
  for (let step = await reader.read(); !step.done; step = await reader.read()) {
    n += decoder.push(step.value).length;
  }
  return n + decoder.end().length;
}

const loadLine = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ")} (1 / 5 / 15 min) on ${cpus().length} cores`;

export async function run(): Promise<void> {
  const encoder = new TextEncoder();
  console.log(loadLine());

  // Throughput against JSON.parse over the same lines (split on "\n", blank last line dropped).
  const text = chatLikeLines(20 * MB);
  const bytes = encoder.encode(text);
  const sizeMb = bytes.length / MB;
  const chunks = chunksOf(bytes, 64 * 1024);
  const baseline = await timeAsync(async () => {
    const decoded = new TextDecoder().decode(bytes);
    let n = 0;
    for (const line of decoded.split("\n")) if (line) n += JSON.parse(line) ? 1 : 0;
    return n;
  });
  const ours = await timeAsync(() => countAsync(decodeNdjson(fromArray(chunks))));
  console.log(
    `ndjson decode: ${fmt(sizeMb / (ours / 1000))} MB/s vs JSON.parse split: ${fmt(sizeMb / (baseline / 1000))} MB/s (ratio ${fmt(ours / baseline, 2)})`,
  );

  // One long line: chunked vs whole. Linear means the ratio stays flat as the line grows (a
  // decoder that re-joins or re-scans its pending text per chunk would see it grow with the size);
  // what remains is a fixed cost per chunk, which 16-byte chunks make visible.
  // Each size's chunks are made in its own round and dropped after it: some 650,000 chunk objects
  // for 10 MB, and all sizes' at once would weigh on the collector during the timed runs.
  const lineSizes = [2.5, 5, 10];
  for (const lineMb of lineSizes) {
    const lineBytes = encoder.encode(longLine(lineMb));
    const chunks16 = chunksOf(lineBytes, 16);
    // Best of several, alternating the two: on a shared machine one slow run must not decide.
    // Main-thread-and-helpers CPU time is shown beside it: the wall clock of a longer run is
    // likelier to include time the process was not scheduled.
    const whole = new Best();
    const chunked = new Best();
    for (let i = 0; i < 4; i++) {
      for (let k = 0; k < 3; k++) whole.time(() => decodeSync([lineBytes]));
      for (let k = 0; k < 3; k++) chunked.time(() => decodeSync(chunks16));
    }
    console.log(
      ratioLine(
        `one ${lineMb} MB line in 16-byte chunks vs whole`,
        chunked.wallMs / whole.wallMs,
        2,
        `${fmt(chunked.wallMs)} ms vs ${fmt(whole.wallMs)} ms; CPU time ${fmt(chunked.cpuMs)} ms vs ${fmt(whole.cpuMs)} ms, ratio ${fmt(chunked.cpuMs / whole.cpuMs, 2)}`,
      ),
    );
  }
  // The simpler decoder the core's was measured against, after the core's figures: the garbage of
  // its per-chunk strings would otherwise weigh on the collector during the core's runs.
  const simple = () => new SimpleNdjsonDecoder();
  for (const lineMb of lineSizes) {
    const lineBytes = encoder.encode(longLine(lineMb));
    const chunks16 = chunksOf(lineBytes, 16);
    const whole = new Best();
    const chunked = new Best();
    for (let i = 0; i < 2; i++) {
      for (let k = 0; k < 3; k++) whole.time(() => decodeSync([lineBytes], simple));
      for (let k = 0; k < 2; k++) chunked.time(() => decodeSync(chunks16, simple));
    }
    console.log(
      ratioLine(
        `one ${lineMb} MB line in 16-byte chunks vs whole, simpler decoder (TextDecoder stream: true + line splitter, not used)`,
        chunked.wallMs / whole.wallMs,
        2,
        `${fmt(chunked.wallMs)} ms vs ${fmt(whole.wallMs)} ms; CPU time ratio ${fmt(chunked.cpuMs / whole.cpuMs, 2)}`,
      ),
    );
  }
  // TextDecoderStream costs tens of microseconds a chunk in Node (a promise and a stream step
  // each), so a smaller line: 10 MB in 16-byte chunks would take minutes.
  {
    const lineBytes = encoder.encode(longLine(0.25));
    const chunks16 = chunksOf(lineBytes, 16);
    const wholeMs = await timeAsync(async () => decodeSync([lineBytes]), 5);
    const streamWholeMs = await timeAsync(() => decodeThroughStream([lineBytes]), 5);
    const streamChunkedMs = await timeAsync(() => decodeThroughStream(chunks16), 3);
    console.log(
      ratioLine(
        `one 0.25 MB line in 16-byte chunks vs whole, through TextDecoderStream + the simpler line splitter (not used)`,
        streamChunkedMs / streamWholeMs,
        2,
        `${fmt(streamChunkedMs)} ms vs ${fmt(streamWholeMs, 2)} ms; the core's decoder takes ${fmt(wholeMs, 2)} ms for this line whole`,
      ),
    );
  }
  const tenMb = encoder.encode(longLine(10));
  const wholeMs = await timeAsync(async () => decodeSync([tenMb]), 5);
  for (const size of [1024, 16 * 1024]) {
    const pieces = chunksOf(tenMb, size);
    const chunkedMs = await timeAsync(async () => decodeSync(pieces), 5);
    console.log(
      `one 10 MB line in ${size / 1024} KB chunks: ${fmt(chunkedMs)} ms vs whole: ${fmt(wholeMs)} ms (ratio ${fmt(chunkedMs / wholeMs, 2)})`,
    );
  }
  const small = chunksOf(tenMb, 16);
  const asyncMs = await timeAsync(() => countAsync(decodeNdjson(fromArray(small))));
  console.log(
    `one 10 MB line as an async stream of ${small.length} 16-byte chunks (decodeNdjson): ${fmt(asyncMs)} ms`,
  );
  console.log(loadLine());
}

function longLine(megabytes: number): string {
  return `${JSON.stringify({ id: "big", role: "assistant", content: "x".repeat(megabytes * MB) })}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
