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

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

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
