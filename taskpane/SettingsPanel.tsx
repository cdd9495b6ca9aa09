/**
 * Settings: where the tenant is, the API key, the deployment, the agent, and the identity the agent
 * answers for. Secrets are write-only: the pane only learns whether one is set, and an empty field
 * keeps the stored one. Stored per user by the host, never in the document.
 */
import {
  Button,
  Caption1,
  Checkbox,
  Dropdown,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  makeStyles,
  Option,
  Spinner,
  Textarea,
  tokens,
  typographyStyles,
} from "@fluentui/react-components";
import { type FormEvent, type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";
import type { Deployment } from "../src/core/schema.js";
import { secretsClearedNotice } from "../src/core/settings.js";
import { requireSecureUrl } from "../src/core/transport.js";
import type { PublicSettings, SettingsPatch, SpreadsheetHost } from "../src/hosts/host.js";
import { errorField, errorKind, errorMessage, type SettingsField, settingsFieldFor } from "./errorMessage.js";
import { SecretInput } from "./SecretInput.js";
import { changed, hostOf, isSecure, secretHint, secretOf, storedWhere } from "./settingsForm.js";
import { HEADER_SCROLL_MARGIN } from "./stickyHeader.js";
import { isConnected } from "./usePaneState.js";

const useStyles = makeStyles({
  form: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalM,
    // A field focused from the keyboard is scrolled into view above the sticky Save and Back.
    "& input, & textarea, & button, & [tabindex]": { scrollMarginBottom: "64px" },
  },
  // Focused when Settings opens; scrolled to below the sticky header, never under it.
  heading: {
    ...typographyStyles.subtitle2,
    margin: 0,
    scrollMarginTop: HEADER_SCROLL_MARGIN,
    outlineStyle: "none",
  },
  secretActions: { display: "flex", alignItems: "center", columnGap: tokens.spacingHorizontalS },
  question: { flexBasis: "100%", margin: `0 0 ${tokens.spacingVerticalXS}` },
  // A long chat URL wraps, so it can be read whole in a narrow pane.
  wrapUrl: { wordBreak: "break-all" },
  group: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalS,
    margin: 0,
    padding: 0,
    border: "none",
    minWidth: 0,
  },
  legend: {
    padding: 0,
    marginBottom: tokens.spacingVerticalXS,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground2,
  },
  actions: { display: "flex", columnGap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  // Save and Back stay in view at the bottom of the pane while the form scrolls under them.
  footer: {
    position: "sticky",
    bottom: 0,
    zIndex: 1,
    display: "flex",
    columnGap: tokens.spacingHorizontalS,
    flexWrap: "wrap",
    margin: `0 calc(-1 * ${tokens.spacingHorizontalM}) calc(-1 * ${tokens.spacingHorizontalM})`,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  intro: { color: tokens.colorNeutralForeground2 },
  fullWidth: { minWidth: 0, width: "100%" },
});

interface SettingsPanelProps {
  host: SpreadsheetHost;
  settings: PublicSettings | null;
  /** True on first run: nothing is set yet, so there is nothing to go back to. */
  firstRun: boolean;
  onSaved(settings: PublicSettings): void;
  onClose(): void;
  /** The field to put focus in when Settings opens (from an "Open settings" action). */
  focusField?: SettingsField;
  /** The failure that field is opened to fix: shown at the field until the user saves. */
  focusMessage?: string;
}

type FieldErrors = Partial<Record<SettingsField, string>>;
type SecretField = "apiKey" | "agentApiKey" | "scimToken";

export default function SettingsPanel({
  host,
  settings,
  firstRun,
  onSaved,
  onClose,
  focusField,
  focusMessage,
}: SettingsPanelProps) {
  const styles = useStyles();
  const headingId = useId();
  const [tenantUrl, setTenantUrl] = useState(settings?.tenantUrl ?? "");
  // Secrets are read from their fields on save, never kept in state: a controlled input's value
  // is mirrored into its `value` attribute, where the DOM (and anything reading it) would see it.
  const apiKeyRef = useRef<HTMLInputElement>(null);
  const agentApiKeyRef = useRef<HTMLInputElement>(null);
  const scimTokenRef = useRef<HTMLInputElement>(null);
  const tenantUrlRef = useRef<HTMLInputElement>(null);
  const chatUrlRef = useRef<HTMLTextAreaElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const savedRef = useRef<HTMLDivElement>(null);
  const discardRef = useRef<HTMLButtonElement>(null);
  const backRef = useRef<HTMLButtonElement>(null);
  // Where focus goes when the question closes: it held focus, and its buttons go with it.
  const returnFocus = useRef(false);
  const deploymentRef = useRef<HTMLButtonElement>(null);
  // In the form's order: a check that fails on several goes to the first.
  const fieldRefs: Record<SettingsField, RefObject<HTMLElement | null>> = {
    tenantUrl: tenantUrlRef,
    apiKey: apiKeyRef,
    deploymentId: deploymentRef,
    chatUrl: chatUrlRef,
    agentApiKey: agentApiKeyRef,
    scimToken: scimTokenRef,
  };
  /** Puts focus in a field and brings it into view (Settings is taller than the pane). */
  const goToField = (field: SettingsField) => {
    const input = fieldRefs[field].current;
    input?.focus();
    input?.scrollIntoView?.({ block: "center" });
  };
  const [deploymentId, setDeploymentId] = useState<number | null>(settings?.deploymentId ?? null);
  const [chatUrl, setChatUrl] = useState(settings?.chatUrl ?? "");
  // The chat URL the user ticked "I trust it" for: a confirmation covers exactly that URL, so a
  // new URL starts unticked (docs/security.md, What is sent where).
  const [trustedChatUrl, setTrustedChatUrl] = useState<string | null>(
    settings?.chatUrlConfirmed ? settings.chatUrl : null,
  );
  const trustChatUrl = trustedChatUrl !== null && trustedChatUrl === chatUrl;
  const [externalId, setExternalId] = useState(settings?.externalId ?? "");
  const [email, setEmail] = useState(settings?.email ?? "");
  const [notice, setNotice] = useState<string | null>(null);
  // What is stored: a save sends only what differs from it (and checks only that), so an untouched
  // field further down never blocks a change above it.
  const [stored, setStored] = useState<PublicSettings | null>(settings);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(() =>
    focusField && focusMessage ? { [focusField]: focusMessage } : {},
  );
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  // Stored secrets the user asked to remove: sent as empty on the next Save.
  const [clearing, setClearing] = useState<ReadonlySet<SecretField>>(new Set());
  // Back (or Escape) with changes not saved: the footer asks before they are thrown away.
  const [confirmLeave, setConfirmLeave] = useState(false);

  const [deployments, setDeployments] = useState<Deployment[] | null>(null);
  const [deploymentsError, setDeploymentsError] = useState<string | null>(null);
  const [deploymentsLoading, setDeploymentsLoading] = useState(false);
  // The field whose value kept the deployments from loading (a refused key, a tenant not reached).
  const [keyRefused, setKeyRefused] = useState<"apiKey" | "tenantUrl" | null>(null);
  const connected = isConnected(settings);

  const loadDeployments = useCallback(async () => {
    setDeploymentsLoading(true);
    setDeploymentsError(null);
    try {
      setDeployments(await host.platform.listDeployments());
      setKeyRefused(null);
    } catch (error) {
      // A refused key or an unreachable tenant is not the deployment's fault: the message goes to
      // the field that fixes it, and Deployment only says why its list is empty.
      const field = settingsFieldFor(error);
      if (field === "apiKey" || field === "tenantUrl") {
        setKeyRefused(field);
        setFieldErrors((now) => ({ ...now, [field]: errorMessage(error) }));
      } else setDeploymentsError(errorMessage(error));
    } finally {
      setDeploymentsLoading(false);
    }
  }, [host]);

  // Opened from an "Open settings" action: at the field that fixes what went wrong. Opened by the
  // gear: at the heading, so Escape and Tab start from inside Settings, not from the page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when Settings opens at a field
  useEffect(() => {
    if (focusField) goToField(focusField);
    else if (!firstRun) {
      headingRef.current?.focus({ preventScroll: true });
      headingRef.current?.scrollIntoView?.({ block: "start" });
    }
  }, [focusField]);

  // The saved message is brought into view: it sits at the end of a form taller than the pane.
  useEffect(() => {
    if (saved) savedRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [saved]);

  // The question replaces Save and Back: focus goes to its first answer, never to the page.
  useEffect(() => {
    if (confirmLeave) discardRef.current?.focus();
    else if (returnFocus.current) backRef.current?.focus();
    returnFocus.current = false;
  }, [confirmLeave]);

  /** Keep editing (or Escape while asked): the question goes, focus goes back to Back. */
  const keepEditing = () => {
    returnFocus.current = true;
    setConfirmLeave(false);
  };

  // Deployments can be listed once a tenant URL and an API key are stored.
  useEffect(() => {
    if (connected) void loadDeployments();
  }, [connected, loadDeployments]);

  const validate = (): boolean => {
    const errors: FieldErrors = {};
    const check = (field: SettingsField, value: string, what: string) => {
      if (value.trim() === "") return;
      try {
        requireSecureUrl(value.trim(), what);
      } catch (error) {
        errors[field] = errorMessage(error);
      }
    };
    if (tenantUrl.trim() === "") {
      errors.tenantUrl = "Enter the tenant URL, for example https://your-tenant.example.com.";
    } else if (changed(tenantUrl, stored?.tenantUrl)) {
      check("tenantUrl", tenantUrl, "The tenant URL");
    }
    if (changed(chatUrl, stored?.chatUrl)) check("chatUrl", chatUrl, "The agent chat URL");
    setFieldErrors(errors);
    const first = (Object.keys(fieldRefs) as SettingsField[]).find((f) => errors[f]);
    if (first) goToField(first);
    return first === undefined;
  };

  // A chat URL off the tenant's registrable domain (or with no tenant to compare) needs the user's
  // explicit trust before the agent key may be sent there. The host judges (with the Public Suffix
  // List, which the pane does not load): its refusal, or a confirmation already stored, shows the
  // choice.
  // The refusal, like the confirmation, is about one URL: another URL shows no choice (and no
  // reason) until the host has judged it.
  const [refusedChatUrl, setRefusedChatUrl] = useState<string | null>(null);
  const chatHost = hostOf(chatUrl);
  const chatNeedsTrust =
    chatHost !== null &&
    (refusedChatUrl === chatUrl || (stored?.chatUrlConfirmed === true && chatUrl === stored.chatUrl));

  /** Whether the form holds anything Save would send. */
  const isDirty = (): boolean => {
    const text = (value: string, before: string | undefined) => value.trim() !== (before ?? "").trim();
    return (
      text(tenantUrl, stored?.tenantUrl) ||
      text(chatUrl, stored?.chatUrl) ||
      text(externalId, stored?.externalId) ||
      text(email, stored?.email) ||
      deploymentId !== (stored?.deploymentId ?? null) ||
      (chatNeedsTrust &&
        trustChatUrl !== (stored?.chatUrlConfirmed === true && stored.chatUrl === chatUrl)) ||
      clearing.size > 0 ||
      [apiKeyRef, agentApiKeyRef, scimTokenRef].some((field) => secretOf(field) !== "")
    );
  };

  /** Back and Escape: straight back when nothing changed; otherwise the footer asks first. */
  const leave = () => {
    if (isDirty()) setConfirmLeave(true);
    else onClose();
  };

  /** Done on the saved message: what changed since is saved first, never dropped. */
  const done = async () => {
    if (!isDirty()) return onClose();
    if (await save()) onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await save();
  };

  /** Saves what changed; true when the host stored it. */
  const save = async (): Promise<boolean> => {
    if (saving) return false;
    setConfirmLeave(false);
    setSaved(false);
    setSaveError(null);
    setNotice(null);
    if (!validate()) return false;
    const patch: SettingsPatch = {};
    if (changed(tenantUrl, stored?.tenantUrl)) patch.tenantUrl = tenantUrl.trim();
    if (!stored || deploymentId !== stored.deploymentId) patch.deploymentId = deploymentId;
    if (changed(chatUrl, stored?.chatUrl)) patch.chatUrl = chatUrl.trim();
    if (changed(externalId, stored?.externalId)) patch.externalId = externalId.trim();
    if (changed(email, stored?.email)) patch.email = email.trim();
    if (chatNeedsTrust) patch.confirmChatUrl = trustChatUrl;
    // An empty secret field keeps the stored secret.
    const apiKey = secretOf(apiKeyRef);
    const agentApiKey = secretOf(agentApiKeyRef);
    const scimToken = secretOf(scimTokenRef);
    if (apiKey !== "") patch.apiKey = apiKey;
    if (agentApiKey !== "") patch.agentApiKey = agentApiKey;
    if (scimToken !== "") patch.scimToken = scimToken;
    // A secret the user removed is sent empty, which the store takes as "none" (a new one typed
    // instead wins).
    for (const field of clearing) if (patch[field] === undefined) patch[field] = "";
    // A key is for the URL shown beside it: the store refuses it if another pane has changed that
    // URL since this form was filled (core/settings.ts, requireSeenUrls).
    if ((apiKey !== "" || scimToken !== "") && patch.tenantUrl === undefined) {
      patch.seenTenantUrl = tenantUrl.trim();
    }
    if (agentApiKey !== "" && patch.chatUrl === undefined) patch.seenChatUrl = chatUrl.trim();
    setSaving(true);
    try {
      const next = await host.platform.saveSettings(patch);
      for (const field of [apiKeyRef, agentApiKeyRef, scimTokenRef]) {
        if (field.current) field.current.value = "";
      }
      setNotice(secretsClearedNotice(settings, next));
      setTrustedChatUrl(next.chatUrlConfirmed ? next.chatUrl : null);
      setRefusedChatUrl(null);
      setTenantUrl(next.tenantUrl);
      setChatUrl(next.chatUrl);
      setExternalId(next.externalId);
      setEmail(next.email);
      setDeploymentId(next.deploymentId);
      setStored(next);
      setClearing(new Set());
      setSaved(true);
      onSaved(next);
      return true;
    } catch (error) {
      const message = errorMessage(error);
      setSaveError(message);
      // The host refused a chat URL that is a secure address: it is the trust check that failed.
      if (errorKind(error) === "insecure-url" && errorField(error) === "chatUrl" && isSecure(chatUrl)) {
        setRefusedChatUrl(chatUrl);
      }
      const field = settingsFieldFor(error, "settings");
      if (field) {
        setFieldErrors({ [field]: message });
        goToField(field);
      }
      return false;
    } finally {
      setSaving(false);
    }
  };

  /** A stored secret's hint and its Remove / Keep choice. */
  const secretHintOf = (field: SecretField, isSet: boolean | undefined, what: string, setText: string) => {
    if (!isSet)
      return field === "scimToken" ? "Optional: lets an admin preview the agent as another user." : undefined;
    const removing = clearing.has(field);
    const toggle = () =>
      setClearing((now) => {
        const next = new Set(now);
        if (removing) next.delete(field);
        else next.add(field);
        return next;
      });
    return (
      <span className={styles.secretActions}>
        <span>{removing ? `The ${what} will be removed when you save.` : setText}</span>
        <Button size="small" appearance="transparent" onClick={toggle}>
          {removing ? `Keep the ${what}` : `Remove the ${what}`}
        </Button>
      </span>
    );
  };

  const errorOf = (field: SettingsField) =>
    ({
      validationMessage: fieldErrors[field],
      validationState: fieldErrors[field] ? "error" : "none",
    }) as const;

  const deploymentName = deployments?.find((d) => d.id === deploymentId)?.name ?? "";
  const deploymentHint = !connected
    ? "Save the tenant URL and API key first; then pick a deployment here."
    : deploymentsLoading
      ? "Loading deployments…"
      : keyRefused
        ? `Deployments are listed once the ${keyRefused === "apiKey" ? "API key is accepted" : "tenant is reached"}.`
        : undefined;

  return (
    <form
      className={styles.form}
      onSubmit={submit}
      onKeyDown={(event) => {
        // Escape goes back, unless a control used it (an open list) or there is nothing to go back to.
        if (event.key !== "Escape" || firstRun || event.defaultPrevented) return;
        if ((event.target as HTMLElement).getAttribute?.("aria-expanded") === "true") return;
        event.preventDefault();
        // Escape while asked: keep editing.
        if (confirmLeave) keepEditing();
        else leave();
      }}
      aria-labelledby={headingId}
      noValidate
    >
      <h2 id={headingId} className={styles.heading} ref={headingRef} tabIndex={-1}>
        Settings
      </h2>
      {firstRun ? (
        <MessageBar intent="info">
          <MessageBarBody>
            Connect to your tenant: enter the tenant URL and an API key, save, then pick a deployment.
          </MessageBarBody>
        </MessageBar>
      ) : (
        <Caption1 className={styles.intro}>{storedWhere(host.kind)}</Caption1>
      )}

      <fieldset className={styles.group}>
        <legend className={styles.legend}>Connection</legend>
        <Field
          label="Tenant URL"
          {...errorOf("tenantUrl")}
          hint="For example, https://your-tenant.example.com"
        >
          <Input
            ref={tenantUrlRef}
            type="url"
            aria-required
            value={tenantUrl}
            onChange={(_, d) => setTenantUrl(d.value)}
            autoComplete="url"
            spellCheck={false}
          />
        </Field>
        <Field
          label="API key"
          {...errorOf("apiKey")}
          hint={secretHintOf("apiKey", stored?.apiKeySet, "API key", "A key is set.")}
        >
          <SecretInput inputRef={apiKeyRef} placeholder={secretHint(stored?.apiKeySet)} />
        </Field>
        <Field
          label="Deployment"
          hint={deploymentHint}
          validationMessage={deploymentsError ?? fieldErrors.deploymentId}
          validationState={deploymentsError || fieldErrors.deploymentId ? "error" : "none"}
        >
          <Dropdown
            ref={deploymentRef}
            className={styles.fullWidth}
            placeholder={deployments && deployments.length === 0 ? "No deployments" : "Pick a deployment"}
            value={deploymentName || (deploymentId != null ? `Deployment ${deploymentId}` : "")}
            selectedOptions={deploymentId != null ? [String(deploymentId)] : []}
            onOptionSelect={(_, d) => setDeploymentId(d.optionValue ? Number(d.optionValue) : null)}
            disabled={!connected}
          >
            {(deployments ?? []).map((d) => (
              <Option key={d.id} value={String(d.id)} text={d.name}>
                {d.name}
              </Option>
            ))}
          </Dropdown>
        </Field>
        {deploymentsError ? (
          <div className={styles.actions}>
            <Button size="small" onClick={() => void loadDeployments()}>
              Retry
            </Button>
          </div>
        ) : null}
      </fieldset>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>Agent</legend>
        <Field
          label="Agent chat URL"
          {...errorOf("chatUrl")}
          hint="From the agent's settings; it ends in /chat/stream-chat-state."
        >
          <Textarea
            ref={chatUrlRef}
            className={styles.wrapUrl}
            resize="none"
            rows={Math.min(4, Math.max(1, Math.ceil(chatUrl.length / 34)))}
            value={chatUrl}
            onKeyDown={(event) => {
              // One line of text: Enter saves, as in every other field.
              if (event.key !== "Enter") return;
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }}
            onChange={(_, d) => {
              setChatUrl(d.value.replace(/[\r\n]+/g, ""));
              // A refusal names the URL it was about: another URL is not shown as refused.
              const refusal = fieldErrors.chatUrl;
              if (refusal !== undefined) {
                setFieldErrors(({ chatUrl: _refused, ...rest }) => rest);
                setSaveError((shown) => (shown === refusal ? null : shown));
              }
            }}
            spellCheck={false}
          />
        </Field>
        {chatNeedsTrust ? (
          <Checkbox
            checked={trustChatUrl}
            onChange={(_, d) => setTrustedChatUrl(d.checked === true ? chatUrl : null)}
            label={
              tenantUrl.trim()
                ? `${chatHost} is not on the tenant's domain. I trust it: send the agent API key there.`
                : `No tenant URL to check ${chatHost} against. I trust it: send the agent API key there.`
            }
          />
        ) : null}
        <Field
          label="Agent API key"
          {...errorOf("agentApiKey")}
          hint={secretHintOf("agentApiKey", stored?.agentApiKeySet, "agent API key", "A key is set.")}
        >
          <SecretInput inputRef={agentApiKeyRef} placeholder={secretHint(stored?.agentApiKeySet)} />
        </Field>
        <Field label="External ID" hint="The identity the agent answers for.">
          <Input value={externalId} onChange={(_, d) => setExternalId(d.value)} spellCheck={false} />
        </Field>
        <Field label="E-mail" hint="Optional: the e-mail the agent may see for you.">
          <Input type="email" value={email} onChange={(_, d) => setEmail(d.value)} autoComplete="email" />
        </Field>
        <Field
          label="SCIM token"
          {...errorOf("scimToken")}
          hint={secretHintOf(
            "scimToken",
            stored?.scimTokenSet,
            "SCIM token",
            "A token is set: you can preview the agent as another user.",
          )}
        >
          <SecretInput
            inputRef={scimTokenRef}
            placeholder={stored?.scimTokenSet ? "A token is set (leave empty to keep it)" : "Not set"}
          />
        </Field>
      </fieldset>

      {saveError ? (
        <MessageBar intent="error">
          <MessageBarBody>{saveError}</MessageBarBody>
        </MessageBar>
      ) : null}
      {notice ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>{notice}</MessageBarBody>
        </MessageBar>
      ) : null}
      {saved && !saveError ? (
        <MessageBar intent="success" ref={savedRef} politeness="polite">
          <MessageBarBody>Settings saved.</MessageBarBody>
          {!firstRun && connected ? (
            <MessageBarActions>
              <Button size="small" onClick={() => void done()}>
                Done
              </Button>
            </MessageBarActions>
          ) : null}
        </MessageBar>
      ) : null}

      <div className={styles.footer}>
        {confirmLeave ? (
          <>
            <p className={styles.question} role="alert">
              Your changes are not saved.
            </p>
            <Button ref={discardRef} type="button" onClick={onClose}>
              Discard changes
            </Button>
            <Button type="button" appearance="primary" onClick={keepEditing}>
              Keep editing
            </Button>
          </>
        ) : (
          <>
            <Button
              type="submit"
              appearance="primary"
              // Focusable while it saves: a disabled button would drop focus to the page.
              disabledFocusable={saving}
              icon={saving ? <Spinner size="tiny" /> : undefined}
            >
              Save
            </Button>
            {!firstRun ? (
              <Button ref={backRef} type="button" onClick={leave}>
                Back
              </Button>
            ) : null}
          </>
        )}
      </div>
    </form>
  );
}
