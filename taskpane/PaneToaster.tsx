/**
 * The pane's toasts ("Disconnected Revenue by region from Sales!B2; ..."). Loaded on the first
 * notice, not with the first screen; notices that arrive meanwhile are queued and shown in order.
 */
import { Toast, Toaster, ToastTitle, useId, useToastController } from "@fluentui/react-components";
import { useEffect, useRef } from "react";
import type { Notice } from "./usePaneState.js";

export interface QueuedNotice {
  id: number;
  notice: Notice;
}

interface PaneToasterProps {
  queue: readonly QueuedNotice[];
  /** The notices now shown: the caller drops them from its queue. */
  onShown(ids: number[]): void;
}

export default function PaneToaster({ queue, onShown }: PaneToasterProps) {
  const toasterId = useId("pane-toaster");
  const { dispatchToast } = useToastController(toasterId);
  // Each notice once, even when effects run twice (StrictMode in development).
  const shown = useRef(new Set<number>());
  useEffect(() => {
    if (queue.length === 0) return;
    for (const { id, notice } of queue) {
      if (shown.current.has(id)) continue;
      shown.current.add(id);
      dispatchToast(
        <Toast>
          <ToastTitle>{notice.message}</ToastTitle>
        </Toast>,
        {
          toastId: `notice-${id}`,
          intent: notice.intent,
          timeout: notice.intent === "error" || notice.intent === "warning" ? 8000 : 5000,
        },
      );
    }
    onShown(queue.map((q) => q.id));
  }, [queue, dispatchToast, onShown]);
  return <Toaster toasterId={toasterId} position="bottom" pauseOnHover pauseOnWindowBlur limit={3} />;
}
