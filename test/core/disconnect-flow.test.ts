import { describe, expect, it } from "vitest";
import {
  type DisconnectRequest,
  type DisconnectResult,
  disconnectOutcome,
  disconnectProgram,
  type PlacedReport,
  PlatformError,
  placedReports,
  type Report,
  runDisconnect,
  runDisconnectSync,
  toDisconnectInput,
} from "../../src/core/index.js";
import { fullReport, revenueInTwoWorkbooks } from "./fixtures.js";

const report = revenueInTwoWorkbooks();
const gone: Report = { ...report, externalWorkbookPlacements: report.externalWorkbookPlacements!.slice(1) };
const another = fullReport({ id: 999, name: "Head count", externalWorkbookPlacements: [] });
const [p1] = placedReports([report]) as [PlacedReport];
const inP1 = { workbookId: "wb-1", sheetId: "s1", sheetName: "Sales", cell: "C4" };
const timeout = () => new PlatformError("timeout", "The service did not answer within 30 s. Try again.");
const refused = () => new PlatformError("unauthorized", "The API key was refused (401).", { status: 401 });

/** What a host answers: each effect's answer, or an error it throws. */
interface Script {
  list?: Report[] | Error;
  disconnect?: Report | Error;
  reload?: Report[] | Error;
}

type Step = string;

/** The same script through both runners, each call logged; the sheets are the active one, renamed. */
function runBoth(request: DisconnectRequest, script: Script) {
  const sheets = [{ id: "s1", name: "Sales" }];
  const make = () => {
    const log: Step[] = [];
    let listed = 0;
    const answer = <T>(value: T | Error | undefined, what: string): T => {
      if (value === undefined) throw new Error(`no ${what} expected`);
      if (value instanceof Error) throw value;
      return value;
    };
    return {
      log,
      listReports: (): Report[] => {
        // The first read plans (when no list is in hand); a later one is the reload.
        const first = listed++ === 0 && "at" in request && !request.placed;
        log.push(first ? "list" : "reload");
        return answer(first ? script.list : script.reload, first ? "list" : "reload");
      },
      disconnect: (p: PlacedReport, input: unknown): Report => {
        log.push(`disconnect ${p.key} ${JSON.stringify(input)}`);
        return answer(script.disconnect, "disconnect");
      },
      sheets: () => {
        log.push("sheets");
        return sheets;
      },
    };
  };
  const sync = make();
  const syncResult = runDisconnectSync(request, sync);
  const async = make();
  const asyncResult = runDisconnect(request, {
    listReports: async () => async.listReports(),
    disconnect: async (p, input) => async.disconnect(p, input),
    sheets: async () => async.sheets(),
  });
  return asyncResult.then((a) => {
    // The two runners agree: the same calls in the same order, the same result.
    expect(a).toEqual(syncResult);
    expect(async.log).toEqual(sync.log);
    return { result: syncResult, log: sync.log };
  });
}

const failure = (e: unknown) => `failed: ${(e as Error).message}`;

describe("Disconnect report here as one flow, through the async and the sync runner", () => {
  it("the service answers without the placement: disconnected, Undo on offer", async () => {
    const { result, log } = await runBoth({ at: inP1 }, { list: [report], disconnect: gone });
    expect(log).toEqual(["list", `disconnect ${p1.key} {"placementId":"p1"}`, "sheets"]);
    expect(result).toMatchObject({ status: "answered", placement: p1, returned: gone });
    expect(disconnectOutcome(result, failure)).toEqual({
      ok: true,
      message: "Disconnected Revenue by region from Sales!B2:F20; the cells keep their values.",
    });
  });

  it("the service keeps the placement: not disconnected", async () => {
    const { result } = await runBoth({ at: inP1 }, { list: [report], disconnect: report });
    expect(result.status).toBe("answered");
    expect(disconnectOutcome(result, failure)).toEqual({
      ok: false,
      message:
        "The service kept Revenue by region at Sales!B2:F20: it did not recognise the placement. Press Reload list and try again.",
    });
  });

  it("another report answered: nothing is proven", async () => {
    const { result } = await runBoth({ at: inP1 }, { list: [report], disconnect: another });
    expect(result).toMatchObject({ status: "answered", returned: another });
    const outcome = disconnectOutcome(result, failure);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/answered with another report \(Head count, id 999\)/);
  });

  it("a time-out, then the reloaded list shows the placement gone: applied", async () => {
    const { result, log } = await runBoth(
      { at: inP1 },
      { list: [report], disconnect: timeout(), reload: [gone] },
    );
    expect(log).toEqual(["list", `disconnect ${p1.key} {"placementId":"p1"}`, "reload", "sheets"]);
    expect(result).toMatchObject({ status: "reloaded", reports: [gone], error: { kind: "timeout" } });
    expect(disconnectOutcome(result, failure)).toEqual({
      ok: true,
      message:
        "The service did not answer within 30 s. The list was reloaded: Revenue by region is no longer at Sales!B2:F20, so the disconnect was applied; the cells keep their values.",
    });
  });

  it("a time-out, then the reloaded list still shows it: nothing was disconnected", async () => {
    const { result } = await runBoth(
      { at: inP1 },
      { list: [report], disconnect: timeout(), reload: [report] },
    );
    expect(result.status).toBe("reloaded");
    const outcome = disconnectOutcome(result, failure);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/is still at Sales!B2:F20, so nothing was disconnected. Try again\.$/);
  });

  it("a time-out, then the reload fails too: it may have been applied", async () => {
    const { result, log } = await runBoth(
      { at: inP1 },
      { list: [report], disconnect: timeout(), reload: new PlatformError("network", "Could not reach x.") },
    );
    expect(log).toEqual(["list", `disconnect ${p1.key} {"placementId":"p1"}`, "reload", "sheets"]);
    expect(result).toMatchObject({ status: "reloaded", reports: null });
    const outcome = disconnectOutcome(result, failure);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/may still have been applied, and the list could not be reloaded/);
  });

  it("a 401 cannot have been applied: no reload, the host words the failure", async () => {
    const { result, log } = await runBoth({ at: inP1 }, { list: [report], disconnect: refused() });
    expect(log).toEqual(["list", `disconnect ${p1.key} {"placementId":"p1"}`]);
    expect(result).toMatchObject({ status: "failed", placement: p1, error: { kind: "unauthorized" } });
    expect(disconnectOutcome(result, failure)).toEqual({
      ok: false,
      message: "failed: The API key was refused (401).",
    });
  });

  it("an error that is not the service's is a failure, not a reason to reload", async () => {
    const { result, log } = await runBoth(
      { at: inP1 },
      { list: [report], disconnect: new TypeError("boom") },
    );
    expect(log).toHaveLength(2);
    expect(result).toMatchObject({ status: "failed", placement: p1 });
  });

  it("nothing under the cell: nothing is sent", async () => {
    const { result, log } = await runBoth({ at: { ...inP1, cell: "H30" } }, { list: [report] });
    expect(log).toEqual(["list"]);
    expect(result).toEqual({
      status: "nothing-here",
      placement: null,
      outcome: {
        ok: false,
        message: "No report is placed at Sales!H30. Select a cell inside a placed report, then try again.",
      },
    });
  });

  it("the list to plan with cannot be read: nothing is sent", async () => {
    const { result, log } = await runBoth({ at: inP1 }, { list: refused() });
    expect(log).toEqual(["list"]);
    expect(result).toMatchObject({ status: "failed", placement: null, input: null });
  });

  it("plans against the list in hand, without reading it again", async () => {
    const { result, log } = await runBoth(
      { at: inP1, placed: placedReports([report]) },
      { disconnect: gone },
    );
    expect(log).toEqual([`disconnect ${p1.key} {"placementId":"p1"}`, "sheets"]);
    expect(result.status).toBe("answered");
  });

  it("disconnects a placement chosen from the list with its own input", async () => {
    const input = toDisconnectInput(p1);
    const { result, log } = await runBoth(
      { placement: p1, input },
      { disconnect: timeout(), reload: [gone] },
    );
    expect(log).toEqual([`disconnect ${p1.key} {"placementId":"p1"}`, "reload", "sheets"]);
    expect(result).toMatchObject({ status: "reloaded", placement: p1, input, outcome: { ok: true } });
  });

  it("names the sheet as the host says it is called now", async () => {
    const program = disconnectProgram({ placement: p1, input: { placementId: "p1" } });
    expect(program.next().value).toEqual({ type: "disconnect", placement: p1, input: { placementId: "p1" } });
    expect(program.next(gone).value).toEqual({ type: "sheets" });
    const done = program.next([{ id: "s1", name: "Sales 2026" }]);
    expect(done.done).toBe(true);
    expect((done.value as DisconnectResult & { status: "answered" }).outcome.message).toBe(
      "Disconnected Revenue by region from 'Sales 2026'!B2:F20; the cells keep their values.",
    );
  });
});
