/**
 * The task pane's entry: every host renders the same app into its page with `mountTaskPane`.
 * The Fluent theme follows the host's (light or dark) and changes with it; the dark theme's tokens
 * are loaded only when needed.
 */
import { FluentProvider, type Theme, webLightTheme } from "@fluentui/react-components";
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import type { SpreadsheetHost } from "../src/hosts/host.js";
import { App } from "./App.js";
import { startFirstLoad } from "./listCache.js";

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
    <FluentProvider theme={mode === "dark" && dark ? dark : webLightTheme} style={FILL}>
      <App host={host} />
    </FluentProvider>
  );
}

/** Renders the task pane into `container`; returns the function that unmounts it. */
export function mountTaskPane(container: HTMLElement, host: SpreadsheetHost): () => void {
  // The first screen's reads go out now, while React draws the first frame, not after it.
  startFirstLoad(host);
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <ThemedPane host={host} />
    </StrictMode>,
  );
  return () => root.unmount();
}
