/**
 * The task pane's entry: every host renders the same app into its page with `mountTaskPane`.
 * The Fluent theme follows the host's (light or dark) and changes with it; the dark theme's tokens
 * are loaded only when needed.
 */
import { FluentProvider, type Theme } from "@fluentui/react-components";
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import type { SpreadsheetHost } from "../src/hosts/host.js";
import { firstFrame, startFirstLoad } from "../src/hosts/list-cache.js";
import { App } from "./App.js";
import { lightTheme } from "./lightTheme.js";

// Inline, not a class: FluentProvider copies its className onto every portal's mount node (menus,
// toasts), and a full-height portal node would cover the page.
const FILL = { height: "100%" } as const;

let darkTheme: Theme | null = null;
function loadDarkTheme(): Promise<Theme> {
  return darkTheme
    ? Promise.resolve(darkTheme)
    : import("./darkTheme.js").then((m) => {
        darkTheme = m.darkTheme;
        return darkTheme;
      });
}

function ThemedPane({ host }: { host: SpreadsheetHost }) {
  const [mode, setMode] = useState(() => host.theme());
  const [dark, setDark] = useState<Theme | null>(darkTheme);
  useEffect(() => {
    setMode(host.theme());
    return host.onThemeChanged(setMode);
  }, [host]);
  useEffect(() => {
    if (mode === "dark" && !dark) {
      loadDarkTheme().then(setDark, () => setMode("light"));
    }
  }, [mode, dark]);
  // Until the dark tokens arrive (a moment, once), render nothing rather than flash a light pane.
  if (mode === "dark" && !dark) return null;
  return (
    <FluentProvider theme={mode === "dark" && dark ? dark : lightTheme} style={FILL}>
      <App host={host} />
    </FluentProvider>
  );
}

/**
 * How long the pane waits for its first screen's reads before it draws their loading state. A
 * wait this short needs no indicator, and one that ends within it makes the list the first frame,
 * instead of a loading frame drawn and replaced at once (both cost the first list's time); a
 * longer wait shows the loading state when this runs out.
 */
export const FIRST_FRAME_WAIT_MS = 200;

/** Renders the task pane into `container`; returns the function that unmounts it. */
export function mountTaskPane(container: HTMLElement, host: SpreadsheetHost): () => void {
  // The first screen's reads go out now, before React draws anything.
  const first = startFirstLoad(host);
  const root = createRoot(container);
  let drawn = false;
  const draw = () => {
    if (drawn) return;
    drawn = true;
    clearTimeout(timer);
    root.render(
      <StrictMode>
        <ThemedPane host={host} />
      </StrictMode>,
    );
  };
  const timer = setTimeout(draw, FIRST_FRAME_WAIT_MS);
  // Arrived already (the Excel page starts the reads before this code has loaded): draw now.
  if (firstFrame(host)) draw();
  else void first.shown.then(draw);
  return () => {
    drawn = true;
    clearTimeout(timer);
    root.unmount();
  };
}

/**
 * The mounted pane's store, for a page that runs a command the pane should carry out (Excel's
 * right-click, taskpane/paneStore.ts): pages reach the pane through this module only.
 */
export { mountedPane } from "./paneStore.js";
