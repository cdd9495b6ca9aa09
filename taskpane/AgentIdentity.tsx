/**
 * Who the agent answers for: the identity in use (always shown above the conversation), and for an
 * admin with a SCIM token, "See the agent as another user": a user from the tenant (paged) and user
 * attributes, to preview what row-level security lets that user see. Nothing here is saved.
 */
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Button,
  Caption1,
  Dropdown,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  makeStyles,
  mergeClasses,
  Option,
  Spinner,
  Text,
  tokens,
} from "@fluentui/react-components";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AttributeRow } from "../src/core/user-attributes.js";
import type { ScimUser, SpreadsheetHost } from "../src/hosts/host.js";
import { errorMessage } from "./errorMessage.js";
import { AddIcon, RemoveIcon } from "./icons.js";

const PAGE_SIZE = 20;

export interface AgentIdentityValue {
  externalId: string;
  email: string;
  attributes: AttributeRow[];
  /** A display name when previewing another user; null for the user's own identity. */
  previewing: string | null;
}

const useStyles = makeStyles({
  who: {
    display: "flex",
    alignItems: "center",
    flexWrap: "wrap",
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXXS,
    minWidth: 0,
  },
  whoText: { minWidth: 0, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
  panel: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
  },
  pager: { display: "flex", alignItems: "center", columnGap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
  attrRow: {
    display: "grid",
    gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr) auto",
    columnGap: tokens.spacingHorizontalXS,
    alignItems: "center",
  },
  fullWidth: { minWidth: 0, width: "100%" },
  fieldset: { border: "none", margin: 0, padding: 0, minWidth: 0 },
});

/** "ann@example.com", or the external id, or a hint when neither is set. */
function identityLabel(identity: { externalId: string; email: string }): string {
  return identity.email.trim() || identity.externalId.trim() || "no identity set";
}

export function AgentIdentityLine({ identity, onReset }: { identity: AgentIdentityValue; onReset(): void }) {
  const styles = useStyles();
  const label = identityLabel(identity);
  return (
    <div className={styles.who}>
      <Text size={200} className={styles.whoText} title={label}>
        Answering as <strong>{label}</strong>
      </Text>
      {identity.previewing ? (
        <>
          <Badge appearance="tint" color="brand" size="small">
            Preview
          </Badge>
          <Button size="small" appearance="transparent" onClick={onReset}>
            Back to me
          </Button>
        </>
      ) : null}
    </div>
  );
}

interface AnotherUserProps {
  host: SpreadsheetHost;
  scimTokenSet: boolean;
  identity: AgentIdentityValue;
  onChange(identity: AgentIdentityValue): void;
}

export function SeeAsAnotherUser({ host, scimTokenSet, identity, onChange }: AnotherUserProps) {
  const styles = useStyles();
  return (
    <Accordion collapsible>
      <AccordionItem value="another-user">
        <AccordionHeader size="small">See the agent as another user</AccordionHeader>
        <AccordionPanel>
          <div className={styles.panel}>
            {scimTokenSet ? (
              <UserPicker
                host={host}
                selectedExternalId={identity.previewing ? identity.externalId : null}
                onPick={(user) =>
                  onChange({
                    ...identity,
                    externalId: user.userName,
                    email: user.email ?? (user.userName.includes("@") ? user.userName : ""),
                    previewing: user.displayName || user.userName,
                  })
                }
              />
            ) : (
              <Caption1 className={styles.muted}>
                Add a SCIM token in Settings to pick from your tenant's users.
              </Caption1>
            )}
            <AttributesEditor
              rows={identity.attributes}
              onChange={(attributes) =>
                onChange({
                  ...identity,
                  attributes,
                  previewing: identity.previewing ?? identityLabel(identity),
                })
              }
            />
          </div>
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}

function userLabel(u: ScimUser): string {
  const name = u.displayName || u.userName;
  return u.active ? name : `${name} (inactive)`;
}

function UserPicker({
  host,
  selectedExternalId,
  onPick,
}: {
  host: SpreadsheetHost;
  selectedExternalId: string | null;
  onPick(user: ScimUser): void;
}) {
  const styles = useStyles();
  const [users, setUsers] = useState<ScimUser[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [nextIndex, setNextIndex] = useState(1);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const loadPage = useCallback(
    async (startIndex: number) => {
      setLoading(true);
      setError(null);
      try {
        const page = await host.platform.listScimUsers({ count: PAGE_SIZE, startIndex });
        setUsers((prev) => {
          const seen = new Set(prev.map((u) => u.id));
          return startIndex === 1 ? page.users : [...prev, ...page.users.filter((u) => !seen.has(u.id))];
        });
        setTotal(page.totalResults);
        setNextIndex(page.startIndex + page.users.length);
      } catch (e) {
        setError(errorMessage(e));
      } finally {
        setLoading(false);
      }
    },
    [host],
  );

  // The first page once (StrictMode runs effects twice in development).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void loadPage(1);
  }, [loadPage]);

  const selected = users.find((u) => u.userName === selectedExternalId) ?? null;
  const more = total != null && users.length < total;

  return (
    <>
      <Field label="User">
        <Dropdown
          className={styles.fullWidth}
          placeholder={loading && users.length === 0 ? "Loading users…" : "Pick a user"}
          value={selected ? userLabel(selected) : ""}
          selectedOptions={selected ? [selected.id] : []}
          onOptionSelect={(_, d) => {
            const user = users.find((u) => u.id === d.optionValue);
            if (user) onPick(user);
          }}
        >
          {users.map((u) => (
            <Option key={u.id} value={u.id} text={userLabel(u)}>
              {userLabel(u)}
              {u.email && u.email !== u.displayName ? ` · ${u.email}` : ""}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {error ? (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={() => void loadPage(users.length === 0 ? 1 : nextIndex)}>
              Retry
            </Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      <div className={styles.pager}>
        {total != null ? (
          <Caption1 className={styles.muted}>
            {users.length} of {total} users
          </Caption1>
        ) : null}
        {loading ? <Spinner size="extra-tiny" aria-label="Loading users" /> : null}
        {more && !loading ? (
          <Button size="small" onClick={() => void loadPage(nextIndex)}>
            More
          </Button>
        ) : null}
      </div>
    </>
  );
}

function AttributesEditor({
  rows,
  onChange,
}: {
  rows: AttributeRow[];
  onChange(rows: AttributeRow[]): void;
}) {
  const styles = useStyles();
  const box = useRef<HTMLFieldSetElement>(null);
  // Where focus goes once the rows have re-rendered: an added row's name, or after a removal the
  // row that took the removed one's place (else the one before it, else Add attribute). Never the page.
  const focusNext = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of the rows
  useEffect(() => {
    const label = focusNext.current;
    focusNext.current = null;
    if (label === null) return;
    const target = [...(box.current?.querySelectorAll<HTMLElement>("input, button") ?? [])].find(
      (el) => el.getAttribute("aria-label") === label || el.textContent?.trim() === label,
    );
    target?.focus();
  }, [rows]);
  const update = (index: number, patch: Partial<AttributeRow>) =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const add = () => {
    focusNext.current = `Attribute ${rows.length + 1} name`;
    onChange([...rows, { name: "", value: "" }]);
  };
  const remove = (index: number) => {
    const left = rows.length - 1;
    focusNext.current = left === 0 ? "Add attribute" : `Remove attribute ${Math.min(index, left - 1) + 1}`;
    onChange(rows.filter((_, j) => j !== index));
  };
  return (
    <fieldset ref={box} className={mergeClasses(styles.panel, styles.fieldset)}>
      <legend>
        <Text size={200} weight="semibold">
          User attributes
        </Text>
      </legend>
      {rows.map((row, i) => (
        // Rows have no identity of their own; the index is stable while editing.
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and never reordered
        <div key={i} className={styles.attrRow}>
          <Input
            aria-label={`Attribute ${i + 1} name`}
            placeholder="Name"
            value={row.name}
            onChange={(_, d) => update(i, { name: d.value })}
            className={styles.fullWidth}
          />
          <Input
            aria-label={`Attribute ${i + 1} value`}
            placeholder="Value"
            value={row.value}
            onChange={(_, d) => update(i, { value: d.value })}
            className={styles.fullWidth}
          />
          <Button
            appearance="subtle"
            size="small"
            icon={<RemoveIcon />}
            aria-label={`Remove attribute ${i + 1}`}
            onClick={() => remove(i)}
          />
        </div>
      ))}
      <Caption1 className={styles.muted}>
        Values: 42 is a number, true or false a yes/no, "a, b" a list; anything else is text.
      </Caption1>
      <div>
        <Button size="small" icon={<AddIcon />} onClick={add}>
          Add attribute
        </Button>
      </div>
    </fieldset>
  );
}
