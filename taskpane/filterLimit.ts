/** Lists of placements longer than this get a filter box (PlacementFilter.tsx, loaded apart). */
export const FILTER_ABOVE = 10;
