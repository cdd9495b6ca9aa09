/** The platform client when the service fails: retries, backoff, time-outs, refused connections. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createPlatformClient } from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";
import { failure, json, loopbackService, TOKEN } from "../support/platform-service.js";
import { fullReport } from "./fixtures.js";

const service = loopbackService();
const { seen } = service;
const client = service.client;

describe("errors and retries", () => {
  it("retries a GET on 5xx and succeeds", async () => {
    let n = 0;
    service.handler = (_req, res) => (++n < 3 ? json(res, 503, { message: "busy" }) : json(res, 200, []));
    expect(await client().listDeployments()).toEqual([]);
    expect(seen).toHaveLength(3);
  });

  it("retries a DELETE once, and only when the service said it did not act on it (503, 429)", async () => {
    let n = 0;
    service.handler = (_req, res) => (++n === 1 ? json(res, 503, {}) : json(res, 200, fullReport()));
    await client().disconnectReportFromWorkbook(1, 101, { placementId: "p1" });
    expect(seen.map((s) => s.method)).toEqual(["DELETE", "DELETE"]);
  });

  it("one click is at most two DELETEs: a service that keeps answering 503 gets no third", async () => {
    service.handler = (_req, res) => json(res, 503, { message: "busy" });
    const error = await failure(client().disconnectReportFromWorkbook(1, 101, { placementId: "p1" }));
    expect(error.status).toBe(503);
    expect(seen.map((s) => s.method)).toEqual(["DELETE", "DELETE"]);
  });

  it.each([500, 502, 504])(
    "never repeats a DELETE after a %i: the service may have applied it",
    async (status) => {
      service.handler = (_req, res) => json(res, status, {});
      await failure(client().disconnectReportFromWorkbook(1, 101, { placementId: "p1" }));
      expect(seen).toHaveLength(1);
    },
  );

  it("never repeats a DELETE after a time-out: the service may have applied it", async () => {
    service.handler = () => {}; // never answers
    const error = await failure(
      client({ timeoutMs: 50 }).disconnectReportFromWorkbook(1, 101, { placementId: "p1" }),
    );
    expect(error.kind).toBe("timeout");
    expect(seen).toHaveLength(1);
  });

  it("honours Retry-After on 429", async () => {
    const waits: number[] = [];
    let n = 0;
    service.handler = (_req, res) =>
      ++n === 1 ? json(res, 429, {}, { "Retry-After": "2" }) : json(res, 200, []);
    await client({
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).listDeployments();
    expect(waits).toEqual([2000]);
  });

  it("backs off exponentially with jitter when there is no Retry-After", async () => {
    const waits: number[] = [];
    service.handler = (_req, res) => json(res, 429, {});
    const e = await failure(
      client({
        retries: 3,
        retryBaseMs: 100,
        random: () => 1,
        sleep: async (ms) => {
          waits.push(ms);
        },
      }).listDeployments(),
    );
    expect(e.kind).toBe("rate-limited");
    expect(waits).toEqual([100, 200, 400]);
    expect(seen).toHaveLength(4);
  });

  it("gives up at once when Retry-After is longer than it will wait", async () => {
    service.handler = (_req, res) => json(res, 429, {}, { "Retry-After": "3600" });
    const e = await failure(client().listDeployments());
    expect(e.kind).toBe("rate-limited");
    expect(e.message).toContain("3600");
    expect(seen).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 413])("never retries a %i", async (status) => {
    service.handler = (_req, res) => json(res, status, {});
    await failure(client().listDeployments());
    expect(seen).toHaveLength(1);
  });

  it.each([
    [404, "not-found"],
    [408, "timeout"],
    [413, "bad-request"],
    [429, "rate-limited"],
    [500, "server"],
  ])("maps %i to %s", async (status, kind) => {
    service.handler = (_req, res) => json(res, status, {});
    expect((await failure(client({ retries: 0 }).listDeployments())).kind).toBe(kind);
  });

  it("a 502 from a proxy with an HTML body gives readable text", async () => {
    service.handler = (_req, res) => {
      res.writeHead(502, { "Content-Type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
    };
    const e = await failure(client({ retries: 0 }).listDeployments());
    expect(e.kind).toBe("server");
    expect(e.message).toContain("502 Bad Gateway");
    expect(e.message).not.toContain("<h1>");
  });

  it("times out a request that never answers, per attempt", async () => {
    service.handler = () => {
      // Never answers.
    };
    const e = await failure(client({ timeoutMs: 150, retries: 1 }).listDeployments());
    expect(e.kind).toBe("timeout");
    expect(seen).toHaveLength(2);
  });

  it("a refused connection is a network error that says what to check", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const e = await failure(
      createPlatformClient({
        transport: fetchTransport(fetch),
        baseUrl: `http://127.0.0.1:${port}`,
        token: TOKEN,
        retries: 1,
        sleep: async () => {},
      }).listDeployments(),
    );
    expect(e.kind).toBe("network");
    expect(e.message).toContain("tenant URL");
  });

  it("an abort from the caller stops the request and is not retried", async () => {
    service.handler = () => {};
    const controller = new AbortController();
    const p = client().listDeployments({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(p)).kind).toBe("aborted");
    expect(seen).toHaveLength(1);
  });

  it("an empty token is refused before sending", async () => {
    const e = await failure(
      createPlatformClient({
        transport: fetchTransport(fetch),
        baseUrl: service.base,
        token: " ",
      }).listDeployments(),
    );
    expect(e.kind).toBe("unauthorized");
    expect(seen).toHaveLength(0);
  });
});
