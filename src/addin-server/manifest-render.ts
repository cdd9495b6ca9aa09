/**
 * The manifests' pure rendering, shared by the build (tooling/excel: dist/excel/manifest.xml and
 * manifest.json) and the add-in server (which renders them again at start from its public URL, so
 * one build serves any address): manifest.xml's template filled in, its values read back, and the
 * unified manifest made from them. No file or environment access here.
 */

/** "https://host[:port][/path]" without a trailing slash; anything but https is refused. */
export function normalizeBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`ADDIN_BASE_URL "${text}" is not a URL. Set it like https://addin.example.com`);
  }
  if (url.protocol !== "https:") {
    throw new Error(`ADDIN_BASE_URL must be https (Office loads add-ins only over HTTPS), got "${text}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(`ADDIN_BASE_URL must be a plain https://host[/path], got "${text}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** package.json's "0.1.0" as the manifest's four-part "0.1.0.0". */
export function manifestVersion(packageVersion: string): string {
  const parts = packageVersion.split(/[-+]/)[0]!.split(".");
  while (parts.length < 4) parts.push("0");
  if (parts.length > 4 || !parts.every((p) => /^\d{1,5}$/.test(p))) {
    throw new Error(`package.json version "${packageVersion}" cannot be a manifest version (n.n.n.n)`);
  }
  return parts.join(".");
}

function escapeXmlAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The manifest with its placeholders filled in (a placeholder left over is an error) and without
 * the template's comments, which describe the template rather than this build.
 */
export function renderManifest(template: string, options: { baseUrl: string; version: string }): string {
  const values: Record<string, string> = {
    BASE_URL: escapeXmlAttribute(normalizeBaseUrl(options.baseUrl)),
    VERSION: manifestVersion(options.version),
  };
  return template
    .replace(/[ \t]*<!--[\s\S]*?-->\r?\n?/g, "")
    .replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`manifest.xml: unknown placeholder ${whole}`);
      return value;
    });
}

/*
 * The unified manifest (Microsoft's JSON app manifest for Office add-ins), built from the values
 * of the rendered manifest.xml so that both always name the same add-in: id, names, description,
 * URLs, button labels and icons, requirement sets. Built by us rather than by Microsoft's
 * converter, whose output for this add-in did not have this shape.
 * Reference: learn.microsoft.com/microsoft-365/extensibility/schema/ (the schema of each
 * manifestVersion), learn.microsoft.com/office/dev/add-ins/develop/unified-manifest-overview.
 */

/** The schema version the JSON manifest follows; @microsoft/app-manifest ships its schema. */
export const UNIFIED_MANIFEST_VERSION = "1.25";

/**
 * The app's icons in the unified manifest, relative to manifest.json (beside it in dist/excel and
 * in the package): a 192x192 colour icon and a 32x32 white outline on transparency, as the schema's
 * `icons.color` and `icons.outline` describe them. Static PNGs in src/hosts/excel/public/assets.
 */
export const UNIFIED_ICONS = {
  color: "assets/icon-color-192.png",
  outline: "assets/icon-outline-32.png",
} as const;

/** The runtime's id and the pane's action id (the XML's ribbon button id). */
const RUNTIME_ID = "SharedRuntime";

export interface ManifestValues {
  id: string;
  providerName: string;
  displayName: string;
  description: string;
  locale: string;
  /** `<IconUrl>` (32x32) and `<HighResolutionIconUrl>` (64x64): the add-in's icon. */
  iconUrl: string;
  highResolutionIconUrl: string;
  /** The pane's page (the shared runtime's page and the XML's FunctionFile). */
  taskpaneUrl: string;
  helpUrl: string;
  /** `<Set>`s of `<Requirements>`, in order. */
  requirementSets: { name: string; minVersion: string }[];
  /** The command buttons' icons (`bt:Images`), by size. */
  icons: { size: number; url: string }[];
  /** `bt:ShortStrings` and `bt:LongStrings` by id. */
  strings: Record<string, string>;
  /** The ribbon button's and the context menu button's control ids and the command's function. */
  paneButtonId: string;
  commandButtonId: string;
  functionName: string;
  groupId: string;
  tabId: string;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function one(xml: string, pattern: RegExp, what: string): string {
  const found = xml.match(pattern);
  if (!found?.[1]) throw new Error(`manifest.xml: ${what} not found`);
  return unescapeXml(found[1]);
}

/** The values of a rendered manifest.xml (our own template: its element forms are known). */
export function readManifestValues(xml: string): ManifestValues {
  const resources = (kind: string) => {
    const block = one(xml, new RegExp(`<bt:${kind}>([\\s\\S]*?)</bt:${kind}>`), `<bt:${kind}>`);
    return new Map(
      [...block.matchAll(/<bt:\w+ id="([^"]+)" DefaultValue="([^"]*)"\s*\/>/g)].map((m) => [
        m[1]!,
        unescapeXml(m[2]!),
      ]),
    );
  };
  const images = resources("Images");
  const urls = resources("Urls");
  const strings = new Map([...resources("ShortStrings"), ...resources("LongStrings")]);
  const requirements = one(xml, /<Requirements>([\s\S]*?)<\/Requirements>/, "<Requirements>");
  const url = (id: string) => {
    const value = urls.get(id);
    if (!value) throw new Error(`manifest.xml: no <bt:Url id="${id}">`);
    return value;
  };
  const tabBlock = one(xml, /(<OfficeTab[\s\S]*?<\/OfficeTab>)/, "<OfficeTab>");
  const menuBlock = one(xml, /(<OfficeMenu id="ContextMenuCell">[\s\S]*?<\/OfficeMenu>)/, "ContextMenuCell");
  return {
    id: one(xml, /<Id>([^<]+)<\/Id>/, "<Id>"),
    providerName: one(xml, /<ProviderName>([^<]+)<\/ProviderName>/, "<ProviderName>"),
    displayName: one(xml, /<DisplayName DefaultValue="([^"]+)"/, "<DisplayName>"),
    description: one(xml, /<Description DefaultValue="([^"]+)"/, "<Description>"),
    locale: one(xml, /<DefaultLocale>([^<]+)<\/DefaultLocale>/, "<DefaultLocale>"),
    iconUrl: one(xml, /<IconUrl DefaultValue="([^"]+)"/, "<IconUrl>"),
    highResolutionIconUrl: one(
      xml,
      /<HighResolutionIconUrl DefaultValue="([^"]+)"/,
      "<HighResolutionIconUrl>",
    ),
    taskpaneUrl: url("Taskpane.Url"),
    helpUrl: url("Help.Url"),
    requirementSets: [...requirements.matchAll(/<Set Name="([^"]+)" MinVersion="([^"]+)"\s*\/>/g)].map(
      (m) => ({
        name: m[1]!,
        minVersion: m[2]!,
      }),
    ),
    icons: [...images].map(([id, value]) => {
      const size = Number(id.match(/^Icon\.(\d+)x\1$/)?.[1]);
      if (!size) throw new Error(`manifest.xml: icon id "${id}" does not name its size`);
      return { size, url: value };
    }),
    strings: Object.fromEntries(strings),
    tabId: one(tabBlock, /<OfficeTab id="([^"]+)"/, "the tab's id"),
    groupId: one(tabBlock, /<Group id="([^"]+)"/, "the group's id"),
    paneButtonId: one(tabBlock, /<Control xsi:type="Button" id="([^"]+)"/, "the pane button"),
    commandButtonId: one(menuBlock, /<Control xsi:type="Button" id="([^"]+)"/, "the command button"),
    functionName: one(menuBlock, /<FunctionName>([^<]+)<\/FunctionName>/, "<FunctionName>"),
  };
}

interface UnifiedControl {
  id: string;
  type: "button";
  label: string;
  icons: { size: number; url: string }[];
  supertip: { title: string; description: string };
  actionId: string;
}

export interface UnifiedManifest {
  $schema: string;
  manifestVersion: string;
  version: string;
  id: string;
  localizationInfo: { defaultLanguageTag: string };
  developer: { name: string; websiteUrl: string; privacyUrl: string; termsOfUseUrl: string };
  name: { short: string; full: string };
  description: { short: string; full: string };
  icons: typeof UNIFIED_ICONS;
  accentColor: string;
  validDomains: string[];
  showLoadingIndicator: boolean;
  isFullScreen: boolean;
  authorization: { permissions: { resourceSpecific: { name: string; type: "Delegated" }[] } };
  extensions: {
    requirements: { scopes: string[]; capabilities: { name: string; minVersion: string }[] };
    runtimes: {
      requirements: { capabilities: { name: string; minVersion: string }[] };
      id: string;
      type: "general";
      code: { page: string };
      lifetime: "long";
      actions: { id: string; type: "openPage" | "executeFunction" }[];
    }[];
    ribbons: {
      requirements: { scopes: string[] };
      tabs: {
        builtInTabId: string;
        groups: {
          id: string;
          label: string;
          icons: { size: number; url: string }[];
          controls: UnifiedControl[];
        }[];
      }[];
    }[];
    contextMenus: {
      requirements: { scopes: string[] };
      menus: { entryPoint: "cell"; controls: UnifiedControl[] }[];
    }[];
    getStartedMessages: { title: string; description: string; learnMoreUrl: string }[];
    alternates: {
      alternateIcons: {
        icon: { size: number; url: string };
        highResolutionIcon: { size: number; url: string };
      };
    }[];
  }[];
}

/** The first sentence, or the text cut at a word, within `max` characters (`description.short`). */
function shortText(text: string, max: number): string {
  const sentence = text.match(/^[^.]*\./)?.[0] ?? text;
  if (sentence.length <= max) return sentence;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}

/**
 * The unified manifest of the same add-in as `values` (from readManifestValues). One runtime, with
 * `lifetime: "long"`, holds the pane's `openPage` action and the command's `executeFunction`
 * action, and neither has a `view`: Microsoft's shared-runtime configuration for this manifest
 * (learn.microsoft.com/office/dev/add-ins/develop/configure-your-add-in-to-use-a-shared-runtime),
 * the JSON counterpart of the XML's one `<Runtime lifetime="long">` and its ShowTaskpane without
 * a TaskpaneId.
 */
export function renderUnifiedManifest(values: ManifestValues, options: { version: string }): UnifiedManifest {
  const text = (id: string) => {
    const value = values.strings[id];
    if (value === undefined) throw new Error(`manifest.xml: no string "${id}"`);
    return value;
  };
  const control = (id: string, label: string, tooltip: string, actionId: string): UnifiedControl => ({
    id,
    type: "button",
    label: text(label),
    icons: values.icons,
    supertip: { title: text(label), description: text(tooltip) },
    actionId,
  });
  const paneAction = values.paneButtonId;
  const workbook = ["workbook"];
  return {
    $schema: `https://developer.microsoft.com/json-schemas/teams/v${UNIFIED_MANIFEST_VERSION}/MicrosoftTeams.schema.json`,
    manifestVersion: UNIFIED_MANIFEST_VERSION,
    // The JSON manifest's version is semver (the XML's is four-part).
    version: options.version,
    id: values.id,
    localizationInfo: { defaultLanguageTag: values.locale.toLowerCase() },
    developer: {
      name: values.providerName,
      websiteUrl: values.helpUrl,
      privacyUrl: values.helpUrl,
      termsOfUseUrl: values.helpUrl,
    },
    name: { short: values.displayName, full: values.displayName },
    description: { short: shortText(values.description, 80), full: values.description },
    icons: UNIFIED_ICONS,
    accentColor: "#0F6CBD",
    validDomains: [new URL(values.taskpaneUrl).host],
    showLoadingIndicator: false,
    isFullScreen: false,
    // The XML's <Permissions>ReadWriteDocument</Permissions>.
    authorization: {
      permissions: { resourceSpecific: [{ name: "Document.ReadWrite.User", type: "Delegated" }] },
    },
    extensions: [
      {
        requirements: { scopes: workbook, capabilities: values.requirementSets },
        runtimes: [
          {
            requirements: {
              capabilities: values.requirementSets.filter((s) => s.name === "SharedRuntime"),
            },
            id: RUNTIME_ID,
            type: "general",
            code: { page: values.taskpaneUrl },
            lifetime: "long",
            actions: [
              { id: paneAction, type: "openPage" },
              { id: values.functionName, type: "executeFunction" },
            ],
          },
        ],
        ribbons: [
          {
            requirements: { scopes: workbook },
            tabs: [
              {
                builtInTabId: values.tabId,
                groups: [
                  {
                    id: values.groupId,
                    label: text("Group.Label"),
                    icons: values.icons,
                    controls: [
                      control(values.paneButtonId, "PaneButton.Label", "PaneButton.Tooltip", paneAction),
                    ],
                  },
                ],
              },
            ],
          },
        ],
        contextMenus: [
          {
            requirements: { scopes: workbook },
            menus: [
              {
                entryPoint: "cell",
                controls: [
                  control(
                    values.commandButtonId,
                    "DisconnectHere.Label",
                    "DisconnectHere.Tooltip",
                    values.functionName,
                  ),
                ],
              },
            ],
          },
        ],
        getStartedMessages: [
          {
            title: text("GetStarted.Title"),
            description: text("GetStarted.Description"),
            learnMoreUrl: values.helpUrl,
          },
        ],
        // With these, the admin centre (and Marketplace) generate an add-in only manifest from this
        // one for the Office versions that do not read the unified manifest (Mac, perpetual,
        // Windows before 2304): learn.microsoft.com/office/dev/add-ins/develop/add-in-manifests.
        alternates: [
          {
            alternateIcons: {
              icon: { size: 32, url: values.iconUrl },
              highResolutionIcon: { size: 64, url: values.highResolutionIconUrl },
            },
          },
        ],
      },
    ],
  };
}
