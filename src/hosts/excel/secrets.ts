/**
 * Per-user settings and keys in Excel. Never `Office.context.document.settings` and never a custom
 * document property: both are saved inside the workbook and travel with every copy of the file.
 *
 * - Shared runtime: `OfficeRuntime.storage`, the add-in's own store on this computer (per add-in
 *   origin, per user).
 * - Otherwise: `localStorage`, partitioned with `Office.context.partitionKey` where Office gives
 *   one (Office on the web and new Outlook partition storage per top-level origin).
 */
import { createLocalStorageSecretStore } from "../direct-gateway.js";
import type { SecretStore } from "../host.js";
import type { OfficeRuntimeStorage } from "./office.js";

/** Every key is stored under this prefix, so the add-in's entries are recognisable. */
export const SECRET_PREFIX = "reporting-platform/";

export function createExcelSecretStore(options: {
  runtimeStorage?: OfficeRuntimeStorage | null;
  partitionKey?: string | null;
  localStorage?: Storage | null;
}): SecretStore {
  const { runtimeStorage } = options;
  if (runtimeStorage) {
    return {
      get: (key) => runtimeStorage.getItem(SECRET_PREFIX + key).then((v) => v ?? null),
      set: (key, value) => runtimeStorage.setItem(SECRET_PREFIX + key, value),
      remove: (key) => runtimeStorage.removeItem(SECRET_PREFIX + key),
    };
  }
  const storage = options.localStorage ?? (globalThis as { localStorage?: Storage }).localStorage;
  if (!storage) throw new Error("No per-user storage is available in this Office host.");
  return createLocalStorageSecretStore(`${options.partitionKey ?? ""}${SECRET_PREFIX}`, storage);
}
