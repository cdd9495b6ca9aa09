/**
 * The outcome dialog's page (outcome-dialog.ts opens it): shows the message from its query as
 * text, and Close asks the opener to close the dialog (`Office.context.ui.messageParent`,
 * DialogApi 1.1). Imports nothing but the query reader.
 */
import { readOutcomeQuery } from "./outcome-dialog.js";

const outcome = readOutcomeQuery(location.search);
const message = document.getElementById("message");
if (outcome && message) {
  message.textContent = outcome.message;
  message.dataset.ok = String(outcome.ok);
}

document.getElementById("close")?.addEventListener("click", () => {
  const office = (globalThis as { Office?: { context?: { ui?: { messageParent?(m: string): void } } } })
    .Office;
  try {
    office?.context?.ui?.messageParent?.("close");
  } catch {
    window.close();
  }
});
