/**
 * The relaying transport's data origins, with the page's fetch scripted: a data API request
 * (`target: "data-api"`) goes through the relay when the add-in server lists its origin, directly
 * otherwise; a refused one is never resent and names the origin to list (dataOriginNotListed); a
 * data origin is relayed data API requests only.
 */
import { describe, expect, it } from "vitest";
import { dataOriginNotListed } from "../../../src/core/errors.js";
import type { HttpRequest, Transport } from "../../../src/core/transport.js";
import { createRelayingTransport, loadRelayRoute } from "../../../src/hosts/excel/relay-transport.js";

const RELAY = "https://addin.example.com/excel/relay/";
const DATA = "https://data.example.com";

function load(origin: string): HttpRequest {
  return {
    method: "POST",
    url: `${origin}/data/1/cubejs-api/v1/load`,
    headers: { Authorization: "data-token", "Content-Type": "application/json" },
    body: "{}",
    target: "data-api",
  };
}

/** A page whose direct calls to `refusing` fail as a CORS refusal does; everything else answers 200. */
function page(refusing: string[]) {
  const asked: string[] = [];
  const direct: Transport = async (request) => {
    asked.push(`${request.method} ${request.url}`);
    if (refusing.some((origin) => request.url.startsWith(origin))) throw new TypeError("Failed to fetch");
    return { status: 200, headers: {}, body: "{}" };
  };
  return { asked, direct };
}

describe("a deployment's data origin, from the Excel pane", () => {
  it("goes through the relay from the first load when the add-in server lists it", async () => {
    const p = page([DATA]);
    const transport = createRelayingTransport({
      direct: p.direct,
      route: async () => ({ base: RELAY, tenants: [], dataOrigins: [DATA] }),
    });
    await transport(load(DATA));
    expect(p.asked).toEqual([`POST ${RELAY}data.example.com/data/1/cubejs-api/v1/load`]);
  });

  it("is called directly when it is not listed, and a refusal names it: ask your admin to list it", async () => {
    const p = page([DATA]);
    const transport = createRelayingTransport({
      direct: p.direct,
      route: async () => ({ base: RELAY, tenants: [], dataOrigins: [] }),
    });
    await expect(transport(load(DATA))).rejects.toThrow(
      `ask your admin to list ${DATA} on the add-in server`,
    );
    // The load (a POST) went once, directly, and was not resent through the relay.
    expect(p.asked).toEqual([`POST ${DATA}/data/1/cubejs-api/v1/load`]);
  });

  it("says the same on a page served without an add-in server", async () => {
    const p = page([DATA]);
    const transport = createRelayingTransport({ direct: p.direct, route: async () => null });
    await expect(transport(load(DATA))).rejects.toThrow(dataOriginNotListed(DATA).message);
  });

  it("is reached directly when it accepts the page's calls", async () => {
    const p = page([]);
    const transport = createRelayingTransport({
      direct: p.direct,
      route: async () => ({ base: RELAY, tenants: [], dataOrigins: [] }),
    });
    expect((await transport(load(DATA))).status).toBe(200);
    expect(p.asked).toEqual([`POST ${DATA}/data/1/cubejs-api/v1/load`]);
  });

  it("is relayed data API requests only: another request to that host goes directly", async () => {
    const p = page([]);
    const transport = createRelayingTransport({
      direct: p.direct,
      route: async () => ({ base: RELAY, tenants: [], dataOrigins: [DATA] }),
    });
    await transport({ method: "GET", url: `${DATA}/api/v1/deployments`, headers: {} });
    expect(p.asked).toEqual([`GET ${DATA}/api/v1/deployments`]);
  });
});

describe("config.json's data origins", () => {
  const served = (config: unknown): typeof fetch =>
    (async () => new Response(JSON.stringify(config), { status: 200 })) as typeof fetch;

  it("are read beside the tenants; an add-in server that lists none gives none", async () => {
    const page = "https://addin.example.com/excel/taskpane.html";
    expect(await loadRelayRoute(page, served({ relay: { tenants: [], dataOrigins: [DATA] } }))).toEqual({
      base: RELAY,
      tenants: [],
      dataOrigins: [DATA],
    });
    expect((await loadRelayRoute(page, served({ relay: { tenants: [] } })))?.dataOrigins).toEqual([]);
    expect(
      (await loadRelayRoute(page, served({ relay: { tenants: [], dataOrigins: [1] } })))?.dataOrigins,
    ).toEqual([]);
  });
});
