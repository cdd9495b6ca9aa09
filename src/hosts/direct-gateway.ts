/**
 * The PlatformGateway for hosts whose pane calls the service itself (Excel and the preview): the
 * core client and agent chat over `fetch`, with settings kept in a per-user SecretStore.
 * The implementation is in direct-gateway-impl.ts, loaded apart (see createDirectGateway).
 */
import type { RandomBytes } from "../core/chat-request.js";
import type { LoadAnswer } from "../core/data-api.js";
import type { DataEffect, DataLoadProgress } from "../core/data-client.js";
import { once } from "../core/once.js";
import type { ConnectWorkbookInput, RefreshInput, Report } from "../core/schema.js";
import type { SettingsPatch } from "../core/settings.js";
import type { Transport } from "../core/transport.js";
import type { PlatformGateway, SecretStore } from "./host.js";

/** The one key under which settings are stored, as JSON. */
export const SETTINGS_KEY = "settings";

export interface DirectGateway extends PlatformGateway {
  /** The reports placed in `workbookId`, across every page; unreadable ones reported in `problems`. */
  listWorkbookReports(workbookId: string): Promise<{ reports: Report[]; problems: string[] }>;
  /**
   * A report's rows from its deployment's data API (data rules 1-6). The data token is asked once
   * per deployment and kept in memory while the settings stay the same.
   */
  loadReportData(
    report: Report,
    options?: { signal?: AbortSignal; onProgress?: (progress: DataLoadProgress) => void },
  ): Promise<LoadAnswer>;
  /**
   * One effect of a report's load run in the refresh worker (src/hosts/prepare-result.ts): done
   * with the same data URLs, tokens and transport as `loadReportData`.
   */
  runDataEffect(
    effect: DataEffect,
    options?: {
      signal?: AbortSignal;
      onProgress?: (progress: DataLoadProgress) => void;
      /** A request's body as the bytes read, undecoded (DataResponseBytes). */
      asBytes?: boolean;
    },
  ): Promise<unknown>;
  /** Records a refresh of one placement, with the checksum of what was written. */
  recordRefresh(deploymentId: number, reportId: number, input: RefreshInput): Promise<Report>;
  /** Every report of the deployment in Settings, across every page (Place a report here). */
  listDeploymentReports(): Promise<Report[]>;
  /** One report as the service has it now. */
  getReport(deploymentId: number, reportId: number): Promise<Report>;
  /** Places a report, or corrects a placement's address. */
  connectReportToWorkbook(
    deploymentId: number,
    reportId: number,
    input: ConnectWorkbookInput,
  ): Promise<Report>;
}

export interface DirectGatewayOptions {
  store: SecretStore;
  transport?: Transport;
  /** Settings used until the user saves their own (the preview fills in the sandbox). */
  defaults?: SettingsPatch;
  /** A cryptographic random source for message ids; the Web Crypto API's by default. */
  randomBytes?: RandomBytes;
}

type Implementation = typeof import("./direct-gateway-impl.js");

/**
 * The gateway's code, loaded once (asked for again after a failure). Its chunk imports the core
 * client and the settings rules from chunks of their own (the pane's other lazy chunks share them):
 * they are asked for beside it rather than once it has arrived. A page may call this before it
 * creates its host (Excel's main.ts, before Office is ready) so that the code is there by the first
 * call; a page whose build splits the gateway's imports further warms those chunks itself.
 */
export const loadDirectGatewayCode: () => Promise<Implementation> = once(() =>
  Promise.all([
    import("./direct-gateway-impl.js"),
    import("../core/client.js"),
    import("../core/settings.js"),
  ]).then(([impl]) => impl),
);

/**
 * The gateway over `options.store` and `options.transport`. Its implementation (the core client,
 * the settings rules and zod's schemas under them) is a chunk of its own, so the pane's first
 * script does without it: it starts loading here, when the host is created (or earlier, by
 * `loadDirectGatewayCode`), in parallel with the pane's first render, and every method waits for
 * it. A chunk that failed to load is asked for again by the next call.
 */
export function createDirectGateway(options: DirectGatewayOptions): DirectGateway {
  const gateway = once(() => loadDirectGatewayCode().then((m) => m.createDirectGatewayNow(options)));
  void gateway().catch(() => undefined);
  return {
    getSettings: async () => (await gateway()).getSettings(),
    saveSettings: async (patch) => (await gateway()).saveSettings(patch),
    listDeployments: async () => (await gateway()).listDeployments(),
    listWorkbookReports: async (workbookId) => (await gateway()).listWorkbookReports(workbookId),
    loadReportData: async (report, opts) => (await gateway()).loadReportData(report, opts),
    runDataEffect: async (effect, opts) => (await gateway()).runDataEffect(effect, opts),
    recordRefresh: async (deploymentId, reportId, input) =>
      (await gateway()).recordRefresh(deploymentId, reportId, input),
    listDeploymentReports: async () => (await gateway()).listDeploymentReports(),
    getReport: async (deploymentId, reportId) => (await gateway()).getReport(deploymentId, reportId),
    connectReportToWorkbook: async (deploymentId, reportId, input) =>
      (await gateway()).connectReportToWorkbook(deploymentId, reportId, input),
    disconnect: async (deploymentId, reportId, input) =>
      (await gateway()).disconnect(deploymentId, reportId, input),
    listScimUsers: async (page) => (await gateway()).listScimUsers(page),
    ask: async (request, opts) => (await gateway()).ask(request, opts),
    abortChat: async (chatId) => (await gateway()).abortChat(chatId),
  };
}

/** A store in `localStorage` under a prefix (the preview; Excel's fallback with its partition key). */
export function createLocalStorageSecretStore(
  prefix: string,
  storage: Storage = globalThis.localStorage,
): SecretStore {
  return {
    async get(key) {
      return storage.getItem(prefix + key);
    },
    async set(key, value) {
      storage.setItem(prefix + key, value);
    },
    async remove(key) {
      storage.removeItem(prefix + key);
    },
  };
}

/** A store in memory: nothing survives a reload (tests). */
export function createMemorySecretStore(initial: Record<string, string> = {}): SecretStore & {
  readonly data: Map<string, string>;
} {
  const data = new Map(Object.entries(initial));
  return {
    data,
    async get(key) {
      return data.get(key) ?? null;
    },
    async set(key, value) {
      data.set(key, value);
    },
    async remove(key) {
      data.delete(key);
    },
  };
}
