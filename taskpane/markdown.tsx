/**
 * The agent's answers as markdown, rendered safely: raw HTML in the text is dropped (no rehype-raw),
 * links keep only http, https and mailto targets and open in a new tab without access to this page,
 * images are not loaded (an answer must not make the pane fetch from anywhere).
 */
import { Link, makeStyles, tokens } from "@fluentui/react-components";
import type { ComponentProps, ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The URL when it is an absolute http(s) or mailto address; undefined drops the attribute. */
export function safeUrl(url: string): string | undefined {
  const text = url.trim();
  try {
    const parsed = new URL(text);
    return SAFE_PROTOCOLS.has(parsed.protocol) ? text : undefined;
  } catch {
    // Relative links and fragments have no meaning in the pane.
    return undefined;
  }
}

const useStyles = makeStyles({
  root: {
    overflowWrap: "anywhere",
    "& p": { margin: `0 0 ${tokens.spacingVerticalS}` },
    "& p:last-child": { marginBottom: 0 },
    "& ul, & ol": { margin: `0 0 ${tokens.spacingVerticalS}`, paddingLeft: tokens.spacingHorizontalXL },
    "& code": {
      fontFamily: tokens.fontFamilyMonospace,
      fontSize: tokens.fontSizeBase200,
      backgroundColor: tokens.colorNeutralBackground3,
      borderRadius: tokens.borderRadiusSmall,
      padding: `0 ${tokens.spacingHorizontalXXS}`,
    },
    "& pre": {
      overflowX: "auto",
      backgroundColor: tokens.colorNeutralBackground3,
      borderRadius: tokens.borderRadiusMedium,
      padding: tokens.spacingHorizontalS,
    },
    "& pre code": { backgroundColor: "transparent", padding: 0 },
    // A table scrolls on its own rather than widening a 300 px pane.
    "& table": {
      display: "block",
      overflowX: "auto",
      borderCollapse: "collapse",
      margin: `0 0 ${tokens.spacingVerticalS}`,
      fontSize: tokens.fontSizeBase200,
    },
    "& th, & td": {
      border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
      padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
      textAlign: "left",
    },
    "& th": { backgroundColor: tokens.colorNeutralBackground3, fontWeight: tokens.fontWeightSemibold },
    "& blockquote": {
      margin: `0 0 ${tokens.spacingVerticalS}`,
      paddingLeft: tokens.spacingHorizontalS,
      borderLeft: `${tokens.strokeWidthThick} solid ${tokens.colorNeutralStroke1}`,
      color: tokens.colorNeutralForeground2,
    },
  },
});

function SafeLink({ href, children }: ComponentProps<"a">) {
  if (!href) return <span>{children}</span>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" inline>
      {children}
    </Link>
  );
}

function AnswerHeading({ children }: { children?: ReactNode }) {
  return (
    <p>
      <strong>{children}</strong>
    </p>
  );
}

const components: Components = {
  // `node` is react-markdown's; it must not reach the DOM.
  a: ({ node: _node, ...props }) => <SafeLink {...props} />,
  // Headings inside an answer are not part of the pane's outline: shown as bold lines.
  h1: AnswerHeading,
  h2: AnswerHeading,
  h3: AnswerHeading,
  h4: AnswerHeading,
  h5: AnswerHeading,
  h6: AnswerHeading,
};

export function SafeMarkdown({ text }: { text: string }) {
  const styles = useStyles();
  return (
    <div className={styles.root}>
      <ReactMarkdown
        // Tables: the agent answers with them (GitHub-flavoured markdown); raw HTML stays out.
        remarkPlugins={[remarkGfm]}
        skipHtml
        urlTransform={(url) => safeUrl(url)}
        disallowedElements={["img"]}
        unwrapDisallowed
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}

export default SafeMarkdown;
