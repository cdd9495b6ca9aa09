/** The auth rules (auth rule 7: 401/403), plus 404 for unknown targets, over loopback HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGENT_KEY,
  call,
  disconnectPath,
  KEY,
  makeReport,
  placement,
  reportPath,
  SCIM_TOKEN,
  SCOPED_KEY,
  seedWith,
} from "../support/sandbox-fixtures.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

let sandbox: SpawnedSandbox;
beforeAll(async () => {
  sandbox = await spawnSandbox(
    seedWith([
      makeReport(1, [placement("Sales", "B2", { id: "p-1" }), placement("Sales", "F2", { id: "p-2" })]),
      makeReport(2, [placement("Sales", "B2", { id: "p-3" })], { deploymentId: 2 }),
    ]),
  );
});
afterAll(async () => {
  await sandbox?.stop();
});

const chatPath = (agent: string) => `/api/v1/public/sandbox/agents/${agent}/chat/stream-chat-state`;
const chatBody = { input: "hello", sessionSettings: { externalId: "ann" } };

function expectMessage(answer: { json: { message?: unknown } }) {
  expect(typeof answer.json?.message).toBe("string");
  expect(answer.json.message).not.toContain(KEY);
}

describe("auth rules 2-3: the management API takes Authorization: Bearer <API key>", () => {
  it("2. Bearer with an API key is accepted", async () => {
    const answer = await call(sandbox.url, "/api/v1/deployments");
    expect(answer.status).toBe(200);
    expect(answer.json.items.map((d: { id: number }) => d.id)).toEqual([1, 2]);
  });

  it("7. 401 means the credential is missing, malformed or expired", async () => {
    for (const auth of [
      null,
      "Bearer",
      "Bearer a b",
      "Basic Zm9vOmJhcg==",
      `Api-Key ${KEY}`,
      "Bearer sk-unknown",
    ]) {
      const answer = await call(sandbox.url, reportPath(1), { auth });
      expect(answer.status, String(auth)).toBe(401);
      expectMessage(answer);
    }
  });

  it("the build API (/build/api/v1) is authenticated like the management API, then 404", async () => {
    expect((await call(sandbox.url, "/build/api/v1/branches", { auth: null })).status).toBe(401);
    expect((await call(sandbox.url, "/build/api/v1/branches", { auth: `Api-Key ${KEY}` })).status).toBe(401);
    const answer = await call(sandbox.url, "/build/api/v1/branches");
    expect(answer.status).toBe(404);
    expectMessage(answer);
  });

  it("4. a scoped key authorizes requests only for its deployments; outside the scope 403", async () => {
    const auth = `Bearer ${SCOPED_KEY}`;
    expect((await call(sandbox.url, reportPath(1), { auth })).status).toBe(200);
    const list = await call(sandbox.url, "/api/v1/deployments/2/reports", { auth });
    expect(list.status).toBe(403);
    expect(list.json.message).toMatch(/deployment 2/);
    expect((await call(sandbox.url, reportPath(2, 2), { auth })).status).toBe(403);
    const del = await call(sandbox.url, disconnectPath(2, 2), {
      auth,
      method: "DELETE",
      body: { placementId: "p-3" },
    });
    expect(del.status).toBe(403);
    // The 403 changed nothing.
    expect((await call(sandbox.url, reportPath(2, 2))).json.externalWorkbookPlacements).toHaveLength(1);
    // The scoped key lists only the deployments it covers.
    expect((await call(sandbox.url, "/api/v1/deployments", { auth })).json.items).toEqual([
      { id: 1, name: "Production" },
    ]);
  });

  it("4. an unscoped key (all deployments) authorizes every deployment", async () => {
    expect((await call(sandbox.url, reportPath(2, 2))).status).toBe(200);
  });

  it("read access to the report is enough to disconnect: a scoped key for its deployment may unplace", async () => {
    const answer = await call(sandbox.url, disconnectPath(1), {
      auth: `Bearer ${SCOPED_KEY}`,
      method: "DELETE",
      body: { placementId: "p-2" },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.externalWorkbookPlacements.map((p: { id: string }) => p.id)).toEqual(["p-1"]);
  });

  it("a SCIM token or an agent-only key is a valid credential not authorized for the management API: 403", async () => {
    expect((await call(sandbox.url, "/api/v1/deployments", { auth: `Bearer ${SCIM_TOKEN}` })).status).toBe(
      403,
    );
    expect((await call(sandbox.url, "/api/v1/deployments", { auth: `Bearer ${AGENT_KEY}` })).status).toBe(
      403,
    );
  });

  it("unknown deployment, report or path: 404 with a message", async () => {
    for (const path of [
      "/api/v1/deployments/99/reports",
      reportPath(99),
      reportPath(2, 1), // report 2 lives in deployment 2
      disconnectPath(99),
      "/api/v1/nothing-here",
    ]) {
      const answer = await call(sandbox.url, path, {
        method: path.endsWith("connect-workbook") ? "DELETE" : "GET",
      });
      expect(answer.status, path).toBe(404);
      expectMessage(answer);
    }
  });

  it("the credential is checked before anything else about the request (401 before 404)", async () => {
    expect((await call(sandbox.url, reportPath(99), { auth: null })).status).toBe(401);
  });
});

describe("auth rule 5: SCIM takes Bearer or Api-Key with a SCIM token", () => {
  it("accepts both prefixes", async () => {
    for (const auth of [`Bearer ${SCIM_TOKEN}`, `Api-Key ${SCIM_TOKEN}`, `api-key ${SCIM_TOKEN}`]) {
      expect((await call(sandbox.url, "/api/scim/v2/Users", { auth })).status, auth).toBe(200);
    }
  });

  it("an API key that is not a SCIM token gets 403; a missing or unknown one 401", async () => {
    const forbidden = await call(sandbox.url, "/api/scim/v2/Users", { auth: `Bearer ${KEY}` });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
    expectMessage(forbidden);
    expect((await call(sandbox.url, "/api/scim/v2/Users", { auth: null })).status).toBe(401);
    expect((await call(sandbox.url, "/api/scim/v2/Users", { auth: "Bearer scim-nope" })).status).toBe(401);
    expect((await call(sandbox.url, "/api/scim/v2/Users", { auth: `Token ${SCIM_TOKEN}` })).status).toBe(401);
  });
});

describe("auth rule 6: the agent chat takes Authorization: Api-Key with a key that has access to the agent", () => {
  it("Api-Key with a key the agent lists is accepted", async () => {
    const answer = await call(sandbox.url, chatPath("sales-agent"), {
      method: "POST",
      auth: `Api-Key ${AGENT_KEY}`,
      body: chatBody,
    });
    expect(answer.status).toBe(200);
  });

  it("Bearer is a malformed credential there (401), as are a missing or unknown key", async () => {
    for (const auth of [`Bearer ${AGENT_KEY}`, null, "Api-Key ak-unknown"]) {
      const answer = await call(sandbox.url, chatPath("sales-agent"), {
        method: "POST",
        auth,
        body: chatBody,
      });
      expect(answer.status, String(auth)).toBe(401);
      expectMessage(answer);
    }
  });

  it("a known key the agent does not list, or one scoped to other deployments, is 403", async () => {
    // SCOPED_KEY (deployment 1) is not listed by sales-agent.
    const notListed = await call(sandbox.url, chatPath("sales-agent"), {
      method: "POST",
      auth: `Api-Key ${SCOPED_KEY}`,
      body: chatBody,
    });
    expect(notListed.status).toBe(403);
    // ops-agent lists SCOPED_KEY, but the agent is in deployment 2, outside the key's scope.
    const scoped = await call(sandbox.url, chatPath("ops-agent"), {
      method: "POST",
      auth: `Api-Key ${SCOPED_KEY}`,
      body: chatBody,
    });
    expect(scoped.status).toBe(403);
  });

  it("an unknown agent is 404", async () => {
    const answer = await call(sandbox.url, chatPath("no-such-agent"), {
      method: "POST",
      auth: `Api-Key ${AGENT_KEY}`,
      body: chatBody,
    });
    expect(answer.status).toBe(404);
    expectMessage(answer);
  });
});
