/**
 * The Google Sheets host, as the sidebar sees it. The sidebar cannot read the sheet or call the
 * service itself: every method is one `google.script.run` call to the Apps Script server (see
 * server.ts), which holds the API key. One call per user action: a refresh is `refreshPane`
 * (context, sheets and reports together), a disconnect is `disconnectPlacement`.
 *
 * Sheets tells a sidebar nothing when the selection moves, so the host polls `getActiveContext`
 * at a gentle interval, only while someone listens and the sidebar is visible, and notifies only
 * when the context changed.
 */
import type { AgentAnswer } from "../../core/chat.js";
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
  let lastContext: ActiveContext | null = null;
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

  function schedule(delay: number): void {
    if (timer !== null || listeners.size === 0 || !visible()) return;
    timer = setTimeout(() => {
      timer = null;
      void poll();
    }, delay);
  }

  async function poll(): Promise<void> {
    if (polling || listeners.size === 0 || !visible()) return;
    polling = true;
    try {
      const context = await run("getActiveContext");
      failures = 0;
      const changed = !sameContext(lastContext, context);
      lastContext = context;
      if (changed) for (const listener of [...listeners]) listener(context);
    } catch {
      // A failed poll is not the user's action: try again later, less often.
      failures += 1;
    } finally {
      polling = false;
    }
    schedule(Math.min(pollMs * 2 ** failures, MAX_POLL_MS));
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
      return remember(await run("getActiveContext"));
    },
    async loadWorkbook() {
      const snapshot = await run("refreshPane");
      remember(snapshot.context);
      return snapshot;
    },
    onContextChanged(listener) {
      listeners.add(listener);
      if (listeners.size === 1) {
        doc?.addEventListener("visibilitychange", onVisibilityChange);
        schedule(pollMs);
      }
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        doc?.removeEventListener("visibilitychange", onVisibilityChange);
        stop();
      };
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
