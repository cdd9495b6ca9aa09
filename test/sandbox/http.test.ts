/** Bad bodies, wrong methods, CORS and listing/paging of reports, over loopback HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/schema.js";
import {
  call,
  disconnectPath,
  KEY,
  makeReport,
  OTHER_WB,
  placement,
  reportPath,
  seedWith,
  WB,
} from "../support/sandbox-fixtures.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

const names = ["Revenue by Region", "Churn", "revenue by country", "Margin", "Pipeline"];
const many: Report[] = Array.from({ length: 130 }, (_, i) =>
  makeReport(1000 + i, i % 3 === 0 ? [placement("Bulk", `A${i + 1}`, { workbookId: OTHER_WB })] : [], {
    name: `Bulk ${String(i).padStart(3, "0")}`,
  }),
);
const reports: Report[] = [
  makeReport(1, [placement("Sales", "B2", { id: "p-1" })]),
  ...names.map((name, i) =>
    makeReport(10 + i, i < 3 ? [placement("Sales", `Z${i + 1}`, { workbookId: "wb-filter" })] : null, {
      name,
    }),
  ),
  // Placed in the filter workbook only through the older top-level fields.
  makeReport(20, undefined, { name: "Legacy", externalWorkbookId: "wb-filter", resultLocation: "S!A1" }),
  ...many,
];

let sandbox: SpawnedSandbox;
beforeAll(async () => {
  sandbox = await spawnSandbox(seedWith(reports));
});
afterAll(async () => {
  await sandbox?.stop();
});

async function unchanged(reportId: number, fn: () => Promise<void>) {
  const before = await call(sandbox.url, reportPath(reportId));
  await fn();
  const after = await call(sandbox.url, reportPath(reportId));
  expect(after.json).toEqual(before.json);
}

describe("errors answer JSON {message} with a fitting status and change no state", () => {
  it("malformed JSON is 400", async () => {
    await unchanged(1, async () => {
      for (const body of ["{", "placementId=p-1", "{'placementId': 'p-1'}"]) {
        const answer = await call(sandbox.url, disconnectPath(1), { method: "DELETE", body });
        expect(answer.status, body).toBe(400);
        expect(answer.json.message).toMatch(/JSON/);
      }
    });
  });

  it("wrong field types are 400 and name the field", async () => {
    await unchanged(1, async () => {
      for (const body of [{ placementId: 1 }, { sheetName: ["Sales"] }, [], "true", '"p-1"']) {
        const answer = await call(sandbox.url, disconnectPath(1), { method: "DELETE", body });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(typeof answer.json.message).toBe("string");
      }
      const answer = await call(sandbox.url, disconnectPath(1), {
        method: "DELETE",
        body: { placementId: 1 },
      });
      expect(answer.json.message).toContain("placementId");
    });
  });

  it("a body over 1 MB is 413", async () => {
    await unchanged(1, async () => {
      const body = JSON.stringify({ placementId: "p-1", pad: "x".repeat(1024 * 1024) });
      const answer = await call(sandbox.url, disconnectPath(1), { method: "DELETE", body });
      expect(answer.status).toBe(413);
      expect(answer.json.message).toMatch(/1 MB/);
    });
    // A body just under the limit is read.
    const body = JSON.stringify({ placementId: "nothing", pad: "x".repeat(1000 * 1000) });
    expect((await call(sandbox.url, disconnectPath(1), { method: "DELETE", body })).status).toBe(200);
  });

  it("a chunked body (no Content-Length) is held to the same 1 MB", async () => {
    const chunked = (text: string) =>
      fetch(`${sandbox.url}${disconnectPath(1)}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            const bytes = new TextEncoder().encode(text);
            for (let i = 0; i < bytes.length; i += 64 * 1024)
              controller.enqueue(bytes.slice(i, i + 64 * 1024));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    await unchanged(1, async () => {
      const over = await chunked(JSON.stringify({ placementId: "p-1", pad: "x".repeat(1024 * 1024) }));
      expect(over.status).toBe(413);
      expect((await over.json()).message).toMatch(/1 MB/);
      const under = await chunked(JSON.stringify({ placementId: "nothing", pad: "x".repeat(1000 * 1000) }));
      expect(under.status).toBe(200);
    });
  });

  it("a wrong method is 405 with an Allow header", async () => {
    await unchanged(1, async () => {
      for (const [method, path, allow] of [
        ["POST", disconnectPath(1), "PUT, DELETE"],
        ["GET", disconnectPath(1), "PUT, DELETE"],
        ["DELETE", reportPath(1), "GET"],
        ["PUT", "/api/v1/deployments", "GET"],
        ["GET", "/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state", "POST"],
        ["DELETE", "/api/scim/v2/Users", "GET"],
      ] as const) {
        const answer = await call(sandbox.url, path, { method, body: method === "GET" ? undefined : {} });
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers.get("allow")).toBe(allow);
        expect(typeof answer.json.message).toBe("string");
      }
      // HEAD is not among the methods the service lists, not even where GET is.
      const head = await call(sandbox.url, reportPath(1), { method: "HEAD" });
      expect(head.status).toBe(405);
      expect(head.headers.get("allow")).toBe("GET");
    });
  });

  it("a path that is not valid percent-encoding is 400 with a JSON {message}, and the sandbox serves on", async () => {
    await unchanged(1, async () => {
      for (const path of [
        "/api/v1/deployments/%E0%A4%A/reports",
        "/%E0%A4%A",
        `/api/v1/deployments/1/reports/%FF/connect-workbook`,
        "/api/v1/public/sandbox/agents/%E0%A4%A/chat/stream-chat-state",
        "/api/scim/v2/%E0%A4%A",
      ]) {
        for (const auth of [`Bearer ${KEY}`, null]) {
          const method = path.includes("connect-workbook")
            ? "DELETE"
            : path.includes("/chat/")
              ? "POST"
              : "GET";
          const answer = await call(sandbox.url, path, { method, auth });
          expect(answer.status, `${method} ${path}`).toBe(400);
          expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
          expect(answer.json.message, path).toMatch(/malformed/i);
        }
      }
    });
    expect((await call(sandbox.url, "/api/v1/deployments")).status).toBe(200);
  });

  it("a path id that is not a number is 400", async () => {
    expect((await call(sandbox.url, "/api/v1/deployments/one/reports")).status).toBe(400);
    expect((await call(sandbox.url, "/api/v1/deployments/1/reports/x1")).status).toBe(400);
  });
});

describe("CORS for the task pane on another origin", () => {
  it("answers a preflight with 204 and the allowed methods and headers", async () => {
    const res = await fetch(`${sandbox.url}${disconnectPath(1)}`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://localhost:3000",
        "Access-Control-Request-Method": "DELETE",
        "Access-Control-Request-Headers": "authorization, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toMatch(/DELETE/);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
  });

  it("every answer, errors included, allows any origin and exposes Retry-After", async () => {
    for (const auth of [`Bearer ${KEY}`, null]) {
      const answer = await call(sandbox.url, "/api/v1/deployments", { auth });
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      expect(answer.headers.get("access-control-expose-headers")).toMatch(/Retry-After/);
    }
  });
});

describe("GET /deployments/{id}/reports and /reports/{id}", () => {
  async function listAll(query: string, first?: number) {
    const items: Report[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const params = new URLSearchParams(query);
      if (first !== undefined) params.set("first", String(first));
      if (after) params.set("after", after);
      const answer = await call(sandbox.url, `/api/v1/deployments/1/reports?${params}`);
      expect(answer.status).toBe(200);
      items.push(...answer.json.items);
      pages++;
      if (!answer.json.pageInfo.hasNextPage) return { items, pages };
      after = answer.json.pageInfo.endCursor;
    }
  }

  it("pages with first (default 50, at most 100) and after, answering {items, pageInfo}", async () => {
    const first = await call(sandbox.url, "/api/v1/deployments/1/reports");
    expect(first.json.items).toHaveLength(50);
    expect(first.json.pageInfo.hasNextPage).toBe(true);
    expect(typeof first.json.pageInfo.endCursor).toBe("string");
    const big = await call(sandbox.url, "/api/v1/deployments/1/reports?first=500");
    expect(big.json.items).toHaveLength(100);
    const { items, pages } = await listAll("", 40);
    expect(pages).toBe(4);
    expect(items.map((r) => r.id)).toEqual(reports.map((r) => r.id).sort((a, b) => a - b));
  });

  it("filters by externalWorkbookId: a report is listed when any of its placements is in that workbook", async () => {
    const { items } = await listAll(`externalWorkbookId=wb-filter`);
    expect(items.map((r) => r.name)).toEqual(["Revenue by Region", "Churn", "revenue by country", "Legacy"]);
    expect((await listAll(`externalWorkbookId=${OTHER_WB}`, 7)).items).toHaveLength(44);
    expect((await listAll(`externalWorkbookId=${WB}`)).items.map((r) => r.id)).toEqual([1]);
  });

  it("filters by search, case-insensitive, on the name", async () => {
    const { items } = await listAll("search=REVENUE");
    expect(items.map((r) => r.name)).toEqual(["Revenue by Region", "revenue by country"]);
    expect((await listAll("search=revenue&externalWorkbookId=nowhere")).items).toEqual([]);
  });

  it("sorts by name descending when asked", async () => {
    const { items } = await listAll("search=r&sortBy=name&sortDirection=DESC", 2);
    const sorted = [...items]
      .map((r) => r.name.toLowerCase())
      .sort()
      .reverse();
    expect(items.map((r) => r.name.toLowerCase())).toEqual(sorted);
  });

  it("refuses bad paging values with 400", async () => {
    for (const q of [
      "first=0",
      "first=-1",
      "first=ten",
      "after=garbage",
      "sortBy=color",
      "sortDirection=UP",
    ]) {
      const answer = await call(sandbox.url, `/api/v1/deployments/1/reports?${q}`);
      expect(answer.status, q).toBe(400);
    }
  });

  it("refuses a well-formed cursor it did not issue, and one issued by another run of the sandbox", async () => {
    const path = "/api/v1/deployments/1/reports";
    const issued = (await call(sandbox.url, `${path}?first=2`)).json.pageInfo.endCursor as string;
    expect((await call(sandbox.url, `${path}?after=${encodeURIComponent(issued)}`)).status).toBe(200);
    // The shape of a cursor this sandbox gives out, made by hand: skipping to any report.
    const forged = Buffer.from(JSON.stringify({ k: 1100, id: 1100 })).toString("base64url");
    expect((await call(sandbox.url, `${path}?after=${forged}`)).status).toBe(400);
    // The issued one with a byte changed.
    const last = issued.at(-1) === "A" ? "B" : "A";
    expect((await call(sandbox.url, `${path}?after=${issued.slice(0, -1)}${last}`)).status).toBe(400);
    // Another sandbox process has its own secret: its cursors mean nothing here.
    const other = await spawnSandbox(seedWith(reports));
    try {
      expect((await call(other.url, `${path}?after=${encodeURIComponent(issued)}`)).status).toBe(400);
    } finally {
      await other.stop();
    }
  });

  it("an empty page has no cursor", async () => {
    const answer = await call(sandbox.url, "/api/v1/deployments/2/reports");
    expect(answer.json).toEqual({ items: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it("GET one report returns it whole, each placement's syncStatus as its checksums say (UNKNOWN without one)", async () => {
    const answer = await call(sandbox.url, reportPath(10));
    expect(answer.status).toBe(200);
    const seeded = reports.find((r) => r.id === 10)!;
    expect(answer.json).toEqual({
      ...seeded,
      externalWorkbookPlacements: seeded.externalWorkbookPlacements!.map((p) => ({
        ...p,
        syncStatus: "UNKNOWN",
      })),
    });
  });
});
