/**
 * The pane's store on its own, without React (taskpane/paneStore.ts): the first load, the first
 * frame, following the selection, a disconnect's outcome, a command from outside the pane, and
 * Reload list. The host is the pane tests' FakeHost (its service applies the sandbox's rules).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import { startFirstLoad } from "../../src/hosts/list-cache.js";
import {
  createPaneStore,
  mountedPane,
  type Notice,
  type PaneSnapshot,
  type PaneStore,
} from "../../taskpane/paneStore.js";
import { CONNECTED, ctx, deferred, FakeHost, SALES_ID } from "../support/fakeHost.js";

const detachers: (() => void)[] = [];
afterEach(() => {
  for (const detach of detachers.splice(0)) detach();
});

function open(host: FakeHost): { store: PaneStore; notices: Notice[]; detach(): void } {
  const notices: Notice[] = [];
  const store = createPaneStore(host, (notice) => notices.push(notice));
  const detach = store.attach();
  detachers.push(detach);
  return { store, notices, detach };
}

/** Resolves once the store's snapshot satisfies `check` (a positive signal, no clock). */
function until(store: PaneStore, check: (s: PaneSnapshot) => boolean): Promise<PaneSnapshot> {
  return new Promise((resolve) => {
    if (check(store.getSnapshot())) return resolve(store.getSnapshot());
    const stop = store.subscribe(() => {
      if (!check(store.getSnapshot())) return;
      stop();
      resolve(store.getSnapshot());
    });
  });
}

const ready = (s: PaneSnapshot) => s.phase === "ready" && !s.refreshing;

describe("the pane's store", () => {
  it("starts loading only when attached, then holds the workbook's list", async () => {
    const host = new FakeHost();
    const store = createPaneStore(host, () => undefined);
    expect(store.getSnapshot().phase).toBe("loading");
    expect(host.calls.loadWorkbook).toBe(0);
    detachers.push(store.attach());
    const s = await until(store, ready);
    expect(host.calls.loadWorkbook).toBe(1);
    expect(s.settings).toEqual(CONNECTED);
    expect(s.here.map((p) => p.key)).toHaveLength(4);
    expect(s.elsewhere.length).toBeGreaterThan(0);
    expect(s.current).toBeNull(); // Sales!A1 is outside every placement
    expect(s.loadError).toBeNull();
  });

  it("loads once however often it is attached (React's StrictMode attaches twice)", async () => {
    const host = new FakeHost();
    const { store, detach } = open(host);
    detach();
    detachers.push(store.attach());
    await until(store, ready);
    expect(host.calls.loadWorkbook).toBe(1);
  });

  it("shows a first load that arrived before it was created in its first snapshot, and loads nothing more", async () => {
    const host = new FakeHost();
    const first = startFirstLoad(host);
    await first.settings;
    await first.workbook();
    const store = createPaneStore(host, () => undefined);
    expect(store.getSnapshot().phase).toBe("ready");
    expect(store.getSnapshot().here).toHaveLength(4);
    detachers.push(store.attach());
    expect(host.calls.loadWorkbook).toBe(1);
  });

  it("asks for Settings first when no tenant or key is set", async () => {
    const host = new FakeHost({ settings: { ...CONNECTED, apiKeySet: false } });
    const { store, notices } = open(host);
    await until(store, (s) => s.phase === "needs-settings");
    expect(host.calls.loadWorkbook).toBe(0);
    const outcome = await store.actions.disconnectAt(ctx("Sales", "C5"));
    expect(outcome.ok).toBe(false);
    expect(notices.at(-1)).toEqual({
      intent: "warning",
      message: "The add-in is not connected yet: open Settings and enter the tenant URL and API key.",
    });
  });

  it("follows the selection: the placement under the cell, a renamed sheet renamed, an unknown one reloaded", async () => {
    const host = new FakeHost();
    const { store } = open(host);
    const loaded = await until(store, ready);
    host.select(ctx("Sales", "C5"));
    const moved = store.getSnapshot();
    expect(moved.current?.id).toBe("p-rev-sales");
    // The list did not change: its arrays keep their identity (memoised rows stay as they are).
    expect(moved.here).toBe(loaded.here);
    expect(moved.placed).toBe(loaded.placed);

    host.select({ ...ctx("Sales", "C5"), sheetName: "Sales 2026" });
    expect(store.getSnapshot().sheets.find((s) => s.id === SALES_ID)?.name).toBe("Sales 2026");
    expect(host.calls.loadWorkbook).toBe(1);

    host.select({ ...ctx("Sales", "A1"), sheetId: "sheet-new", sheetName: "Forecast" });
    await until(store, () => host.calls.loadWorkbook === 2);
    await until(store, ready);
  });

  it("gives the same snapshot object while nothing changed", async () => {
    const host = new FakeHost();
    const { store } = open(host);
    const s = await until(store, ready);
    expect(store.getSnapshot()).toBe(s);
  });

  it("disconnects the placement under the cell: busy meanwhile, then gone, said with an Undo", async () => {
    const host = new FakeHost({ holdDisconnects: true });
    const { store, notices } = open(host);
    await until(store, ready);
    const running = store.actions.disconnectAt(ctx("Sales", "C5"));
    await until(store, (s) => s.busyKeys.size === 1);
    // A second ask for the same placement joins the first: one request.
    const again = store.actions.disconnectAt(ctx("Sales", "D7"));
    await until(store, () => host.pendingDisconnects.length === 1);
    host.pendingDisconnects[0]!.resolve();
    const [outcome, second] = await Promise.all([running, again]);
    expect(outcome).toEqual(second);
    expect(outcome.ok).toBe(true);
    expect(host.calls.disconnect).toHaveLength(1);
    const s = store.getSnapshot();
    expect(s.busyKeys.size).toBe(0);
    expect(s.here.map((p) => p.id)).not.toContain("p-rev-sales");
    expect(notices.at(-1)).toMatchObject({ intent: "success", message: outcome.message });
    expect(notices.at(-1)?.action?.label).toBe("Undo");
  });

  it("says so when no report is placed at the cell, and sends nothing", async () => {
    const host = new FakeHost();
    const { store, notices } = open(host);
    await until(store, ready);
    const outcome = await store.actions.disconnectAt(ctx("Sales", "A1"));
    expect(outcome.ok).toBe(false);
    expect(notices.at(-1)).toEqual({ intent: "warning", message: outcome.message });
    expect(host.calls.disconnect).toEqual([]);
  });

  it("answers a command from outside the pane, waiting for the list when it is still loading", async () => {
    const host = new FakeHost();
    const load = deferred<void>();
    const loadWorkbook = host.loadWorkbook.bind(host);
    host.loadWorkbook = async () => {
      await load.promise;
      return loadWorkbook();
    };
    const { store } = open(host);
    const answered = host.command(ctx("Sales", "C5"));
    expect(store.getSnapshot().context).toEqual(ctx("Sales", "C5"));
    load.resolve();
    const outcome = await answered;
    expect(outcome.ok).toBe(true);
    expect(host.calls.disconnect).toHaveLength(1);
    expect(store.getSnapshot().here.map((p) => p.id)).not.toContain("p-rev-sales");
  });

  it("stops listening to the host when detached", async () => {
    const host = new FakeHost();
    const { store, detach } = open(host);
    await until(store, ready);
    detach();
    const before = store.getSnapshot();
    host.select(ctx("Sales", "C5"));
    expect(store.getSnapshot()).toBe(before);
  });

  it("reloads on Reload list, and keeps the list when that reload fails", async () => {
    const host = new FakeHost();
    const { store } = open(host);
    const first = await until(store, ready);
    await store.actions.reload();
    expect(host.calls.loadWorkbook).toBe(2);
    host.loadError = new PlatformError("network", "The service could not be reached.");
    await store.actions.reload();
    const s = store.getSnapshot();
    expect(s.phase).toBe("ready");
    expect(s.loadError).toBe("The service could not be reached.");
    expect(s.here).toHaveLength(first.here.length);
  });

  it("voids a list asked for under the old settings once they change", async () => {
    const host = new FakeHost();
    const { store } = open(host);
    await until(store, ready);
    const late = deferred<Awaited<ReturnType<FakeHost["loadWorkbook"]>>>();
    host.loadWorkbook = () => late.promise;
    const reloading = store.actions.reload();
    store.actions.applySettings({ ...CONNECTED, tenantUrl: "https://other.example.com", apiKeySet: false });
    late.resolve({ context: host.context, sheets: host.sheets, reports: [], problems: [] });
    await reloading;
    const s = store.getSnapshot();
    expect(s.phase).toBe("needs-settings");
    expect(s.refreshing).toBe(false);
    expect(s.here).toHaveLength(4);
  });
});

describe("the mounted pane, for the host's own command (Excel's right-click)", () => {
  it("is found as soon as the store is attached, and disconnects at the cell it is given", async () => {
    const host = new FakeHost();
    const notices: Notice[] = [];
    const store = createPaneStore(host, (notice) => notices.push(notice));
    const waiting = mountedPane(host, 60_000);
    detachers.push(store.attach());
    const command = await waiting;
    expect(command).not.toBeNull();
    await until(store, ready);
    const outcome = await command!(ctx("Sales", "C5"));
    expect(outcome.ok).toBe(true);
    expect(host.calls.disconnect).toHaveLength(1);
    expect(store.getSnapshot().context).toEqual(ctx("Sales", "C5"));
    expect(notices.at(-1)).toMatchObject({ intent: "success", message: outcome.message });
  });

  it("is null when no pane mounts within the wait, and once the pane is gone", async () => {
    const host = new FakeHost();
    vi.useFakeTimers();
    try {
      const waiting = mountedPane(host, 3000);
      await vi.advanceTimersByTimeAsync(3000);
      expect(await waiting).toBeNull();
      const { detach } = open(host);
      expect(await mountedPane(host, 3000)).not.toBeNull();
      detach();
      const after = mountedPane(host, 3000);
      await vi.advanceTimersByTimeAsync(3000);
      expect(await after).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
