/**
 * The filter box above a long list of placements (loaded apart from the first screen, with its
 * matching: it shows only past FILTER_ABOVE placements). Hands the placements that match to the
 * list, and says how many are shown, politely, as the user types.
 */
import { Caption1, makeStyles, SearchBox, tokens } from "@fluentui/react-components";
import { useEffect, useRef, useState } from "react";
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
  // What is typed and what it matches, set together: a keystroke is one render of the box and the
  // list (the result goes to the list from the input's handler, not from an effect after it).
  const [filter, setFilter] = useState<{ value: string; shown: readonly PlacedReport[] | null }>({
    value: "",
    shown: null,
  });
  const { value, shown } = filter;
  const matching = (text: string) => (text.trim() === "" ? null : filterPlacements(here, sheets, text));
  const onChange = (text: string) => {
    const next = matching(text);
    setFilter({ value: text, shown: next });
    onFiltered(next);
  };
  // The list loaded again (or a sheet renamed) while something is typed: match it again.
  const seen = useRef({ here, sheets });
  useEffect(() => {
    if (seen.current.here === here && seen.current.sheets === sheets) return;
    seen.current = { here, sheets };
    const next = value.trim() === "" ? null : filterPlacements(here, sheets, value);
    setFilter({ value, shown: next });
    onFiltered(next);
  }, [here, sheets, value, onFiltered]);
  // Gone (the list is short again): the whole list shows.
  useEffect(() => () => onFiltered(null), [onFiltered]);
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
        {shown === null
          ? ""
          : shown.length === 0
            ? `No report matches "${value.trim()}".`
            : `${shown.length} of ${here.length} shown`}
      </Caption1>
    </div>
  );
}
