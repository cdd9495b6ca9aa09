// @vitest-environment jsdom
/**
 * The pane's messages: a new success or information replaces the last one of its kind instead of
 * stacking into a tall column; errors and warnings stay until dismissed. A message shown before the
 * message bar's chunk has loaded keeps the keyboard's focus when the real bar replaces its stand-in.
 */
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, expect, it, vi } from "vitest";
import { type PaneMessage, PaneMessages, usePaneMessages } from "../../taskpane/PaneMessages.js";
import type { Notice } from "../../taskpane/usePaneState.js";

const box = document.createElement("div");
document.body.append(box);
const root = createRoot(box);
afterEach(() => act(() => root.render(null)));

function harness(): { notify(n: Notice): void; shown(): string[] } {
  const seen: { messages: readonly PaneMessage[]; notify?: (n: Notice) => void } = { messages: [] };
  function Probe() {
    const { messages, notify } = usePaneMessages();
    seen.messages = messages;
    seen.notify = notify;
    return null;
  }
  act(() => root.render(<Probe />));
  return {
    notify: (n) => act(() => seen.notify?.(n)),
    shown: () => seen.messages.map((m) => `${m.notice.intent}: ${m.notice.message}`),
  };
}

it("a new success replaces the last success; errors and warnings stay", () => {
  const pane = harness();
  pane.notify({ intent: "error", message: "Could not reach acme.example.com." });
  pane.notify({ intent: "success", message: "Disconnected Revenue from Sales!B2." });
  pane.notify({ intent: "success", message: "Refreshed Revenue." });
  expect(pane.shown()).toEqual(["error: Could not reach acme.example.com.", "success: Refreshed Revenue."]);
  // Three at most: past that, a passing message goes before one that stays.
  pane.notify({ intent: "warning", message: "1 not refreshed." });
  pane.notify({ intent: "warning", message: "2 not refreshed." });
  expect(pane.shown()).toEqual([
    "error: Could not reach acme.example.com.",
    "warning: 1 not refreshed.",
    "warning: 2 not refreshed.",
  ]);
});

it("an information replaces the last information, not a success", () => {
  const pane = harness();
  pane.notify({ intent: "success", message: "Refreshed Revenue." });
  pane.notify({ intent: "info", message: "Stopped." });
  pane.notify({ intent: "info", message: "Nothing to refresh." });
  expect(pane.shown()).toEqual(["success: Refreshed Revenue.", "info: Nothing to refresh."]);
});

it("a Dismiss holding focus keeps it when the message bar's chunk replaces the stand-in", async () => {
  const messages: PaneMessage[] = [
    { id: 1, notice: { intent: "success", message: "Revenue by Country moved with its sheet." } },
    {
      id: 2,
      notice: {
        intent: "success",
        message: "Disconnected Revenue.",
        action: { label: "Undo", run: () => {} },
      },
    },
  ];
  const focusAfterLast = vi.fn();
  // Rendered before the chunk has loaded: the bars are their stand-ins.
  act(() =>
    root.render(<PaneMessages messages={messages} onDismiss={() => {}} focusAfterLast={focusAfterLast} />),
  );
  const [standInDismiss] = box.querySelectorAll<HTMLButtonElement>("button[data-dismiss]");
  standInDismiss?.focus();
  expect(document.activeElement).toBe(standInDismiss);
  // The chunk arrives and the real bars take the stand-ins' place, with new buttons.
  await vi.waitFor(() => expect(box.querySelector("button[data-dismiss]")).not.toBe(standInDismiss));
  const dismiss = box.querySelector<HTMLButtonElement>("button[data-dismiss]");
  expect(standInDismiss?.isConnected).toBe(false);
  expect(document.activeElement).toBe(dismiss);

  expect(focusAfterLast).not.toHaveBeenCalled();
});
