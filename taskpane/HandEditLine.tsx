/**
 * A placement's hand edits in its row (docs/pane.md, "Edited"): **Edited** with the rows named and
 * **Locate**, which selects them; or why the pane cannot tell, or that a large range is still being
 * compared. Loaded with the first note, not with the first screen.
 */
import { Button, makeStyles, tokens, useId } from "@fluentui/react-components";
import type { EditNote } from "./editWatchHandle.js";
import type { SelectTarget } from "./PlacementItem.js";

const caption = { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 } as const;

const useStyles = makeStyles({
  caption,
  edits: {
    display: "flex",
    flexWrap: "wrap",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalS,
    padding: `0 ${tokens.spacingHorizontalS} ${tokens.spacingVerticalXS}`,
  },
  // Drawn as the list's tint badges are (Fluent's Badge is the first screen's; a badge here would
  // split it into a file of its own).
  badge: {
    ...caption,
    fontWeight: tokens.fontWeightSemibold,
    padding: `0 ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorPaletteDarkOrangeForeground1,
    backgroundColor: tokens.colorPaletteDarkOrangeBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteDarkOrangeBorder1}`,
  },
  note: {
    ...caption,
    display: "block",
    padding: `0 ${tokens.spacingHorizontalS} ${tokens.spacingVerticalXS}`,
    color: tokens.colorNeutralForeground3,
  },
});

export default function HandEditLine({
  edit,
  onSelect,
}: {
  edit: EditNote;
  onSelect(target: SelectTarget): void;
}) {
  const styles = useStyles();
  const textId = useId("edits");
  if (edit.kind === "unchanged") return null;
  if (edit.kind !== "edited") {
    return (
      <span className={styles.note} data-hand-edits={edit.kind}>
        {edit.text}
      </span>
    );
  }
  return (
    <div className={styles.edits} data-hand-edits="edited">
      <span className={styles.badge}>Edited</span>
      <span id={textId} className={styles.caption}>
        {edit.text}
      </span>
      <Button
        size="small"
        appearance="transparent"
        aria-describedby={textId}
        onClick={() => onSelect(edit.locate)}
      >
        Locate
      </Button>
    </div>
  );
}
