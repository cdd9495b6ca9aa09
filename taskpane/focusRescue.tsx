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

/** Keys of elements just removed while they held focus, until their replacement mounts. */
const carried = new Set<string>();

/**
 * A ref for an element that React may replace with another of the same role: a stand-in's button
 * by the real component's once its chunk has loaded (lazy.tsx), which is a new element. When the
 * element named `key` goes away holding focus and another named `key` mounts in the same commit,
 * focus moves to the new one, unless something else took it meanwhile. (A ref's cleanup runs before
 * React removes the element, so it can still tell; the key is forgotten once the commit is over.)
 */
export function carryFocus(key: string): (el: HTMLElement | null) => (() => void) | undefined {
  return (el) => {
    if (!el) return undefined;
    if (carried.delete(key) && focusLost()) el.focus();
    return () => {
      if (document.activeElement !== el) return;
      carried.add(key);
      queueMicrotask(() => carried.delete(key));
    };
  };
}
