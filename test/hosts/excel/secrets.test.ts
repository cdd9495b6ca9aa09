/**
 * Per-user secrets never travel with the workbook: not in `document.settings`, not in a custom
 * document property; `OfficeRuntime.storage` in the shared runtime, else partitioned localStorage.
 */
import { describe, expect, it } from "vitest";
import { createExcelHost, WORKBOOK_ID_PROPERTY } from "../../../src/hosts/excel/host.js";
import { createExcelSecretStore, SECRET_PREFIX } from "../../../src/hosts/excel/secrets.js";
import { createExcelMock, createMemoryStorage, createRuntimeStorage } from "../../support/excel-mock.js";

const SECRET = "sk-live-do-not-leak-0001";
const AGENT_SECRET = "ak-live-do-not-leak-0002";

describe("secrets", () => {
  it("are kept in OfficeRuntime.storage and never written into the document", async () => {
    const mock = createExcelMock({ partitionKey: "" });
    const runtimeStorage = createRuntimeStorage();
    const localStorage = createMemoryStorage();
    const host = createExcelHost({
      Excel: mock.Excel,
      Office: mock.Office,
      runtimeStorage,
      localStorage,
      window: null,
    });

    await host.activeContext(); // the one thing the document keeps: the workbook id
    await host.platform.saveSettings({
      tenantUrl: "https://tenant.example.com",
      apiKey: SECRET,
      agentApiKey: AGENT_SECRET,
      deploymentId: 3,
    });

    const stored = [...runtimeStorage.data.entries()];
    expect(stored).toHaveLength(1);
    expect(stored[0]![0]).toBe(`${SECRET_PREFIX}settings`);
    expect(stored[0]![1]).toContain(SECRET);

    expect(mock.state.documentSettingsWrites).toEqual([]);
    expect(mock.state.customWrites.map((w) => w.key)).toEqual([WORKBOOK_ID_PROPERTY]);
    const documentText = JSON.stringify([mock.state.customWrites, mock.state.documentSettingsWrites]);
    expect(documentText).not.toContain(SECRET);
    expect(documentText).not.toContain(AGENT_SECRET);
    expect(localStorage.data.size).toBe(0);

    const settings = await host.platform.getSettings();
    expect(JSON.stringify(settings)).not.toContain(SECRET);
    expect(settings).toMatchObject({ tenantUrl: "https://tenant.example.com", deploymentId: 3 });
  });

  it("fall back to localStorage under Office's partition key without the shared runtime", async () => {
    const mock = createExcelMock({ partitionKey: "https://excel.example:tenant-42/" });
    const localStorage = createMemoryStorage();
    const host = createExcelHost({
      Excel: mock.Excel,
      Office: mock.Office,
      runtimeStorage: null,
      localStorage,
      window: null,
    });
    await host.platform.saveSettings({ apiKey: SECRET });
    expect([...localStorage.data.keys()]).toEqual([
      `https://excel.example:tenant-42/${SECRET_PREFIX}settings`,
    ]);
    expect(mock.state.documentSettingsWrites).toEqual([]);
    expect(mock.state.customWrites).toEqual([]);
  });

  it("round-trip through either store", async () => {
    for (const store of [
      createExcelSecretStore({ runtimeStorage: createRuntimeStorage() }),
      createExcelSecretStore({ localStorage: createMemoryStorage(), partitionKey: "p/" }),
    ]) {
      expect(await store.get("k")).toBeNull();
      await store.set("k", "v");
      expect(await store.get("k")).toBe("v");
      await store.remove("k");
      expect(await store.get("k")).toBeNull();
    }
  });
});
