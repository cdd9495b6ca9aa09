/**
 * Keyboard focus never falls to the page's body: when a part of the pane that holds focus goes away
 * (Settings closing, a message bar whose problem is solved), focus moves to what the pane names
 * instead, unless something else took it meanwhile.
 */
import { type ReactNode, type RefObject, useLayoutEffect, useRef } from "react";

/** Whether focus is nowhere useful: on the body, or on an element no longer in the page. */
function focusLost(): boolean {
  const active = document.activeElement;
  return active == null || active === document.body || !active.isConnected;
}

/**
 * A ref for an element that, when it unmounts holding focus, hands focus to `fallback()`.
 * (A layout effect's cleanup runs before React removes the element, so it can still tell.)
 */
export function useFocusRescue<T extends HTMLElement>(
  fallback: () => HTMLElement | null | undefined,
): RefObject<T | null> {
  const ref = useRef<T>(null);
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  useLayoutEffect(() => {
    const el = ref.current;
    return () => {
      if (!el?.contains(document.activeElement)) return;
      queueMicrotask(() => {
        // Still in the page: it was not removed (React's StrictMode runs a cleanup and the effect
        // again on the same element), so the focus it holds is where the user is.
        if (el.isConnected) return;
        if (focusLost()) fallbackRef.current()?.focus();
      });
    };
  }, []);
  return ref;
}

/** A box (Settings, say) that hands focus to `fallback()` when it goes away holding it. */
export function FocusRescueBox({
  fallback,
  className,
  children,
}: {
  fallback(): HTMLElement | null | undefined;
  className?: string;
  children: ReactNode;
}) {
  const ref = useFocusRescue<HTMLDivElement>(fallback);
  return (
    <div ref={ref} className={className}>
      {children}
    </div>
  );
}
