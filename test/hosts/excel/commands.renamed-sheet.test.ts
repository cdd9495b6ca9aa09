/**
 * "Disconnect report here" from the cell's right-click menu on a tab renamed since the report was
 * placed: the outcome names the sheet as it is called now (matched by sheet id), not the name the
 * service stored.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fetchTransport } from "../../../src/core/transport.js";
import { type CommandOutcome, createDisconnectHereCommand } from "../../../src/hosts/excel/commands.js";
import { mockedExcelHost } from "../../support/excel-mock.js";
import { KEY, makeReport, placement, seedWith, WB } from "../../support/sandbox-fixtures.js";
import { type SpawnedSandbox, spawnSandbox } from "../../support/spawn-sandbox.js";

const REGIONS = { id: "{00000000-0001-0000-0200-000000000000}", name: "Regions" };

describe("Disconnect report here on a renamed tab, with no pane listening", () => {
  let sandbox: SpawnedSandbox;
  beforeAll(async () => {
    // Placed on "Regional", the tab that is now called "Regions" (same sheet id).
    sandbox = await spawnSandbox(
      seedWith([makeReport(1, [placement("Regional", "B2", { endResultCell: "G30", sheetId: REGIONS.id })])]),
    );
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("names the placement by the sheet's current name", async () => {
    const { host } = mockedExcelHost(
      { storedWorkbookId: WB, sheets: [REGIONS], active: 0, activeAddress: "Regions!C3" },
      { transport: fetchTransport(fetch) },
    );
    await host.platform.saveSettings({ tenantUrl: sandbox.url, apiKey: KEY, deploymentId: 1 });
    const notified: CommandOutcome[] = [];
    const command = createDisconnectHereCommand({
      host,
      notify: (o) => {
        notified.push(o);
      },
      listenerWaitMs: 0,
    });
    const event = { completed: vi.fn() };
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
    expect(notified).toEqual([
      { ok: true, message: "Disconnected Report 1 from Regions!B2:G30; the cells keep their values." },
    ]);
  });
});
