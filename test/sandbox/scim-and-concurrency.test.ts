/** SCIM Users paging (RFC 7644 3.4.2.4) and concurrent disconnects, over loopback HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/schema.js";
import {
  call,
  disconnectPath,
  makeReport,
  placement,
  reportPath,
  SCIM_TOKEN,
  seedWith,
  WB,
} from "../support/sandbox-fixtures.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

const users = Array.from({ length: 7 }, (_, i) => ({
  id: 100 + i,
  email: `user${i}@example.com`,
  firstName: `User${i}`,
  lastName: i === 6 ? null : `Last${i}`,
  picture: null,
  ...(i === 5 ? { active: false } : {}),
}));

const bulk = makeReport(
  1,
  Array.from({ length: 200 }, (_, i) => placement("Bulk", `A${i * 10 + 1}`, { id: `p-${i}` })),
);
const same = makeReport(2, [
  placement("Sales", "B2", { id: "keep-1" }),
  placement("Sales", "D2"),
  placement("Sales", "F2"),
]);
const reports: Report[] = [bulk, same];

let sandbox: SpawnedSandbox;
beforeAll(async () => {
  sandbox = await spawnSandbox(seedWith(reports, { users }));
});
afterAll(async () => {
  await sandbox?.stop();
});

const scim = (query = "") =>
  call(sandbox.url, `/api/scim/v2/Users${query}`, { auth: `Bearer ${SCIM_TOKEN}` });

describe("GET /api/scim/v2/Users: a SCIM 2.0 ListResponse", () => {
  it("lists the seed's users as User resources", async () => {
    const answer = await scim();
    expect(answer.status).toBe(200);
    expect(answer.json.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:ListResponse"]);
    expect(answer.json).toMatchObject({ totalResults: 7, startIndex: 1, itemsPerPage: 7 });
    const first = answer.json.Resources[0];
    expect(first).toMatchObject({
      id: "100",
      userName: "user0@example.com",
      name: { givenName: "User0", familyName: "Last0" },
      emails: [{ value: "user0@example.com", primary: true }],
      active: true,
    });
    expect(answer.json.Resources[5].active).toBe(false);
  });

  it("pages with count and a 1-based startIndex", async () => {
    const ids: string[] = [];
    for (let start = 1; start <= 7; start += 3) {
      const answer = await scim(`?count=3&startIndex=${start}`);
      expect(answer.json.startIndex).toBe(start);
      expect(answer.json.totalResults).toBe(7);
      expect(answer.json.itemsPerPage).toBe(answer.json.Resources.length);
      ids.push(...answer.json.Resources.map((u: { id: string }) => u.id));
    }
    expect(ids).toEqual(users.map((u) => String(u.id)));
  });

  it("reads a startIndex below 1 as 1 and a negative count as 0", async () => {
    for (const start of ["0", "-5"]) {
      const answer = await scim(`?startIndex=${start}&count=2`);
      expect(answer.json.startIndex).toBe(1);
      expect(answer.json.Resources.map((u: { id: string }) => u.id)).toEqual(["100", "101"]);
    }
    const none = await scim("?count=-3");
    expect(none.json).toMatchObject({ totalResults: 7, itemsPerPage: 0, Resources: [] });
    const zero = await scim("?count=0");
    expect(zero.json).toMatchObject({ totalResults: 7, itemsPerPage: 0 });
  });

  it("a startIndex past the end gives an empty page with the total", async () => {
    const answer = await scim("?startIndex=50");
    expect(answer.json).toMatchObject({ totalResults: 7, startIndex: 50, itemsPerPage: 0, Resources: [] });
  });

  it("non-numeric values are 400 with a SCIM error (invalidValue) that also carries message", async () => {
    for (const q of ["?count=ten", "?startIndex=1.5", "?count=2e3"]) {
      const answer = await scim(q);
      expect(answer.status, q).toBe(400);
      expect(answer.json).toMatchObject({
        schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
        status: "400",
        scimType: "invalidValue",
      });
      expect(answer.json.detail).toBe(answer.json.message);
    }
  });
});

describe("concurrent disconnects: nothing is lost", () => {
  it("200 disconnects of different placements of one report sent at once all take effect", async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(sandbox.url, disconnectPath(1), { method: "DELETE", body: { placementId: `p-${i}` } }),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const after = await call(sandbox.url, reportPath(1));
    expect(after.json.externalWorkbookPlacements).toEqual([]);
    // Each answer is the report as it stood right after its own removal: none still holds its target.
    answers.forEach((a, i) => {
      expect(a.json.externalWorkbookPlacements.some((p: { id: string }) => p.id === `p-${i}`)).toBe(false);
    });
  });

  it("the same disconnect sent 50 times at once removes one placement once", async () => {
    const body = { externalWorkbookId: WB, sheetName: "Sales", anchorCell: "D2" };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call(sandbox.url, disconnectPath(2), { method: "DELETE", body })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const after = await call(sandbox.url, reportPath(2));
    expect(after.json.externalWorkbookPlacements.map((p: { anchorCell: string }) => p.anchorCell)).toEqual([
      "B2",
      "F2",
    ]);
  });
});
