// @vitest-environment jsdom
/**
 * The lazily loaded parts (lazy.tsx) render a stand-in until their chunk arrives: the stand-in
 * must say to assistive technology what the real component would, or the pane fails axe for the
 * moment it shows (a nameless progressbar while the workbook loads).
 */
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, expect, it } from "vitest";
import { Spinner } from "../../taskpane/lazy.js";

const host = document.createElement("div");
document.body.append(host);
const root = createRoot(host);
afterEach(() => act(() => root.render(null)));

it("a Spinner's stand-in keeps the aria-hidden or the name its caller gave", () => {
  // Rendered synchronously: the chunk has not loaded, so what shows is the stand-in.
  act(() =>
    root.render(
      <>
        <Spinner size="tiny" aria-hidden />
        <Spinner size="tiny" aria-label="Loading users" />
      </>,
    ),
  );
  const bars = [...host.querySelectorAll('[role="progressbar"]')];
  expect(bars.map((b) => [b.getAttribute("aria-hidden"), b.getAttribute("aria-label")])).toEqual([
    ["true", null],
    [null, "Loading users"],
  ]);
});

it("a message bar's stand-in is drawn as the bar it stands for: the intent's colours, actions beside the text", async () => {
  const { MessageBar, MessageBarActions, MessageBarBody } = await import("../../taskpane/lazy.js");
  act(() =>
    root.render(
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>The reports could not be loaded.</MessageBarBody>
        <MessageBarActions containerAction={<button type="button">Dismiss</button>}>
          <button type="button">Retry</button>
        </MessageBarActions>
      </MessageBar>,
    ),
  );
  const bar = host.querySelector('[role="alert"]') as HTMLElement;
  expect(bar.textContent).toBe("The reports could not be loaded.RetryDismiss");
  const style = getComputedStyle(bar);
  expect(style.backgroundColor).toContain("colorStatusDangerBackground1");
  expect(style.display).toBe("flex");
  const actions = (bar.querySelector("button") as HTMLElement).parentElement as HTMLElement;
  expect(getComputedStyle(actions).display).toBe("flex");
});
