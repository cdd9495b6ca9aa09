/**
 * The Google Sheets host, as the sidebar sees it. The sidebar cannot read the sheet or call the
 * service itself: every method is one `google.script.run` call to the Apps Script server (see
 * server.ts), which holds the API key. One call per user action: a refresh is `refreshPane`
 * (context, sheets and reports together), a disconnect is `disconnectPlacement`.
 *
 * Sheets tells a sidebar nothing when the selection moves, so the host polls `getActiveContext`
 * at a gentle interval, only while someone listens and the sidebar is visible, and notifies only
 * when something changed. The same call answers the workbook's revision (see server/revision.ts):
 * when it differs from the one the pane's last refresh reflected (a sheet added, renamed or
 * removed, a report disconnected from the add-on menu), `onWorkbookChanged` listeners are told, and
 * the pane reloads. Still one server call per poll.
 */
import type { AgentAnswer } from "../../core/chat-request.js";
import { PlatformError } from "../../core/errors.js";
import type { ActiveContext, PlatformGateway, SpreadsheetHost } from "../host.js";
import { callServer, type ServerCall } from "./bridge.js";

export interface SheetsHostOptions {
  /** How often the selection is polled while visible (default 1.5 s). */
  pollMs?: number;
  /** The page (tests pass a fake); defaults to the global document. */
  document?: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener">;
}

/** After a failed poll the interval doubles, up to this: the server may be unreachable for a while. */
const MAX_POLL_MS = 30_000;

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
  const doc = options.document ?? globalThis.document;
  const listeners = new Set<(context: ActiveContext) => void>();
  const workbookListeners = new Set<() => void>();
  let lastContext: ActiveContext | null = null;
  /** The revision the pane's snapshot reflects (null: not known yet; the first poll sets it). */
  let lastRevision: string | null = null;
  /** Counts refreshes answered, so a poll that overlapped one does not compare an older revision. */
  let refreshes = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let polling = false;
  let failures = 0;

  function remember(context: ActiveContext): ActiveContext {
    lastContext = context;
    return context;
  }

  function visible(): boolean {
    return !doc || doc.visibilityState === "visible";
  }

  function listening(): boolean {
    return listeners.size > 0 || workbookListeners.size > 0;
  }

  function schedule(delay: number): void {
    if (timer !== null || !listening() || !visible()) return;
    timer = setTimeout(() => {
      timer = null;
      void poll();
    }, delay);
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
      if (changed) for (const listener of [...listeners]) listener(context);
      if (workbookChanged) for (const listener of [...workbookListeners]) listener();
    } catch {
      // A failed poll is not the user's action: try again later, less often.
      failures += 1;
    } finally {
      polling = false;
    }
    schedule(Math.min(pollMs * 2 ** failures, MAX_POLL_MS));
  }

  function subscribe<T>(set: Set<T>, listener: T): () => void {
    const wasListening = listening();
    set.add(listener);
    if (!wasListening) {
      doc?.addEventListener("visibilitychange", onVisibilityChange);
      schedule(pollMs);
    }
    return () => {
      if (!set.delete(listener) || listening()) return;
      doc?.removeEventListener("visibilitychange", onVisibilityChange);
      stop();
    };
  }

  function stop(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  const onVisibilityChange = () => {
    if (visible()) {
      // Back in view: the user may have moved while the sidebar was hidden.
      stop();
      void poll();
    } else stop();
  };

  const platform: PlatformGateway = {
    getSettings: () => run("getSettings"),
    saveSettings: (patch) => run("saveSettings", patch),
    listDeployments: () => run("listDeployments"),
    disconnect: (deploymentId, reportId, input) => run("disconnectPlacement", deploymentId, reportId, input),
    listScimUsers: (page) => run("listScimUsers", page),
    async ask(request, askOptions = {}) {
      const { signal, onMessage } = askOptions;
      if (signal?.aborted) throw stoppedByUser();
      const call = run("askAgent", {
        input: request.input,
        sessionSettings: request.sessionSettings,
        ...(request.chatId ? { chatId: request.chatId } : {}),
      });
      let answer: AgentAnswer;
      if (signal) {
        answer = await new Promise<AgentAnswer>((resolve, reject) => {
          const onAbort = () => {
            // The server is still reading the answer in its own execution: stop the run there.
            if (request.chatId) run("abortChat", request.chatId).catch(() => {});
            reject(stoppedByUser());
          };
          signal.addEventListener("abort", onAbort, { once: true });
          call.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
        });
      } else {
        answer = await call;
      }
      // The whole answer arrived at once: hand the pane its messages in order, as a stream would.
      const so = answer.messages;
      if (onMessage) for (let i = 0; i < so.length; i++) onMessage(so[i]!, so.slice(0, i + 1));
      return answer;
    },
    async abortChat(chatId) {
      await run("abortChat", chatId);
    },
  };

  return {
    kind: "sheets",
    label: "Google Sheets",
    platform,
    async activeContext() {
      // The revision is left for the poll: taking it here would hide a change from the pane.
      const { context } = await run("getActiveContext");
      return remember(context);
    },
    async loadWorkbook() {
      const { revision, ...snapshot } = await run("refreshPane");
      refreshes += 1;
      lastRevision = revision;
      remember(snapshot.context);
      return snapshot;
    },
    onContextChanged(listener) {
      return subscribe(listeners, listener);
    },
    onWorkbookChanged(listener) {
      return subscribe(workbookListeners, listener);
    },
    async selectRange(target) {
      await run("selectRange", target);
    },
    // Google Sheets has no cell context menu for add-ons: "Disconnect report here" is an add-on menu
    // item that runs on the server, so no command ever starts in the sidebar.
    onCommand: () => () => {},
    theme: () => "light",
    onThemeChanged: () => () => {},
  };
}
