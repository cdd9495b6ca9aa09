/**
 * Renders the Settings panel alone (as the pane shows it), with spies for its callbacks, and
 * records which elements were scrolled into view (jsdom does no layout).
 */
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { act } from "react";
import { createRoot } from "react-dom/client";
import type { PublicSettings } from "../../src/hosts/host.js";
import type { SettingsField } from "../../taskpane/errorMessage.js";
import SettingsPanel from "../../taskpane/SettingsPanel.js";
import { type FakeHost, fieldByLabel, type Rendered, settle, waitFor } from "../support/fakeHost.js";

export interface SettingsView extends Rendered {
  closed: number;
  saved: PublicSettings[];
  scrolled: Element[];
}

export async function renderSettings(
  host: FakeHost,
  options: {
    firstRun?: boolean;
    focusField?: SettingsField;
    focusMessage?: string;
    settings?: PublicSettings | null;
  } = {},
): Promise<SettingsView> {
  const container = document.createElement("div");
  document.body.append(container);
  const scrolled: Element[] = [];
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this);
  };
  const reactRoot = createRoot(container);
  const view: SettingsView = {
    container,
    closed: 0,
    saved: [],
    scrolled,
    unmount: () => {
      act(() => reactRoot.unmount());
      container.remove();
    },
  };
  await act(async () => {
    reactRoot.render(
      <FluentProvider theme={webLightTheme}>
        <SettingsPanel
          host={host}
          settings={options.settings === undefined ? host.settings : options.settings}
          firstRun={options.firstRun ?? false}
          onSaved={(s) => view.saved.push(s)}
          onClose={() => {
            view.closed += 1;
          }}
          {...(options.focusField ? { focusField: options.focusField } : {})}
          {...(options.focusMessage ? { focusMessage: options.focusMessage } : {})}
        />
      </FluentProvider>,
    );
  });
  await settle();
  await waitFor(() => fieldByLabel(container, "Tenant URL"));
  return view;
}

/** The validation message Fluent shows under the field with this label, if any. */
export function fieldError(root: HTMLElement, label: string): string | null {
  const input = fieldByLabel(root, label);
  const ids = (input.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const el = document.getElementById(id);
    if (el?.className.includes("validationMessage")) return el.textContent;
  }
  return null;
}
