/**
 * The pane's two views, "Reports" and "Ask", as WAI-ARIA tabs: a roving tab stop, the arrow keys,
 * Home and End move between tabs and select them (both panels stay mounted, so selecting is cheap).
 * Hand-written rather than Fluent's TabList, which would add about 26 KB (gzip) to the first screen.
 */
import { makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import { type KeyboardEvent, useRef } from "react";

export type PaneView = "reports" | "ask";

const VIEWS: readonly { id: PaneView; label: string }[] = [
  { id: "reports", label: "Reports" },
  { id: "ask", label: "Ask" },
];

export const tabId = (view: PaneView) => `pane-tab-${view}`;
export const panelId = (view: PaneView) => `pane-panel-${view}`;

const useStyles = makeStyles({
  list: {
    display: "flex",
    columnGap: tokens.spacingHorizontalXS,
    padding: `0 ${tokens.spacingHorizontalS}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  tab: {
    position: "relative",
    border: "none",
    background: "none",
    cursor: "pointer",
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    color: tokens.colorNeutralForeground2,
    borderRadius: tokens.borderRadiusMedium,
    ":hover": { color: tokens.colorNeutralForeground1, backgroundColor: tokens.colorSubtleBackgroundHover },
    ":focus-visible": {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: "-2px",
    },
  },
  selected: {
    color: tokens.colorNeutralForeground1,
    fontWeight: tokens.fontWeightSemibold,
    "::after": {
      content: '""',
      position: "absolute",
      left: tokens.spacingHorizontalM,
      right: tokens.spacingHorizontalM,
      bottom: 0,
      height: tokens.strokeWidthThicker,
      borderRadius: tokens.borderRadiusCircular,
      backgroundColor: tokens.colorCompoundBrandStroke,
    },
  },
});

export function PaneTabs({ selected, onSelect }: { selected: PaneView; onSelect(view: PaneView): void }) {
  const styles = useStyles();
  const refs = useRef(new Map<PaneView, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = VIEWS.findIndex((v) => v.id === selected);
    const last = VIEWS.length - 1;
    const next =
      event.key === "ArrowRight"
        ? at === last
          ? 0
          : at + 1
        : event.key === "ArrowLeft"
          ? at === 0
            ? last
            : at - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next == null) return;
    event.preventDefault();
    const view = VIEWS[next]!.id;
    onSelect(view);
    refs.current.get(view)?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" className={styles.list} onKeyDown={onKeyDown}>
      {VIEWS.map(({ id, label }) => (
        <button
          key={id}
          ref={(el) => {
            if (el) refs.current.set(id, el);
            else refs.current.delete(id);
          }}
          type="button"
          role="tab"
          id={tabId(id)}
          aria-selected={id === selected}
          aria-controls={panelId(id)}
          tabIndex={id === selected ? 0 : -1}
          className={mergeClasses(styles.tab, id === selected && styles.selected)}
          onClick={() => onSelect(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
