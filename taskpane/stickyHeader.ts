/**
 * The pane's header is sticky: a control focused from the keyboard below it must scroll into view
 * beneath it, not under it. The header's height is kept on its parent as `--pane-header-height`,
 * which the pane gives its main area's elements as their top scroll margin (`HEADER_SCROLL_MARGIN`).
 */
import { type RefObject, useEffect, useRef } from "react";

const HEADER_HEIGHT = "--pane-header-height";

/** The top scroll margin for what scrolls under the sticky header: its height and a small gap. */
export const HEADER_SCROLL_MARGIN = `calc(var(${HEADER_HEIGHT}, 0px) + 8px)`;

/** A ref for the sticky header: its height is kept on its parent while it is mounted. */
export function useStickyHeaderHeight<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const header = ref.current;
    const parent = header?.parentElement;
    if (!header || !parent || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      parent.style.setProperty(HEADER_HEIGHT, `${header.offsetHeight}px`);
    });
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return ref;
}

/** The chat's question box height, kept on its section by the chat (AgentChat's ComposerHeight). */
export const COMPOSER_HEIGHT = "--pane-composer-height";
