/**
 * The menu of one listed placement: refresh it (or every placement of its report here), select it,
 * or disconnect exactly that placement (useful for a placement on a recreated tab, which is under no
 * cell). Loaded lazily, and mounted only while open: the "…" button that opens it is the row's own
 * (PlacementItem), so no element is swapped under a press and a row costs no Menu until it is used.
 */
import { Menu, MenuItem, MenuList, MenuPopover, type MenuProps } from "@fluentui/react-components";
import { type RefObject, useRef } from "react";
import { DisconnectIcon, RefreshIcon, SelectIcon } from "./icons.js";

interface PlacementActionsProps {
  /** The row's "…" button: the menu is placed below it, and focus returns to it on close. */
  target: RefObject<HTMLButtonElement | null>;
  canSelect: boolean;
  busy: boolean;
  onSelect(): void;
  onDisconnect(): void;
  /** Move here: offered for a placement that is Not found (its sheet name gone, no sheet id). */
  onMoveHere?: (() => void) | undefined;
  /** Refresh this placement, or every placement of its report here; absent where the host cannot. */
  onRefresh?: ((whole: "placement" | "report") => void) | undefined;
  /**
   * A refresh is running, of this placement or others: Refresh and Refresh report are unavailable
   * until it ends (one run at a time), as Refresh all is, instead of offered and then not done.
   */
  refreshRunning?: boolean;
  onClose(): void;
}

export default function PlacementActions(props: PlacementActionsProps) {
  const { target, canSelect, busy, onSelect, onDisconnect, onMoveHere, onRefresh, refreshRunning, onClose } =
    props;
  const popover = useRef<HTMLDivElement>(null);
  const onOpenChange: MenuProps["onOpenChange"] = (event, data) => {
    if (data.open) return;
    // A press on the "…" button itself is "outside" the menu to Fluent (it is no MenuTrigger): the
    // button's own click closes it, so it does not close here only to be opened again by that click.
    if (data.type === "clickOutside" && target.current?.contains(event.target as Node)) return;
    // As MenuTrigger does: focus inside the menu (or lost with it) goes back to the button, before
    // the menu unmounts; Tab then moves on from the button, as it does from any menu button.
    const active = document.activeElement;
    if (!active || active === document.body || popover.current?.contains(active)) target.current?.focus();
    onClose();
  };
  return (
    <Menu
      open
      onOpenChange={onOpenChange}
      positioning={{ target: target.current, position: "below", align: "end" }}
    >
      <MenuPopover ref={popover}>
        <MenuList>
          {onRefresh ? (
            <>
              <MenuItem
                icon={<RefreshIcon />}
                onClick={() => onRefresh("placement")}
                disabled={busy || refreshRunning}
              >
                Refresh
              </MenuItem>
              <MenuItem onClick={() => onRefresh("report")} disabled={busy || refreshRunning}>
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
