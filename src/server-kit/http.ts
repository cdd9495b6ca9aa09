/**
 * The HTTP edges the two servers (the add-in server and the sandbox) share, on web-standard
 * Requests: telling a malformed address, and reading a request body under a cap. Each server
 * answers in its own words (its messages are its contract).
 */

/** True when the path's percent-encoding does not decode (a truncated escape, bytes that are not UTF-8). */
export function isMalformedPath(pathname: string): boolean {
  return decodedPath(pathname) === null;
}

/**
 * The path decoded, or null when it does not decode. The decoded text is returned, not dropped: a
 * bundler removes a call whose result goes unused when it takes the function for one without side
 * effects, and decodeURIComponent's only effect here is the throw (the server's production build
 * lost its malformed-address check that way, answering 404 for 400).
 */
function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

export type CappedBody =
  | { kind: "body"; bytes: Uint8Array<ArrayBuffer> }
  /** Past the cap. `drained`: the whole body was read (and dropped), so the connection can serve on. */
  | { kind: "too-large"; drained: boolean };

/**
 * The request's body, at most `limit` bytes. Past it, the rest is read and dropped up to
 * `drainLimit` (so the client gets to read the answer), then reading stops; with `drainLimit` equal
 * to `limit` (the default) it stops the moment the cap is passed: a body sent without a length
 * (chunked) could otherwise be held for as long as its sender keeps sending. A declared length over
 * `drainLimit` is refused without reading.
 */
export async function readCappedBody(
  request: Request,
  limit: number,
  drainLimit: number = limit,
): Promise<CappedBody> {
  const header = request.headers.get("content-length");
  const declared = header === null ? Number.NaN : Number(header);
  if (declared > Math.max(limit, drainLimit)) return { kind: "too-large", drained: false };
  if (!request.body) return { kind: "body", bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      chunks.length = 0;
      if (size > drainLimit) {
        reader.cancel().catch(() => undefined);
        return { kind: "too-large", drained: false };
      }
      continue;
    }
    chunks.push(value);
  }
  if (size > limit) return { kind: "too-large", drained: true };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: "body", bytes };
}
