/**
 * "Refreshing…" while the list shown is the one last kept for this workbook (src/hosts/list-cache.ts);
 * announced politely when it appears.
 */
import { Caption1 } from "@fluentui/react-components";

export function RefreshingStatus({ shown }: { shown: boolean }) {
  return (
    <Caption1 role="status" aria-live="polite">
      {shown ? "Refreshing…" : ""}
    </Caption1>
  );
}
