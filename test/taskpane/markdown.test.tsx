// @vitest-environment jsdom
/**
 * The agent's answer shows its hidden characters as faithfully as names do: a right-to-left
 * override or a zero-width space inside an answer is shown as a visible mark, so it can neither
 * reverse the text after it nor make two different words look the same. Line breaks of code
 * blocks, and joiners inside scripts and emoji, are kept.
 */
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import SafeMarkdown from "../../taskpane/markdown.js";

const roots: (() => void)[] = [];
afterEach(() => {
  for (const unmount of roots.splice(0)) unmount();
  document.body.innerHTML = "";
});

async function render(text: string): Promise<HTMLElement> {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(<SafeMarkdown text={text} />));
  roots.push(() => act(() => root.unmount()));
  return container;
}

describe("hidden characters in an answer", () => {
  it("a right-to-left override and a zero-width space are shown as marks, not applied", async () => {
    const root = await render(
      "Revenue is **\u202E0001$\u202C** for pay\u200Bpal.com, see `a\u2066b` and [x](https://e.example/\u202Ey)",
    );
    const text = root.textContent ?? "";
    expect(text).toContain("⟨U+202E⟩0001$⟨U+202C⟩");
    expect(text).toContain("pay⟨U+200B⟩pal.com");
    expect(text).toContain("a⟨U+2066⟩b");
    expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B]/u);
  });

  it("a code block keeps its lines, and joiners inside emoji and scripts are kept", async () => {
    const family = "👩\u200D👩\u200D👧";
    const persian = "می\u200Cخواهم";
    const root = await render(`${family} ${persian}\n\n\`\`\`\nline one\n\tline two\n\`\`\``);
    expect(root.querySelector("pre code")?.textContent).toBe("line one\n\tline two\n");
    expect(root.textContent).toContain(family);
    expect(root.textContent).toContain(persian);
  });
});
