// @vitest-environment jsdom
/**
 * The Ask view passes axe at every impact level in each state it shows: before a question, while an
 * answer streams, answered with its steps open, and a refused key with "Open settings". jsdom
 * computes no colours, so colour contrast is left to the browser tests (Chromium).
 */
import axe from "axe-core";
import { act } from "react";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/chat-messages.js";
import { PlatformError } from "../../src/core/errors.js";
import {
  buttonByName,
  click,
  deferred,
  FakeHost,
  fieldByLabel,
  settle,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";
import { answerWithStep, refusedWith, showAsk, streamOf } from "./agentScript.js";

/** Every axe violation on the page, whatever its impact, but colour contrast (see above). */
async function axeViolations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { "color-contrast": { enabled: false } },
    resultTypes: ["violations"],
  });
  return result.violations.map(
    (v) => `${v.impact}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

const askBox = (root: HTMLElement) => fieldByLabel(root, "Ask the agent");

async function ask(root: HTMLElement, question: string): Promise<void> {
  await typeInto(askBox(root), question);
  await click(buttonByName(root, "Send"));
}

describe("the Ask view passes axe", () => {
  it("before a question", async () => {
    await showAsk(await renderPane(new FakeHost()));
    expect(await axeViolations()).toEqual([]);
  });

  it("while an answer streams, its steps showing", async () => {
    const gate = deferred<void>();
    const host = new FakeHost({
      ask: async (_request, options) => {
        const lines: ChatMessage[] = [
          { id: "__cutoff__", state: { chatId: "chat-1" } },
          {
            id: "tool-1",
            role: "assistant",
            graphPath: ["cube_data_analyst_agent", "tools"],
            content: "",
            isInProcess: true,
            toolCall: { name: "query_revenue" },
          } as ChatMessage,
          {
            id: "final-1",
            role: "assistant",
            graphPath: ["final"],
            content: "Revenue grew ",
            isInProcess: true,
          },
        ];
        streamOf(lines, options);
        await gate.promise;
        return streamOf(lines, options);
      },
    });
    const root = await showAsk(await renderPane(host));
    await ask(root, "How did revenue do?");
    await settle();
    expect(buttonByName(root, "Stop")).toBeDefined();
    expect(root.textContent).toContain("Using query_revenue");
    expect(await axeViolations()).toEqual([]);
    await act(async () => gate.resolve());
  });

  it("answered, with its steps open", async () => {
    const root = await showAsk(await renderPane(new FakeHost({ ask: answerWithStep("**12%** in EMEA.") })));
    await ask(root, "How did revenue do?");
    await waitFor(() => buttonByName(root, "1 step"));
    await click(buttonByName(root, "1 step"));
    expect(buttonByName(root, "1 step").getAttribute("aria-expanded")).toBe("true");
    await waitFor(() => expect(root.querySelector("[data-answer-status] strong")?.textContent).toBe("12%"));
    expect(await axeViolations()).toEqual([]);
  });

  it("a refused key, with Open settings", async () => {
    const refused = new PlatformError("unauthorized", "The agent API key was refused (401).", {
      field: "agentApiKey",
    });
    const root = await showAsk(await renderPane(new FakeHost({ ask: refusedWith(refused) })));
    await ask(root, "Anything?");
    await waitFor(() => buttonByName(root, "Open settings"));
    expect(await axeViolations()).toEqual([]);
  });
});
