/**
 * The menu of one listed placement: refresh it (or every placement of its report here), select it,
 * or disconnect exactly that placement (useful for a placement on a recreated tab, which is under no
 * cell). Loaded lazily with the list.
 */
import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from "@fluentui/react-components";
import { useLayoutEffect, useRef } from "react";
import { DisconnectIcon, MoreIcon, RefreshIcon, SelectIcon } from "./icons.js";

// Until this chunk arrived, each row showed a placeholder "…" button (PlacementItem); this menu's
// button replaces it, a new element, and a focused placeholder taken out of the page leaves focus on
// the body. The last element focused (the placeholder, if it was) is kept here, so the menu's button
// of the same row takes the focus over. Here, not in the placeholder: this chunk is not on the first
// screen.
let lastFocused: Element | null = typeof document === "undefined" ? null : document.activeElement;
if (typeof document !== "undefined") {
  document.addEventListener("focusin", (event) => {
    lastFocused = event.target as Element;
  });
}

interface PlacementActionsProps {
  className?: string;
  label: string;
  /** -1 off the list's one Tab stop (PlacementList's roving tab index). */
  tabIndex?: number;
  canSelect: boolean;
  busy: boolean;
  onSelect(): void;
  onDisconnect(): void;
  /** Move here: offered for a placement that is Not found (its sheet name gone, no sheet id). */
  onMoveHere?: (() => void) | undefined;
  /** Refresh this placement, or every placement of its report here; absent where the host cannot. */
  onRefresh?: ((whole: "placement" | "report") => void) | undefined;
  /** The menu is controlled: a click on the placeholder button before this loaded still opens it. */
  open: boolean;
  onOpenChange(open: boolean): void;
}

export default function PlacementActions(props: PlacementActionsProps) {
  const {
    className,
    label,
    tabIndex,
    canSelect,
    busy,
    onSelect,
    onDisconnect,
    onMoveHere,
    onRefresh,
    open,
    onOpenChange,
  } = props;
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const was = lastFocused;
    const active = document.activeElement;
    if (!was || was.isConnected || (active && active !== document.body)) return;
    if (was.getAttribute("aria-label") === label) button.current?.focus();
  }, [label]);
  return (
    <Menu positioning="below-end" open={open} onOpenChange={(_, data) => onOpenChange(data.open)}>
      <MenuTrigger disableButtonEnhancement>
        <Button
          ref={button}
          className={className}
          appearance="subtle"
          size="small"
          icon={<MoreIcon />}
          aria-label={label}
          title="Actions"
          tabIndex={tabIndex}
        />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {onRefresh ? (
            <>
              <MenuItem icon={<RefreshIcon />} onClick={() => onRefresh("placement")} disabled={busy}>
                Refresh
              </MenuItem>
              <MenuItem onClick={() => onRefresh("report")} disabled={busy}>
                Refresh report
              </MenuItem>
            </>
          ) : null}
          <MenuItem icon={<SelectIcon />} onClick={onSelect} disabled={!canSelect}>
            Select in workbook
          </MenuItem>
          {onMoveHere ? (
            <MenuItem onClick={onMoveHere} disabled={busy}>
              Move here
            </MenuItem>
          ) : null}
          <MenuItem icon={<DisconnectIcon />} onClick={onDisconnect} disabled={busy}>
            Disconnect this placement
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
