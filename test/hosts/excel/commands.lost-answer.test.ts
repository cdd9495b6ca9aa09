/**
 * "Disconnect report here" doing the work itself (no pane listening) when the service's answer is
 * lost (a time-out, a broken connection, a 5xx other than 503): the disconnect may still have been
 * applied, so the command reloads this workbook's reports and says what they now show, as the pane
 * does, rather than "did not answer" over a placement that is in fact gone.
 */
import { describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../../src/core/errors.js";
import type { Report } from "../../../src/core/schema.js";
import type { DirectGateway } from "../../../src/hosts/direct-gateway.js";
import { type CommandOutcome, createDisconnectHereCommand } from "../../../src/hosts/excel/commands.js";
import { mockedExcelHost } from "../../support/excel-mock.js";
import { makeReport, placement, WB } from "../../support/sandbox-fixtures.js";

const SALES_ID = "{00000000-0001-0000-0000-000000000000}";
const TIMED_OUT = new PlatformError(
  "timeout",
  "The Reporting Platform did not answer within 30 s. Try again in a moment.",
);

/**
 * A gateway whose disconnect fails with `error` after doing (`applied`) or not doing the work; the
 * list reload after it fails too when `reloadFails`.
 */
function losingGateway(reports: Report[], options: { applied: boolean; reloadFails?: boolean }) {
  let current = reports;
  const calls = { lists: 0, disconnects: 0 };
  const gateway = {
    async listWorkbookReports() {
      calls.lists += 1;
      if (calls.lists > 1 && options.reloadFails)
        throw new PlatformError("network", "The tenant cannot be reached.");
      return { reports: current, problems: [] };
    },
    async disconnect(_deploymentId: number, reportId: number) {
      calls.disconnects += 1;
      if (options.applied) {
        current = current.map((r) => (r.id === reportId ? { ...r, externalWorkbookPlacements: [] } : r));
      }
      throw TIMED_OUT;
    },
  } as unknown as DirectGateway;
  return { gateway, calls };
}

async function rightClick(
  gateway: DirectGateway,
): Promise<{ notified: CommandOutcome[]; completed: number }> {
  const { host } = mockedExcelHost({ storedWorkbookId: WB, activeAddress: "Sales!C3" }, { gateway });
  const notified: CommandOutcome[] = [];
  const command = createDisconnectHereCommand({
    host,
    notify: (o) => void notified.push(o),
    listenerWaitMs: 0,
  });
  const event = { completed: vi.fn() };
  await command(event);
  return { notified, completed: event.completed.mock.calls.length };
}

const placed = () => [makeReport(1, [placement("Sales", "B2", { endResultCell: "D5", sheetId: SALES_ID })])];

describe("a right-click whose disconnect answer is lost, with no pane listening", () => {
  it("reloads the list; the placement is gone, so it says the disconnect was applied", async () => {
    const { gateway, calls } = losingGateway(placed(), { applied: true });
    const { notified, completed } = await rightClick(gateway);
    expect(calls).toEqual({ lists: 2, disconnects: 1 });
    expect(completed).toBe(1);
    expect(notified).toEqual([
      {
        ok: true,
        message:
          "The Reporting Platform did not answer within 30 s. The list was reloaded: Report 1 is no longer at Sales!B2:D5, so the disconnect was applied; the cells keep their values.",
      },
    ]);
  });

  it("reloads the list; the placement is still there, so it says nothing was disconnected", async () => {
    const { gateway, calls } = losingGateway(placed(), { applied: false });
    const { notified } = await rightClick(gateway);
    expect(calls).toEqual({ lists: 2, disconnects: 1 });
    expect(notified).toHaveLength(1);
    expect(notified[0]!.ok).toBe(false);
    expect(notified[0]!.message).toContain(
      "Report 1 is still at Sales!B2:D5, so nothing was disconnected. Try again.",
    );
  });

  it("when the reload fails too, says the disconnect may have been applied and how to see", async () => {
    const { gateway } = losingGateway(placed(), { applied: true, reloadFails: true });
    const { notified, completed } = await rightClick(gateway);
    expect(completed).toBe(1);
    expect(notified).toHaveLength(1);
    expect(notified[0]!.ok).toBe(false);
    expect(notified[0]!.message).toContain("may still have been applied");
    expect(notified[0]!.message).toContain("press Reload list");
  });
});
