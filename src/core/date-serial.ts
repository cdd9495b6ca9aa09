/**
 * Dates as both spreadsheet hosts store them: a serial number of days since 1899-12-30, the time of
 * day as its fraction (2024-01-01T12:00 is 45292.5). Excel and Google Sheets share this count from
 * 1900-03-01 on; before that Excel counts a 29 February 1900 that never was, so the add-in writes
 * earlier dates as text (docs/decisions.md). One conversion here, so the grid a host writes and the
 * checksum of what it reads back agree.
 */

const MS_PER_DAY = 86_400_000;
/** 1970-01-01 as a serial number. */
const UNIX_EPOCH_SERIAL = 25_569;
/** 1900-03-01, the first day both hosts count alike. */
export const FIRST_SERIAL = 61;
/** 9999-12-31, the last day Excel shows. */
const LAST_SERIAL = 2_958_465;

// A local ISO date or date-time as the data API sends it (2024-01-01T00:00:00.000); a zone, when
// present, is ignored: the wall-clock time is what the report shows.
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The serial number of a local ISO date or date-time, or null when the text is not one, or falls
 * outside 1900-03-01 .. 9999-12-31 (the grid then keeps the text as it came).
 */
export function excelDateSerial(iso: string): number | null {
  const m = ISO_DATE.exec(iso);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] ? Number(m[4]) : 0;
  const minute = m[5] ? Number(m[5]) : 0;
  const second = m[6] ? Number(m[6]) : 0;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, "0")) : 0;
  // Date.UTC reads the years 0-99 as 1900-1999; those years are before the first serial anyway.
  if (year < 1900) return null;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const dayStart = Date.UTC(year, month - 1, day);
  // Date.UTC rolls 2024-02-30 over into March: a day the month does not have is not a date.
  if (new Date(dayStart).getUTCDate() !== day) return null;
  const serial = utcMsToSerial(dayStart + ((hour * 60 + minute) * 60 + second) * 1000 + ms);
  return serial >= FIRST_SERIAL && serial < LAST_SERIAL + 1 ? serial : null;
}

/**
 * The serial number of a JS Date, read as the wall-clock time of the runtime's own time zone (its
 * `getHours()`, not `getUTCHours()`): Google Sheets' `getValues()` gives a date cell as the Date of
 * that wall-clock time in the script's time zone. A host whose script and spreadsheet time zones
 * differ converts its dates itself (the checksum's `dateSerial` option).
 */
export function dateToSerial(date: Date): number {
  const t = date.getTime();
  if (Number.isNaN(t)) return Number.NaN;
  return utcMsToSerial(
    Date.UTC(
      date.getFullYear(),
      date.getMonth(),
      date.getDate(),
      date.getHours(),
      date.getMinutes(),
      date.getSeconds(),
      date.getMilliseconds(),
    ),
  );
}

/** The serial number of a wall-clock time given as milliseconds of `Date.UTC(...)`. */
export function utcMsToSerial(ms: number): number {
  return ms / MS_PER_DAY + UNIX_EPOCH_SERIAL;
}
