/**
 * Settings: where the tenant is, the API key, the deployment, the agent, and the identity the agent
 * answers for. Secrets are write-only: the pane only learns whether one is set, and an empty field
 * keeps the stored one. Stored per user by the host, never in the document.
 */
import {
  Button,
  Caption1,
  Dropdown,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  makeStyles,
  Option,
  Spinner,
  Subtitle2,
  tokens,
} from "@fluentui/react-components";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import type { Deployment } from "../src/core/schema.js";
import { requireSecureUrl } from "../src/core/transport.js";
import type { PublicSettings, SettingsPatch, SpreadsheetHost } from "../src/hosts/host.js";
import { errorMessage } from "./errorMessage.js";
import { isConnected } from "./usePaneState.js";

const useStyles = makeStyles({
  form: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalM },
  heading: { margin: 0 },
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
}

type FieldName = "tenantUrl" | "chatUrl";

/** The placeholder of a secret field: whether one is stored, never the secret. */
function secretHint(set: boolean | undefined): string {
  return set ? "A key is set (leave empty to keep it)" : "Not set";
}

export default function SettingsPanel({ host, settings, firstRun, onSaved, onClose }: SettingsPanelProps) {
  const styles = useStyles();
  const headingId = useId();
  const [tenantUrl, setTenantUrl] = useState(settings?.tenantUrl ?? "");
  const [apiKey, setApiKey] = useState("");
  const [deploymentId, setDeploymentId] = useState<number | null>(settings?.deploymentId ?? null);
  const [chatUrl, setChatUrl] = useState(settings?.chatUrl ?? "");
  const [agentApiKey, setAgentApiKey] = useState("");
  const [externalId, setExternalId] = useState(settings?.externalId ?? "");
  const [email, setEmail] = useState(settings?.email ?? "");
  const [scimToken, setScimToken] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  const [deployments, setDeployments] = useState<Deployment[] | null>(null);
  const [deploymentsError, setDeploymentsError] = useState<string | null>(null);
  const [deploymentsLoading, setDeploymentsLoading] = useState(false);
  const connected = isConnected(settings);

  const loadDeployments = useCallback(async () => {
    setDeploymentsLoading(true);
    setDeploymentsError(null);
    try {
      setDeployments(await host.platform.listDeployments());
    } catch (error) {
      setDeploymentsError(errorMessage(error));
    } finally {
      setDeploymentsLoading(false);
    }
  }, [host]);

  // Deployments can be listed once a tenant URL and an API key are stored.
  useEffect(() => {
    if (connected) void loadDeployments();
  }, [connected, loadDeployments]);

  const validate = (): boolean => {
    const errors: Partial<Record<FieldName, string>> = {};
    const check = (field: FieldName, value: string, what: string) => {
      if (value.trim() === "") return;
      try {
        requireSecureUrl(value.trim(), what);
      } catch (error) {
        errors[field] = errorMessage(error);
      }
    };
    check("tenantUrl", tenantUrl, "The tenant URL");
    check("chatUrl", chatUrl, "The agent chat URL");
    setFieldErrors(errors);
    return Object.keys(errors).length === 0;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaved(false);
    setSaveError(null);
    if (!validate()) return;
    const patch: SettingsPatch = {
      tenantUrl: tenantUrl.trim(),
      deploymentId,
      chatUrl: chatUrl.trim(),
      externalId: externalId.trim(),
      email: email.trim(),
    };
    // An empty secret field keeps the stored secret.
    if (apiKey.trim() !== "") patch.apiKey = apiKey.trim();
    if (agentApiKey.trim() !== "") patch.agentApiKey = agentApiKey.trim();
    if (scimToken.trim() !== "") patch.scimToken = scimToken.trim();
    setSaving(true);
    try {
      const next = await host.platform.saveSettings(patch);
      setApiKey("");
      setAgentApiKey("");
      setScimToken("");
      setTenantUrl(next.tenantUrl);
      setChatUrl(next.chatUrl);
      setExternalId(next.externalId);
      setEmail(next.email);
      setDeploymentId(next.deploymentId);
      setSaved(true);
      onSaved(next);
    } catch (error) {
      const message = errorMessage(error);
      setSaveError(message);
      // The core's messages name the field they are about.
      if (/tenant URL/i.test(message)) setFieldErrors({ tenantUrl: message });
      else if (/chat URL/i.test(message)) setFieldErrors({ chatUrl: message });
    } finally {
      setSaving(false);
    }
  };

  const deploymentName = deployments?.find((d) => d.id === deploymentId)?.name ?? "";
  const deploymentHint = !connected
    ? "Save the tenant URL and API key first; then pick a deployment here."
    : deploymentsLoading
      ? "Loading deployments…"
      : undefined;

  return (
    <form className={styles.form} onSubmit={submit} aria-labelledby={headingId} noValidate>
      <Subtitle2 as="h2" id={headingId} className={styles.heading}>
        Settings
      </Subtitle2>
      {firstRun ? (
        <MessageBar intent="info">
          <MessageBarBody>
            Connect to your Reporting Platform: enter the tenant URL and an API key, save, then pick a
            deployment.
          </MessageBarBody>
        </MessageBar>
      ) : (
        <Caption1 className={styles.intro}>
          Stored for you on this computer, never in the workbook. Keys are never shown again.
        </Caption1>
      )}

      <fieldset className={styles.group}>
        <legend className={styles.legend}>Reporting Platform</legend>
        <Field
          label="Tenant URL"
          validationMessage={fieldErrors.tenantUrl}
          validationState={fieldErrors.tenantUrl ? "error" : "none"}
          hint="https://your-tenant.example.com"
        >
          <Input
            type="url"
            value={tenantUrl}
            onChange={(_, d) => setTenantUrl(d.value)}
            autoComplete="url"
            spellCheck={false}
          />
        </Field>
        <Field label="API key" hint={settings?.apiKeySet ? "A key is set." : undefined}>
          <SecretInput value={apiKey} onChange={setApiKey} placeholder={secretHint(settings?.apiKeySet)} />
        </Field>
        <Field
          label="Deployment"
          hint={deploymentHint}
          validationMessage={deploymentsError ?? undefined}
          validationState={deploymentsError ? "error" : "none"}
        >
          <Dropdown
            className={styles.fullWidth}
            placeholder={deployments && deployments.length === 0 ? "No deployments" : "Pick a deployment"}
            value={deploymentName || (deploymentId != null ? `Deployment ${deploymentId}` : "")}
            selectedOptions={deploymentId != null ? [String(deploymentId)] : []}
            onOptionSelect={(_, d) => setDeploymentId(d.optionValue ? Number(d.optionValue) : null)}
            disabled={!connected || deploymentsLoading}
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
          validationMessage={fieldErrors.chatUrl}
          validationState={fieldErrors.chatUrl ? "error" : "none"}
          hint="From the agent's settings; it ends in /chat/stream-chat-state."
        >
          <Input type="url" value={chatUrl} onChange={(_, d) => setChatUrl(d.value)} spellCheck={false} />
        </Field>
        <Field label="Agent API key" hint={settings?.agentApiKeySet ? "A key is set." : undefined}>
          <SecretInput
            value={agentApiKey}
            onChange={setAgentApiKey}
            placeholder={secretHint(settings?.agentApiKeySet)}
          />
        </Field>
        <Field label="External ID" hint="The identity the agent answers for.">
          <Input value={externalId} onChange={(_, d) => setExternalId(d.value)} spellCheck={false} />
        </Field>
        <Field label="E-mail">
          <Input type="email" value={email} onChange={(_, d) => setEmail(d.value)} autoComplete="email" />
        </Field>
        <Field
          label="SCIM token"
          hint={
            settings?.scimTokenSet
              ? "A token is set: you can preview the agent as another user."
              : "Optional: lets an admin preview the agent as another user."
          }
        >
          <SecretInput
            value={scimToken}
            onChange={setScimToken}
            placeholder={settings?.scimTokenSet ? "A token is set (leave empty to keep it)" : "Not set"}
          />
        </Field>
      </fieldset>

      {saveError ? (
        <MessageBar intent="error">
          <MessageBarBody>{saveError}</MessageBarBody>
        </MessageBar>
      ) : null}
      {saved && !saveError ? (
        <MessageBar intent="success">
          <MessageBarBody>Settings saved.</MessageBarBody>
          {!firstRun && connected ? (
            <MessageBarActions>
              <Button size="small" onClick={onClose}>
                Done
              </Button>
            </MessageBarActions>
          ) : null}
        </MessageBar>
      ) : null}

      <div className={styles.actions}>
        <Button
          type="submit"
          appearance="primary"
          disabled={saving}
          icon={saving ? <Spinner size="tiny" /> : undefined}
        >
          Save
        </Button>
        {!firstRun ? (
          <Button type="button" onClick={onClose}>
            Back
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** A write-only secret: never filled back, never offered to the browser's autofill. */
function SecretInput(props: { value: string; onChange(value: string): void; placeholder: string }) {
  return (
    <Input
      type="password"
      value={props.value}
      onChange={(_, d) => props.onChange(d.value)}
      placeholder={props.placeholder}
      autoComplete="off"
    />
  );
}
