/**
 * A value loaded once, asked for again after a failure: the pattern of every lazily loaded chunk
 * and every first read the pane shares (a chunk that failed to load, on a flaky network, is loaded
 * again by the next call rather than failing for the rest of the session). Pure: it runs nothing
 * until called.
 */

/** `load`'s promise, made on the first call and shared by every call until it fails. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () => {
    if (!value) {
      const loading = load();
      value = loading;
      loading.catch(() => {
        if (value === loading) value = null;
      });
    }
    return value;
  };
}
