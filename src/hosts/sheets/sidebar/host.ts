/**
 * The Google Sheets host, as the sidebar sees it. The sidebar cannot read the sheet or call the
 * service itself: every method is one `google.script.run` call to the Apps Script server (see
 * ../server/main.ts), which holds the API key. One call per user action: a list reload is
 * `refreshPane` (context, sheets and reports together), a disconnect is `disconnectPlacement`; a
 * Refresh of cells is one `refreshPlacementsStep` per execution it needs (./refresh.ts), a place one
 * `placeReportStep` per execution, and a hand-edit check one `readCells` per slice (./place.ts).
 *
 * Sheets tells a sidebar nothing when the selection moves, so the host polls `getActiveContext`,
 * only while someone listens and the sidebar is visible, and notifies only when something changed.
 * Each poll is one execution and one property read, which count against Apps Script's daily quotas
 * (50,000 property reads a day on a consumer account), so the poll backs off while nothing changes:
 * every 1.5 s after a user action or a change, rising by half each quiet poll to 10 s; at once
 * when the sidebar gets focus or comes back into view. The same call answers the workbook's
 * revision (see server/revision.ts):
 * when it differs from the one the pane's last refresh reflected (a sheet added, renamed or
 * removed, a report disconnected from the add-on menu), `onWorkbookChanged` listeners are told, and
 * the pane reloads. Still one server call per poll.
 */
import type { AgentAnswer } from "../../../core/chat-request.js";
import { isPlatformError, PlatformError } from "../../../core/errors.js";
import { newMessageId as coreMessageId } from "../../../core/message-id.js";
import type { ActiveContext, PlatformGateway, SpreadsheetHost } from "../../host.js";
import { createListenerGroup, globalTimers, type Timers } from "../../listeners.js";
import { callServer, type ServerCall } from "./bridge.js";

export type { Timers };

export interface SheetsHostOptions {
  /** The poll interval right after a user action or a change (default 1.5 s). */
  pollMs?: number;
  /** The interval a quiet poll rises to (default 10 s). */
  idlePollMs?: number;
  /** The page (tests pass a fake); defaults to the global document. */
  document?: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener">;
  /** Where focus and blur come from (the sidebar's window); null for none. */
  window?: Pick<Window, "addEventListener" | "removeEventListener"> | null;
  /** The timers to poll with (the bench drives a virtual clock); the global ones by default. */
  timers?: Timers;
}

/** After a failed poll the interval doubles, up to this: the server may be unreachable for a while. */
const MAX_POLL_MS = 30_000;
/** Each quiet poll waits this much longer than the one before, up to the idle interval. */
const QUIET_GROWTH = 1.5;

/**
 * platform-api.md's messageId (`^\d{13,}-message$`): the millisecond, then random digits from the
 * sidebar's cryptographic source, so that two never collide and none can be guessed.
 */
function newMessageId(): string {
  return coreMessageId(Date.now(), (length) => crypto.getRandomValues(new Uint8Array(length)));
}

function sameContext(a: ActiveContext | null, b: ActiveContext): boolean {
  return (
    a !== null &&
    a.workbookId === b.workbookId &&
    a.workbookName === b.workbookName &&
    a.sheetId === b.sheetId &&
    a.sheetName === b.sheetName &&
    a.cell === b.cell
  );
}

function stoppedByUser(): PlatformError {
  return new PlatformError("aborted", "You stopped the answer. Ask again when you are ready.");
}

export function createSheetsHost(
  run: ServerCall = callServer,
  options: SheetsHostOptions = {},
): SpreadsheetHost {
  const pollMs = options.pollMs ?? 1500;
  const idlePollMs = Math.max(pollMs, options.idlePollMs ?? 10_000);
  const doc = options.document ?? globalThis.document;
  const win = options.window === undefined ? (globalThis.window ?? null) : options.window;
  const timers = options.timers ?? globalTimers;
  // The poll runs while anyone listens, to either kind of change.
  const group = createListenerGroup({ start: startWatching, stop: stopWatching });
  const contextListeners = group.listeners<[ActiveContext]>();
  const workbookListeners = group.listeners<[]>();
  let lastContext: ActiveContext | null = null;
  /** The revision the pane's snapshot reflects (null: not known yet; the first poll sets it). */
  let lastRevision: string | null = null;
  /** Counts refreshes answered, so a poll that overlapped one does not compare an older revision. */
  let refreshes = 0;
  let timer: unknown = null;
  let polling = false;
  let failures = 0;
  /** Polls in a row that found nothing new: the interval grows with them. */
  let quietPolls = 0;
  /** A question that ran out of time: asked again, it carries the same messageId (see ask). */
  let timedOutAsk: { input: string; chatId: string | null; messageId: string } | null = null;

  function remember(context: ActiveContext): ActiveContext {
    lastContext = context;
    return context;
  }

  function visible(): boolean {
    return !doc || doc.visibilityState === "visible";
  }

  function listening(): boolean {
    return group.listening;
  }

  function schedule(delay: number): void {
    if (timer !== null || !listening() || !visible()) return;
    timer = timers.setTimeout(() => {
      timer = null;
      void poll();
    }, delay);
  }

  function nextDelay(): number {
    if (failures > 0) return Math.min(pollMs * 2 ** failures, MAX_POLL_MS);
    return Math.min(Math.round(pollMs * QUIET_GROWTH ** quietPolls), idlePollMs);
  }

  /** The user did something: the selection may move soon, so poll at the quick interval again. */
  function markActive(): void {
    if (quietPolls === 0) return;
    quietPolls = 0;
    if (timer !== null) {
      stop();
      schedule(pollMs);
    }
  }

  async function poll(): Promise<void> {
    if (polling || !listening() || !visible()) return;
    polling = true;
    try {
      const refreshesBefore = refreshes;
      const { context, revision } = await run("getActiveContext");
      failures = 0;
      const changed = !sameContext(lastContext, context);
      lastContext = context;
      let workbookChanged = false;
      // A refresh answered meanwhile knows better which revision the pane shows.
      if (refreshes === refreshesBefore) {
        workbookChanged = lastRevision !== null && revision !== lastRevision;
        lastRevision = revision;
      }
      quietPolls = changed || workbookChanged ? 0 : quietPolls + 1;
      if (changed) contextListeners.notify(context);
      if (workbookChanged) workbookListeners.notify();
    } catch {
      // A failed poll is not the user's action: try again later, less often.
      failures += 1;
    } finally {
      polling = false;
    }
    schedule(nextDelay());
  }

  function startWatching(): void {
    doc?.addEventListener("visibilitychange", onVisibilityChange);
    win?.addEventListener("focus", onFocus);
    win?.addEventListener("blur", onBlur);
    quietPolls = 0;
    schedule(pollMs);
  }

  function stopWatching(): void {
    doc?.removeEventListener("visibilitychange", onVisibilityChange);
    win?.removeEventListener("focus", onFocus);
    win?.removeEventListener("blur", onBlur);
    stop();
  }

  function stop(): void {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  }

  /** Now, and quickly after: the user may have moved while the sidebar was hidden or unfocused. */
  function pollNow(): void {
    stop();
    quietPolls = 0;
    void poll();
  }

  const onVisibilityChange = () => {
    if (visible()) pollNow();
    else stop();
  };
  const onFocus = () => pollNow();
  // The user left the sidebar for the grid: a new selection is likely.
  const onBlur = () => markActive();

  /** Every server call the pane makes comes from a user action. */
  function active<T>(call: Promise<T>): Promise<T> {
    markActive();
    return call;
  }

  const platform: PlatformGateway = {
    getSettings: () => active(run("getSettings")),
    saveSettings: (patch) => active(run("saveSettings", patch)),
    listDeployments: () => active(run("listDeployments")),
    disconnect: (deploymentId, reportId, input) =>
      active(run("disconnectPlacement", deploymentId, reportId, input)),
    connectReportToWorkbook: (deploymentId, reportId, input) =>
      active(run("connectPlacement", deploymentId, reportId, input)),
    listScimUsers: (page) => active(run("listScimUsers", page)),
    async ask(request, askOptions = {}) {
      const { signal, onMessage } = askOptions;
      if (signal?.aborted) throw stoppedByUser();
      markActive();
      const chatId = request.chatId || null;
      // The same question after a time-out: the same messageId picks up the run the service kept
      // going (platform-api.md: a messageId makes the request idempotent), with its conversation.
      const retry = timedOutAsk;
      const messageId =
        retry && retry.input === request.input && retry.chatId === chatId ? retry.messageId : newMessageId();
      timedOutAsk = null;
      const call = run("askAgent", {
        input: request.input,
        sessionSettings: request.sessionSettings,
        ...(chatId ? { chatId } : {}),
        messageId,
      });
      let answer: AgentAnswer;
      try {
        if (signal) {
          answer = await new Promise<AgentAnswer>((resolve, reject) => {
            const onAbort = () => {
              // The sidebar stops waiting at once; the late answer is discarded. The server's
              // execution is told by the request's own messageId (a first question has no
              // conversation id yet), and a known conversation's run is stopped at the service.
              run("stopAnswer", messageId).catch(() => {});
              if (chatId) run("abortChat", chatId).catch(() => {});
              reject(stoppedByUser());
            };
            signal.addEventListener("abort", onAbort, { once: true });
            call.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
          });
        } else {
          answer = await call;
        }
      } catch (error) {
        if (isPlatformError(error) && error.kind === "timeout") {
          timedOutAsk = { input: request.input, chatId, messageId };
        }
        throw error;
      }
      // The whole answer arrived at once: hand the pane its messages in order, as a stream would.
      // One growing list, not a copy per message: linear in the number of messages.
      if (onMessage) {
        const so: AgentAnswer["messages"][number][] = [];
        for (const message of answer.messages) {
          so.push(message);
          onMessage(message, so);
        }
      }
      return answer;
    },
    async abortChat(chatId) {
      await run("abortChat", chatId);
    },
  };

  return {
    kind: "sheets",
    label: "Google Sheets",
    // UrlFetchApp has no streaming: the server hands the sidebar each answer whole.
    agentAnswers: "whole",
    platform,
    async activeContext() {
      // The revision is left for the poll: taking it here would hide a change from the pane.
      const { context } = await run("getActiveContext");
      return remember(context);
    },
    async loadWorkbook() {
      const { revision, ...snapshot } = await active(run("refreshPane"));
      refreshes += 1;
      lastRevision = revision;
      remember(snapshot.context);
      return snapshot;
    },
    onContextChanged(listener) {
      return contextListeners.add(listener);
    },
    onWorkbookChanged(listener) {
      return workbookListeners.add(listener);
    },
    async selectRange(target) {
      await active(run("selectRange", target));
    },
    async refreshPlacements(items, handlers) {
      markActive();
      // The server writes the cells, in as many executions as the 6-minute limit needs; the code
      // that drives them loads with the first refresh.
      const { refreshInSheets } = await import("./refresh.js");
      return refreshInSheets(run, items, handlers, { timers });
    },
    listDeploymentReports: () => active(run("listDeploymentReports")),
    async placeReport(item, handlers) {
      markActive();
      // The server writes the cells and records the placement, in as many executions as the
      // 6-minute limit needs; the code that drives them loads with the first place.
      const { placeInSheets } = await import("./place.js");
      return placeInSheets(run, item, handlers);
    },
    async readCells(read) {
      // One call per slice of rows (server/cells.ts caps one call); loaded with the first read.
      const { readCellsInSlices } = await import("./place.js");
      return readCellsInSlices(run, read);
    },
    // Google Sheets has no cell context menu for add-ons: "Disconnect report here" is an add-on menu
    // item that runs on the server, so no command ever starts in the sidebar.
    onCommand: () => () => {},
    theme: () => "light",
    onThemeChanged: () => () => {},
  };
}
