// @vitest-environment jsdom
/**
 * A host whose agent answers arrive whole (Google Sheets: UrlFetchApp cannot stream): the pane says
 * so while it waits, and a Stop says that the late answer will not be shown. A streaming host's pane
 * says neither.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentAnswer } from "../../src/core/chat-request.js";
import { PlatformError } from "../../src/core/errors.js";
import type { AskInput, AskOptions } from "../../src/hosts/host.js";
import {
  buttonByName,
  click,
  FakeHost,
  fieldByLabel,
  type Rendered,
  renderPane,
  settle,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";

/** The fake host as Google Sheets shows itself: answers whole, under its own name. */
class WholeAnswersHost extends FakeHost {
  readonly agentAnswers = "whole" as const;
  constructor(...args: ConstructorParameters<typeof FakeHost>) {
    super(...args);
    (this as { label: string }).label = "Google Sheets";
  }
}

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  document.body.innerHTML = "";
});

/** An agent that answers only when stopped (with "aborted"), as the Sheets host does on Stop. */
function waitsUntilStopped(_request: AskInput, options: AskOptions): Promise<AgentAnswer> {
  return new Promise((_resolve, reject) => {
    options.signal?.addEventListener("abort", () =>
      reject(new PlatformError("aborted", "You stopped the answer. Ask again when you are ready.")),
    );
  });
}

async function askAndWait(host: FakeHost): Promise<HTMLElement> {
  view = await renderPane(host);
  const root = view.container;
  await waitFor(() => fieldByLabel(root, "Ask the agent"));
  await typeInto(fieldByLabel(root, "Ask the agent"), "Revenue by region?");
  await click(buttonByName(root, "Send"));
  await settle();
  return root;
}

describe("answers that arrive whole", () => {
  it("while it waits, the pane says the answer appears whole once ready", async () => {
    const root = await askAndWait(new WholeAnswersHost({ ask: waitsUntilStopped }));
    expect(root.textContent).toContain("In Google Sheets the answer appears whole once it is ready.");
  });

  it("Stop on the first question says the late answer will not be shown", async () => {
    const host = new WholeAnswersHost({ ask: waitsUntilStopped });
    const root = await askAndWait(host);
    await click(buttonByName(root, "Stop"));
    await settle();
    expect(root.textContent).toContain(
      "Stopped. The answer will not be shown, even if the agent finishes it.",
    );
    expect(host.calls.abortChat).toEqual([]);
  });

  it("a streaming host says neither", async () => {
    const root = await askAndWait(new FakeHost({ ask: waitsUntilStopped }));
    expect(root.textContent).not.toContain("appears whole");
    await click(buttonByName(root, "Stop"));
    await settle();
    expect(root.textContent).toContain("Stopped.");
    expect(root.textContent).not.toContain("will not be shown");
  });
});
