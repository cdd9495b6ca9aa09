/**
 * The filter box above a long list of placements (loaded apart from the first screen: it shows only
 * past FILTER_ABOVE placements). Says how many placements are shown, politely, as the user types.
 */
import { Caption1, makeStyles, SearchBox, tokens } from "@fluentui/react-components";

const useStyles = makeStyles({
  box: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalXXS, minWidth: 0 },
  input: { width: "100%", maxWidth: "100%" },
  count: { color: tokens.colorNeutralForeground3 },
});

export default function PlacementFilter({
  value,
  onChange,
  shown,
  total,
}: {
  value: string;
  onChange(value: string): void;
  shown: number;
  total: number;
}) {
  const styles = useStyles();
  return (
    <div className={styles.box}>
      <SearchBox
        className={styles.input}
        aria-label="Filter reports"
        placeholder="Filter by report, sheet or cell"
        value={value}
        onChange={(_, data) => onChange(data.value)}
      />
      <Caption1 className={styles.count} role="status" aria-live="polite">
        {value.trim() === ""
          ? ""
          : shown === 0
            ? `No report matches "${value.trim()}".`
            : `${shown} of ${total} shown`}
      </Caption1>
    </div>
  );
}
