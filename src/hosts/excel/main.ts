/**
 * The Excel task pane page. With the shared runtime it is also the FunctionFile, so the right-click
 * command reaches the same host (and so the same pane) as the ribbon. The command is associated
 * earlier, by early.ts (a separate, tiny script that runs before this module has loaded); here it
 * gets its handler, and any right-click that arrived meanwhile runs.
 *
 * What the first screen does not run is loaded apart, started here at once so that it is there
 * when first needed: the relaying transport (with the service's fetch) and the command's code.
 */
import { mountTaskPane } from "../../../taskpane/mount.js";
import type { Transport } from "../../core/transport.js";
import { loadDirectGatewayCode, SETTINGS_KEY } from "../direct-gateway.js";
import type { SecretStore } from "../host.js";
import type { CommandOutcome } from "./commands.js";
import { disconnectHereEarly } from "./early-command.js";
import { createExcelHost } from "./host.js";
import { type CommandEvent, officeGlobals } from "./office.js";
import { createExcelSecretStore } from "./secrets.js";

const START_FAILED = "The Reports pane could not start. Close it and open it again.";

function showNotice(outcome: CommandOutcome) {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = outcome.message;
  notice.dataset.ok = String(outcome.ok);
  notice.hidden = false;
}

/** A value loaded once by `load`, asked for again after a failure. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () => {
    if (!value) {
      const loading = load();
      value = loading;
      loading.catch(() => {
        if (value === loading) value = null;
      });
    }
    return value;
  };
}

/**
 * The add-in server says (config.json beside the page) which tenants to reach through its relay:
 * relay-transport.ts, loaded apart; each request waits for it. Both config.json and the chunk are
 * asked for when this module runs, before Office is ready, so the first request waits for neither.
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

// What the first list waits for, started now rather than once Office is ready: the service's
// transport with the add-in server's config, and the gateway's code (settings rules, client) with
// the chunks this build splits it into (schemas, messages, zod), all in one wave rather than one
// level of imports after another.
const { transport, relayed } = relayingTransport();
for (const load of [
  loadDirectGatewayCode,
  () => import("../../core/schema.js"),
  () => import("../../core/messages.js"),
  () => import("../../core/zod.js"),
])
  void load().catch(() => undefined);

Office.onReady(() => {
  const root = document.getElementById("root")!;
  const { runtimeStorage } = officeGlobals();
  const store = createExcelSecretStore({ runtimeStorage, partitionKey: Office.context.partitionKey ?? null });
  void preconnectToTenant(store, relayed).catch(() => undefined);
  const host = createExcelHost({ transport, store });
  const showTaskpane = () => Office.addin.showAsTaskpane();

  // Ready before the pane mounts: the command waits a moment for the pane's listener, then does the
  // work itself if no pane answers. Its code (commands.ts) loads apart; commands that arrive
  // meanwhile wait for it, in order.
  const command = once(async () => {
    const { createDisconnectHereCommand } = await import("./commands.js");
    return createDisconnectHereCommand({
      host,
      showTaskpane,
      async notify(outcome) {
        showNotice(outcome);
        await showTaskpane().catch(() => undefined);
      },
    });
  });
  void command().catch(() => undefined);
  disconnectHereEarly.ready((event: CommandEvent) => {
    command().then(
      (run) => void run(event),
      () => {
        showNotice({ ok: false, message: START_FAILED });
        event.completed();
      },
    );
  });

  try {
    mountTaskPane(root, host);
  } catch {
    showNotice({ ok: false, message: START_FAILED });
  }
});
