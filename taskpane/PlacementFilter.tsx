/**
 * The filter box above a long list of placements (loaded apart from the first screen, with its
 * matching: it shows only past FILTER_ABOVE placements). Hands the placements that match to the
 * list, and says how many are shown, politely, as the user types.
 */
import { Caption1, makeStyles, SearchBox, tokens } from "@fluentui/react-components";
import { useEffect, useMemo, useState } from "react";
import type { PlacedReport } from "../src/core/placement-view.js";
import type { SheetInfo } from "../src/hosts/host.js";
import { filterPlacements } from "./placementFilter.js";

const useStyles = makeStyles({
  box: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalXXS, minWidth: 0 },
  input: { width: "100%", maxWidth: "100%" },
  count: { color: tokens.colorNeutralForeground3 },
});

export default function PlacementFilter({
  here,
  sheets,
  onFiltered,
}: {
  here: readonly PlacedReport[];
  sheets: readonly SheetInfo[];
  /** The placements that match; null when nothing is typed (the whole list). */
  onFiltered(placements: readonly PlacedReport[] | null): void;
}) {
  const styles = useStyles();
  const [value, setValue] = useState("");
  const shown = useMemo(
    () => (value.trim() === "" ? null : filterPlacements(here, sheets, value)),
    [here, sheets, value],
  );
  useEffect(() => onFiltered(shown), [shown, onFiltered]);
  // Gone (the list is short again): the whole list shows.
  useEffect(() => () => onFiltered(null), [onFiltered]);
  return (
    <div className={styles.box}>
      <SearchBox
        className={styles.input}
        aria-label="Filter reports"
        placeholder="Filter by report, sheet or cell"
        value={value}
        onChange={(_, data) => setValue(data.value)}
      />
      <Caption1 className={styles.count} role="status" aria-live="polite">
        {shown === null
          ? ""
          : shown.length === 0
            ? `No report matches "${value.trim()}".`
            : `${shown.length} of ${here.length} shown`}
      </Caption1>
    </div>
  );
}
