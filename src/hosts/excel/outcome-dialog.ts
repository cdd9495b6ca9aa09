/**
 * The right-click command's outcome in a small dialog of ours, for when the task pane cannot be
 * shown (pane-visibility.ts). Office's dialog API (`Office.context.ui.displayDialogAsync`,
 * requirement set DialogApi 1.1, checked with isSetSupported before use) opens `outcome.html`, a
 * static page served beside the pane from the same origin, as Microsoft requires of a dialog's
 * first page (learn.microsoft.com/office/dev/add-ins/develop/dialog-api-in-office-add-ins).
 *
 * The outcome travels in the dialog URL's query, the way Microsoft documents for hosts without
 * DialogApi 1.2's messageChild (learn.microsoft.com/office/dev/add-ins/develop/parent-to-dialog):
 * two parameters, `ok` and `message`, read by outcome.ts as text (never as HTML). The message is
 * cut to MAX_MESSAGE characters. Only one dialog can be open at a time (Office answers 12007
 * otherwise), so a new outcome closes the previous dialog first. The dialog's Close button sends
 * "close" with `messageParent`, and this side closes it.
 */
import type { Outcome } from "../host.js";
import type { OfficeApi, OfficeDialog } from "./office.js";

export const OUTCOME_PAGE = "outcome.html";
export const MAX_MESSAGE = 600;

/** The dialog's address for `outcome`, relative to the page that opens it. */
export function outcomeDialogUrl(pageUrl: string, outcome: Outcome): string {
  const url = new URL(OUTCOME_PAGE, pageUrl);
  url.search = new URLSearchParams({
    ok: outcome.ok ? "1" : "0",
    message: outcome.message.slice(0, MAX_MESSAGE),
  }).toString();
  url.hash = "";
  return url.href;
}

/** What outcomeDialogUrl put in the query, or null when it holds no message. */
export function readOutcomeQuery(search: string): Outcome | null {
  const params = new URLSearchParams(search);
  const message = params.get("message")?.slice(0, MAX_MESSAGE).trim();
  if (!message) return null;
  return { ok: params.get("ok") === "1", message };
}

/**
 * Opens the outcome dialog; resolves true once Office has opened it, false where the dialog API is
 * missing or refuses (the outcome then stays only in the page).
 */
export function createOutcomeDialog(
  office: Pick<OfficeApi, "context" | "EventType">,
  pageUrl: string,
): (outcome: Outcome) => Promise<boolean> {
  let open: OfficeDialog | null = null;
  const close = () => {
    try {
      open?.close();
    } catch {
      // Already closed by the user.
    }
    open = null;
  };
  return (outcome) =>
    new Promise<boolean>((resolve) => {
      const supported = office.context.requirements?.isSetSupported("DialogApi", "1.1") ?? false;
      const display = office.context.ui?.displayDialogAsync;
      if (!supported || !display) {
        resolve(false);
        return;
      }
      close();
      try {
        display.call(
          office.context.ui,
          outcomeDialogUrl(pageUrl, outcome),
          // displayInIframe: Office on the web shows it in the page, not as a pop-up a blocker stops.
          { height: 30, width: 30, displayInIframe: true },
          (result) => {
            const dialog = result.status === "succeeded" ? result.value : undefined;
            if (!dialog) {
              resolve(false);
              return;
            }
            open = dialog;
            dialog.addEventHandler(office.EventType?.DialogMessageReceived ?? "dialogMessageReceived", () => {
              if (open === dialog) close();
            });
            // The user closed it (or it failed to load): forget it.
            dialog.addEventHandler(office.EventType?.DialogEventReceived ?? "dialogEventReceived", () => {
              if (open === dialog) open = null;
            });
            resolve(true);
          },
        );
      } catch {
        resolve(false);
      }
    });
}
