// @vitest-environment jsdom
/**
 * A stream of many messages does not hold the pane: the chat reads the messages so far once per
 * batch of lines, not once per line (which is quadratic in the number of ids). Work is counted as
 * the reads of the message list, compared between two sizes: a ratio, not a duration.
 */
import { describe, expect, it } from "vitest";
import type { MergedChatMessage } from "../../src/core/chat-messages.js";
import type { AgentAnswer } from "../../src/core/chat-request.js";
import type { AskInput, AskOptions } from "../../src/hosts/host.js";
import {
  buttonByName,
  click,
  FakeHost,
  fieldByLabel,
  settle,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";
import { showAsk } from "./agentScript.js";

/** A streaming agent that sends `n` step messages at once (one network chunk), counting reads of the list. */
function manySteps(n: number, reads: { count: number }) {
  return async (_request: AskInput, options: AskOptions): Promise<AgentAnswer> => {
    const list: MergedChatMessage[] = [];
    const counted = new Proxy(list, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads.count += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    for (let i = 0; i < n; i++) {
      const message = { id: `step-${i}`, role: "assistant", content: `Step ${i}`, graphPath: ["tools"] };
      list.push(message);
      options.onMessage?.(message, counted);
    }
    const final = { id: "m-final", role: "assistant", content: "Done.", graphPath: ["final"] };
    list.push(final);
    options.onMessage?.(final, counted);
    return { answer: "Done.", chatId: "c-1", messageId: "1-message", messages: [...list], incomplete: null };
  };
}

async function readsFor(n: number): Promise<number> {
  const reads = { count: 0 };
  const root = await showAsk(await renderPane(new FakeHost({ ask: manySteps(n, reads) })));
  await typeInto(fieldByLabel(root, "Ask the agent"), "Revenue?");
  await click(buttonByName(root, "Send"));
  await settle();
  await waitFor(() => expect(root.textContent).toContain("Done."));
  return reads.count;
}

describe("a stream of many messages", () => {
  it("costs the pane work in proportion to the messages, not to their square", async () => {
    const small = await readsFor(500);
    const large = await readsFor(2_000);
    // Linear: about 4. Reading the whole list on every line: about 16.
    expect(large / small).toBeLessThan(8);
  });
});
