/**
 * src/server-kit/http.ts: a malformed address told apart, and a request body read under a cap,
 * stopping at once (the relay) or after reading the rest up to a drain limit (the sandbox).
 */
import { describe, expect, it } from "vitest";
import { isMalformedPath, readCappedBody } from "../../src/server-kit/http.js";

/** A POST whose body arrives in `chunks` (no declared length, as a chunked body), counting reads. */
function chunked(chunks: number[]): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = chunks[pulled];
      if (size === undefined) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size).fill(65));
    },
  });
  const request = new Request("http://x.example/", { method: "POST", body, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("isMalformedPath", () => {
  it("is true only for a path whose percent-encoding does not decode", () => {
    expect(isMalformedPath("/a%20b/%C3%A9")).toBe(false);
    expect(isMalformedPath("/a%2")).toBe(true);
    expect(isMalformedPath("/%C3")).toBe(true);
  });
});

describe("readCappedBody", () => {
  it("gives a body within the cap whole", async () => {
    const { request } = chunked([3, 4]);
    const read = await readCappedBody(request, 10);
    expect(read.kind).toBe("body");
    expect(read.kind === "body" && new TextDecoder().decode(read.bytes)).toBe("AAAAAAA");
  });

  it("stops reading the moment the cap is passed when there is no drain limit", async () => {
    const { request, pulled } = chunked([6, 6, 6, 6, 6]);
    expect(await readCappedBody(request, 10)).toEqual({ kind: "too-large", drained: false });
    expect(pulled()).toBeLessThan(5);
  });

  it("reads the rest up to the drain limit, so the client can read the answer", async () => {
    expect(await readCappedBody(chunked([6, 6, 6]).request, 10, 100)).toEqual({
      kind: "too-large",
      drained: true,
    });
    expect(await readCappedBody(chunked([60, 60]).request, 10, 100)).toEqual({
      kind: "too-large",
      drained: false,
    });
  });

  it("refuses a declared length over the limits without reading", async () => {
    const request = new Request("http://x.example/", {
      method: "POST",
      body: "x".repeat(20),
      headers: { "Content-Length": "20" },
    });
    expect(await readCappedBody(request, 10)).toEqual({ kind: "too-large", drained: false });
    expect(request.bodyUsed).toBe(false);
  });
});
