/**
 * "Place a report here" (docs/pane.md): the deployment's reports by name, searched by name, the ones
 * already in this workbook marked; Place puts the chosen one at the active cell through the host
 * (the core's place flow: the cells written as a refresh writes them, then connect-workbook), with
 * the same overwrite question, and the new placement is shown as the service recorded it. Loaded
 * when the button is first pressed, not with the first screen.
 */
import { Button, Input, makeStyles, Radio, RadioGroup, tokens, useId } from "@fluentui/react-components";
import { useEffect, useMemo, useRef, useState } from "react";
import { type PlaceHost, planPlace } from "../src/core/place-flow.js";
import { reportKey, reportName } from "../src/core/placement-view.js";
import type { Report } from "../src/core/schema.js";
import type { HostKind, SpreadsheetHost } from "../src/hosts/host.js";
import { errorMessage } from "./errorMessage.js";
import { carryFocus } from "./focusRescue.js";
import { MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Spinner } from "./lazy.js";
import type { Notice, PaneState } from "./usePaneState.js";

/** At most this many reports are listed at once; the search narrows the rest. */
export const PLACE_LIST_LIMIT = 50;

const caption = { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 } as const;

const useStyles = makeStyles({
  caption,
  picker: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalS,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  label: { fontWeight: tokens.fontWeightSemibold, marginBottom: `-${tokens.spacingVerticalXS}` },
  list: { maxHeight: "240px", overflowY: "auto", minWidth: 0 },
  marker: { ...caption, color: tokens.colorNeutralForeground3 },
  hint: { ...caption, color: tokens.colorNeutralForeground3 },
  actions: { display: "flex", columnGap: tokens.spacingHorizontalS },
});

/** The host a placement is recorded for: the preview simulates an Excel workbook. */
function placeHostOf(kind: HostKind): PlaceHost {
  return kind === "sheets" ? "GOOGLE_SHEETS" : "EXCEL";
}

interface PlacePickerProps {
  host: SpreadsheetHost;
  state: PaneState;
  notify(notice: Notice): void;
  /** The picker closes: placed, or cancelled. */
  onClose(placed: boolean): void;
}

export default function PlacePicker({ host, state, notify, onClose }: PlacePickerProps) {
  const styles = useStyles();
  const markerId = useId("in-workbook");
  const searchId = useId("place-search");
  const [reports, setReports] = useState<Report[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState("");
  const [busy, setBusy] = useState(false);
  const [question, setQuestion] = useState<{ text: string; answer(yes: boolean): void } | null>(null);
  const questionRef = useRef<HTMLDivElement>(null);
  const live = useRef(state);
  live.current = state;

  useEffect(() => {
    let alive = true;
    host.listDeploymentReports?.().then(
      (list) => {
        // Folders and workbooks of the platform hold no data to place.
        if (alive) setReports(list.filter((r) => !r.type || r.type === "REPORT"));
      },
      (error: unknown) => {
        if (alive) setLoadError(errorMessage(error));
      },
    );
    return () => {
      alive = false;
    };
  }, [host]);

  useEffect(() => {
    if (question) questionRef.current?.querySelector<HTMLButtonElement>("button")?.focus();
  }, [question]);

  const inWorkbook = useMemo(() => new Set(state.here.map((p) => reportKey(p.report))), [state.here]);
  const matching = useMemo(() => {
    const words = search.trim().toLowerCase();
    return (reports ?? []).filter((r) => !words || r.name.toLowerCase().includes(words));
  }, [reports, search]);
  const shown = matching.slice(0, PLACE_LIST_LIMIT);

  async function place() {
    const report = reports?.find((r) => reportKey(r) === chosen);
    const context = live.current.context;
    if (!report || !context || !host.placeReport) return;
    const { here, epoch } = live.current.liveWorkbook();
    const plan = planPlace(
      report,
      {
        workbookId: context.workbookId,
        workbookName: context.workbookName,
        sheetId: context.sheetId,
        sheetName: context.sheetName,
        cell: context.cell,
        host: placeHostOf(host.kind),
      },
      here,
    );
    if (plan.kind === "refused") {
      notify({ intent: "warning", message: plan.message });
      return;
    }
    setBusy(true);
    try {
      const outcome = await host.placeReport(plan.item, {
        confirmOverwrite: (text) =>
          new Promise<boolean>((resolve) => {
            setQuestion({
              text,
              answer(yes) {
                setQuestion(null);
                resolve(yes);
              },
            });
          }),
      });
      if (outcome.status === "placed") {
        live.current.applyReport(outcome.report, epoch);
        notify({ intent: "success", message: outcome.message });
        onClose(true);
        return;
      }
      notify({
        intent: outcome.reason === "would-overwrite" ? "warning" : "error",
        message: outcome.message,
      });
    } catch (error) {
      notify({ intent: "error", message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of the picker's controls, not a form's fieldset
    <div className={styles.picker} role="group" aria-label="Place a report here">
      <label htmlFor={searchId} className={styles.label}>
        Search reports
      </label>
      <Input
        id={searchId}
        type="search"
        value={search}
        autoFocus
        onChange={(_, data) => setSearch(data.value)}
        disabled={busy}
      />
      <span id={markerId} hidden>
        Already placed in this workbook
      </span>
      {loadError ? (
        <span role="alert" className={styles.caption}>
          The reports could not be listed. {loadError}
        </span>
      ) : reports === null ? (
        <Spinner size="tiny" label="Loading the reports…" />
      ) : shown.length === 0 ? (
        <span className={styles.hint}>
          {reports.length === 0 ? "This deployment has no reports." : "No report's name matches."}
        </span>
      ) : (
        <div className={styles.list}>
          <RadioGroup aria-label="Reports" value={chosen} onChange={(_, data) => setChosen(data.value)}>
            {shown.map((r) => {
              const key = reportKey(r);
              const here = inWorkbook.has(key);
              return (
                <Radio
                  key={key}
                  value={key}
                  disabled={busy}
                  aria-describedby={here ? markerId : undefined}
                  label={
                    <>
                      <bdi>{reportName(r)}</bdi>
                      {here ? (
                        <span className={styles.marker} aria-hidden>
                          {" "}
                          · in this workbook
                        </span>
                      ) : null}
                    </>
                  }
                />
              );
            })}
          </RadioGroup>
        </div>
      )}
      {matching.length > shown.length ? (
        <span className={styles.hint}>
          Showing {shown.length} of {matching.length} reports: search to narrow.
        </span>
      ) : null}
      {question ? (
        <div ref={questionRef}>
          <MessageBar intent="warning" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>Overwrite cells?</MessageBarTitle>
              {question.text} Nothing is written before you answer.
            </MessageBarBody>
            <MessageBarActions>
              <Button
                ref={carryFocus("place-overwrite")}
                appearance="primary"
                size="small"
                onClick={() => question.answer(true)}
              >
                Overwrite
              </Button>
              <Button ref={carryFocus("place-cancel")} size="small" onClick={() => question.answer(false)}>
                Cancel
              </Button>
            </MessageBarActions>
          </MessageBar>
        </div>
      ) : null}
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabledFocusable={!chosen || busy}
          icon={busy ? <Spinner size="tiny" aria-hidden /> : undefined}
          onClick={() => void place()}
        >
          Place
        </Button>
        <Button
          disabled={busy && question === null}
          onClick={() => {
            question?.answer(false);
            onClose(false);
          }}
        >
          Cancel
        </Button>
      </div>
    </div>
  );
}
