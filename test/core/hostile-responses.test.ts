import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformClient, type PlatformError, TolerantReportSchema } from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";
import { fullReport } from "./fixtures.js";

const TOKEN = "sk-hostile-abcdef123456";

// Every field of a Report and of a placement, given a wrong type, dropped, null, or an unknown enum
// value: the client either reads it as designed (tolerated) or fails with a typed invalid-response.
describe("fuzzed responses", () => {
  const report = fullReport();
  const placement = report.externalWorkbookPlacements![0]!;
  const mutation = fc.constantFrom("drop", "null", "number", "string", "object", "array", "enum");
  const apply = (obj: Record<string, unknown>, key: string, how: string) => {
    const copy = { ...obj };
    if (how === "drop") delete copy[key];
    else if (how === "null") copy[key] = null;
    else if (how === "number") copy[key] = 42.5;
    else if (how === "string") copy[key] = "NOT_A_KNOWN_VALUE";
    else if (how === "object") copy[key] = { nested: true };
    else if (how === "array") copy[key] = [1, "two"];
    else copy[key] = "BRAND_NEW_ENUM_VALUE";
    return copy;
  };

  it("a mutated Report field is tolerated or a typed failure, never a crash", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(report)), mutation, (key, how) => {
        const input = apply(report as unknown as Record<string, unknown>, key, how);
        const result = TolerantReportSchema.safeParse(input);
        if (!result.success) expect(result.error.issues.length).toBeGreaterThan(0);
        else expect(result.data.id).toBe(report.id);
      }),
      { numRuns: 300 },
    );
  });

  it("a mutated placement field is tolerated or a typed failure naming the placement", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(placement)), mutation, (key, how) => {
        const p = apply(placement as unknown as Record<string, unknown>, key, how);
        const result = TolerantReportSchema.safeParse({ ...report, externalWorkbookPlacements: [p] });
        if (!result.success) {
          expect(result.error.issues[0]?.path.slice(0, 2)).toEqual(["externalWorkbookPlacements", 0]);
        } else if (key === "syncStatus" && (how === "string" || how === "enum")) {
          expect(result.data.externalWorkbookPlacements?.[0]?.syncStatus).toBe("UNKNOWN");
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("hostile transports", () => {
  let server: Server;
  let base: string;
  let mode: "reset" | "halfway" | "html502" = "reset";
  let requests = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      if (mode === "reset") {
        req.socket.destroy();
      } else if (mode === "halfway") {
        const body = JSON.stringify(fullReport());
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(body.length) });
        res.write(body.slice(0, 100));
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        res.writeHead(502, { "Content-Type": "text/html" });
        res.end("<html><head><style>x{}</style></head><body>Bad gateway</body></html>");
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const client = () =>
    createPlatformClient({
      transport: fetchTransport(fetch),
      baseUrl: base,
      token: TOKEN,
      retries: 2,
      sleep: async () => {},
    });
  const fail = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      return e as PlatformError;
    }
    throw new Error("expected failure");
  };

  it.each(["reset", "halfway"] as const)(
    "a %s connection is a network error, retried, without the key",
    async (m) => {
      mode = m;
      requests = 0;
      const e = await fail(client().getReport(1, 2));
      expect(e.kind).toBe("network");
      expect(requests).toBe(3);
      expect(e.message).not.toContain(TOKEN);
      expect(e.message).toMatch(/Check the tenant URL/);
    },
  );

  it("a 502 HTML page from a proxy gives its text, retried, then a server error", async () => {
    mode = "html502";
    requests = 0;
    const e = await fail(client().getReport(1, 2));
    expect(e.kind).toBe("server");
    expect(e.message).toContain("Bad gateway");
    expect(e.message).not.toContain("<");
    expect(requests).toBe(3);
  });
});
