// @vitest-environment jsdom
/**
 * The pane's messages: a new success or information replaces the last one of its kind instead of
 * stacking into a tall column; errors and warnings stay until dismissed.
 */
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, expect, it } from "vitest";
import { type PaneMessage, usePaneMessages } from "../../taskpane/PaneMessages.js";
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
