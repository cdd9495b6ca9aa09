/**
 * The preview's server (what `npm start` runs): on 127.0.0.1 only, and a malformed address gets a
 * 400 answer while the server keeps serving.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPreview, startPreview } from "../../../tooling/preview/server.js";

let preview: RunningPreview;
beforeAll(async () => {
  preview = await startPreview({ port: 0, logLevel: "silent", watch: false });
});
afterAll(async () => {
  await preview?.close();
});

/** GET with the path exactly as given, to an explicit address. */
function rawGet(host: string, port: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the preview server", () => {
  it("answers a malformed address with 400 and keeps serving", async () => {
    const port = new URL(preview.url).port;
    expect(await rawGet("127.0.0.1", port, "/%E0%A4%A")).toBe(400);
    expect(await rawGet("127.0.0.1", port, "/src/%E0%A4%A.ts")).toBe(400);
    expect(await rawGet("127.0.0.1", port, "/")).toBe(200);
  });

  it("listens on 127.0.0.1, not on every interface", async () => {
    const port = new URL(preview.url).port;
    expect(await rawGet("127.0.0.1", port, "/")).toBe(200);
    await expect(rawGet("::1", port, "/")).rejects.toThrow(/ECONNREFUSED|EADDRNOTAVAIL/);
  });
});
