/**
 * The baseline of the first-render figure (bench/first-render.ts): React 19 and nothing else. It
 * fetches a small JSON list from the server that serves it (as the preview fetches its config and
 * then the reports) and renders it as a list.
 */
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";

interface Item {
  id: string;
  name: string;
  where: string;
}

declare global {
  interface Window {
    /** Set by the "bare Office" variant of this page (bench/cpu.ts): Office.js ready and the tenant's answer in. */
    __beforeList?: Promise<unknown>;
  }
}

function List() {
  const [items, setItems] = useState<Item[] | null>(null);
  useEffect(() => {
    void Promise.resolve(window.__beforeList)
      .then(() => fetch("./items.json", { cache: "no-store" }))
      .then((r) => r.json() as Promise<Item[]>)
      .then(setItems);
  }, []);
  if (!items) return <p>Loading…</p>;
  return (
    <section aria-label="Items">
      <h2>Reports in this workbook</h2>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <strong>{item.name}</strong> <span>{item.where}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <List />
  </StrictMode>,
);
