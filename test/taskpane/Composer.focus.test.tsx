// @vitest-environment jsdom
/**
 * Stop is in the composer only while an answer streams. When the answer ends by itself while Stop
 * holds focus (a keyboard user tabbed to it, or is about to press it), focus must not fall to the
 * page's body: it goes to the question box, as it does after pressing Stop.
 */
import { describe, expect, it } from "vitest";
import type { AgentAnswer } from "../../src/core/chat-request.js";
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
import { showAsk, streamOf } from "./agentScript.js";

describe("Stop going away by itself", () => {
  it("hands focus to the question box when the answer ends while Stop holds focus", async () => {
    const finish = deferred<void>();
    const host = new FakeHost({
      ask: async (_request, options): Promise<AgentAnswer> => {
        streamOf([{ id: "__cutoff__", state: { chatId: "chat-1" } }], options);
        await finish.promise;
        return streamOf(
          [
            { id: "__cutoff__", state: { chatId: "chat-1" } },
            { id: "final-1", role: "assistant", graphPath: ["final"], content: "Revenue grew." },
          ],
          options,
        );
      },
    });
    const root = await showAsk(await renderPane(host));
    await typeInto(fieldByLabel(root, "Ask the agent"), "How did revenue do?");
    await click(buttonByName(root, "Send"));
    await settle();
    const stop = buttonByName(root, "Stop");
    stop.focus();
    expect(document.activeElement).toBe(stop);

    finish.resolve();
    await waitFor(() => expect(root.querySelector('[data-answer-status="done"]')).not.toBeNull());
    await settle();
    expect(document.activeElement).not.toBe(document.body);
    expect((document.activeElement as HTMLButtonElement).disabled).not.toBe(true);
    expect(document.activeElement).toBe(fieldByLabel(root, "Ask the agent"));
  });
});
