/**
 * The agent's answers as markdown, rendered safely: raw HTML in the text is dropped (no rehype-raw),
 * links keep only http, https and mailto targets and open in a new tab without access to this page,
 * images are not loaded (an answer must not make the pane fetch from anywhere).
 */
import { Link, makeStyles, tokens } from "@fluentui/react-components";
import { type ComponentProps, memo, type ReactNode, useMemo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { revealInvisible } from "../src/core/display.js";

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

const remarkPlugins = [remarkGfm];
const transformUrl = (url: string) => safeUrl(url);

/** One block of an answer, parsed and rendered on its own: an unchanged block is not parsed again. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  // Shown as faithfully as names are: a bidi override or a zero-width character in an answer is a
  // visible mark (core/display.ts), never applied; line breaks and tabs keep the markdown's layout.
  const shown = useMemo(() => revealInvisible(text, { keepLayout: true }), [text]);
  return (
    <ReactMarkdown
      // Tables: the agent answers with them (GitHub-flavoured markdown); raw HTML stays out.
      remarkPlugins={remarkPlugins}
      skipHtml
      urlTransform={transformUrl}
      disallowedElements={["img"]}
      unwrapDisallowed
      components={components}
    >
      {shown}
    </ReactMarkdown>
  );
});

/** Answers up to this size render as one block. */
const SINGLE_BLOCK_CHARS = 8_000;
/** A longer answer is cut, at blank lines outside code fences, into blocks of about this size. */
const BLOCK_CHARS = 4_000;

/**
 * Splits markdown into blocks that render alike on their own: cuts only at a blank line outside a
 * fenced code block, so no paragraph, table, list item or code block is cut in two. Joining the
 * blocks with "\n\n" gives the text back.
 */
function splitMarkdownBlocks(text: string, blockChars = BLOCK_CHARS): string[] {
  if (text.length <= SINGLE_BLOCK_CHARS) return [text];
  const blocks: string[] = [];
  let current: string[] = [];
  let size = 0;
  let fence: string | null = null;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker[0] as string;
      else if (marker[0] === fence) fence = null;
    }
    if (fence === null && line.trim() === "" && size >= blockChars) {
      blocks.push(current.join("\n"));
      current = [];
      size = 0;
      // Further blank lines belong to the gap between blocks.
      while (i + 1 < lines.length && (lines[i + 1] as string).trim() === "") i++;
      continue;
    }
    current.push(line);
    size += line.length + 1;
  }
  blocks.push(current.join("\n"));
  return blocks;
}

/**
 * Renders an answer whole, without holding the pane: a long answer renders as separate blocks (given
 * a deferred value, as the chat does, React yields to typing and clicks between them), and while it
 * streams only its last block is parsed again.
 */
function SafeMarkdown({ text }: { text: string }) {
  const styles = useStyles();
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text]);
  return (
    <div className={styles.root}>
      {blocks.map((block, i) => (
        // Blocks only grow at the end of a streaming answer: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div key={i} data-markdown-block="" dir="auto">
          <MarkdownBlock text={block} />
        </div>
      ))}
    </div>
  );
}

export default SafeMarkdown;
