/**
 * What the Excel page starts before the pane's code has run, so that the first list does not wait
 * for it: the service's transport with the add-in server's config, the gateway's code, the host,
 * and the first screen's reads (src/hosts/list-cache.ts). early.ts, the page's early script, calls
 * `prepareExcel` as soon as it runs and `startExcel` once Office is ready; main.ts, the pane's
 * module, takes the same host from `startExcel` when it runs, whichever came first.
 */

import { once } from "../../core/once.js";
import type { Transport } from "../../core/transport.js";
import { loadDirectGatewayCode, SETTINGS_KEY } from "../direct-gateway.js";
import type { SecretStore } from "../host.js";
import { startFirstLoad } from "../list-cache.js";
import { createExcelHost, type ExcelHost } from "./host.js";
import { officeGlobals } from "./office.js";
import { createExcelSecretStore } from "./secrets.js";

/**
 * The add-in server says (config.json beside the page) which tenants to reach through its relay:
 * relay-transport.ts, loaded apart; each request waits for it. Both config.json and the chunk are
 * asked for at once, before Office is ready, so the first request waits for neither.
 */
function relayingTransport(): { transport: Transport; relayed: Promise<readonly string[] | null> } {
  const pageUrl = window.location.href;
  const config = fetch(new URL("config.json", pageUrl).href, { headers: { Accept: "application/json" } });
  // Read (and its failure handled) by loadRelayRoute; not an unhandled rejection meanwhile.
  config.catch(() => undefined);
  const route = once(async () => {
    const { loadRelayRoute } = await import("./relay-transport.js");
    return loadRelayRoute(pageUrl, () => config);
  });
  const transport = once(async () => {
    const [{ createRelayingTransport }, { fetchTransport }] = await Promise.all([
      import("./relay-transport.js"),
      import("../../core/transport.js"),
    ]);
    return createRelayingTransport({
      direct: fetchTransport((input, init) => fetch(input, init)),
      route,
    });
  });
  void transport().catch(() => undefined);
  return {
    transport: async (request) => (await transport())(request),
    relayed: route().then(
      (r) => r?.tenants ?? null,
      () => null,
    ),
  };
}

/**
 * A hint, nothing sent: once the stored tenant is known, the browser opens its connection (name,
 * TCP, TLS) while the gateway's code is still loading, so the first request to it does not. Only
 * for an HTTPS tenant the page calls itself, not one the add-in server relays.
 */
async function preconnectToTenant(store: SecretStore, relayed: Promise<readonly string[] | null>) {
  const text = await store.get(SETTINGS_KEY);
  if (!text) return;
  const tenantUrl = (JSON.parse(text) as { tenantUrl?: unknown }).tenantUrl;
  if (typeof tenantUrl !== "string" || tenantUrl === "") return;
  const tenant = new URL(tenantUrl);
  if (tenant.protocol !== "https:") return;
  if ((await relayed)?.some((origin) => new URL(origin).host === tenant.host)) return;
  const link = document.createElement("link");
  link.rel = "preconnect";
  link.href = tenant.origin;
  // The service is called without cookies: the connection for such requests.
  link.crossOrigin = "anonymous";
  document.head.append(link);
}

let prepared: ReturnType<typeof relayingTransport> | null = null;

/**
 * What needs no Office, started once: the service's transport and the add-in server's config, and
 * the gateway's code (settings rules, client). The chunks this build splits them into (schemas,
 * messages, zod) are on their way already: the page preloads them (tooling/excel/build.ts,
 * `FIRST_LIST_MODULES`), in one wave rather than one level of imports after another.
 */
export function prepareExcel(): ReturnType<typeof relayingTransport> {
  if (prepared) return prepared;
  prepared = relayingTransport();
  void loadDirectGatewayCode().catch(() => undefined);
  return prepared;
}

let started: ExcelHost | null = null;

/**
 * The page's one Excel host, made once Office is ready, with the first screen's reads started
 * (settings, the workbook, the list kept for it): they go out while the pane's code loads.
 */
export function startExcel(): ExcelHost {
  if (started) return started;
  const { transport, relayed } = prepareExcel();
  const { runtimeStorage } = officeGlobals();
  const store = createExcelSecretStore({ runtimeStorage, partitionKey: Office.context.partitionKey ?? null });
  void preconnectToTenant(store, relayed).catch(() => undefined);
  started = createExcelHost({ transport, store });
  startFirstLoad(started);
  return started;
}
