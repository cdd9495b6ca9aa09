/**
 * The chat request's messageId, apart from the chat protocol so that a host can make one without
 * loading the protocol and its schemas (the Sheets sidebar's first script).
 */
/** `length` bytes from a cryptographic random source (crypto.getRandomValues; Utilities.getUuid in Apps Script). */
export type RandomBytes = (length: number) => Uint8Array;

/** Random digits appended to the millisecond in a generated messageId: about 40 bits. */
const MESSAGE_ID_RANDOM_DIGITS = 12;

/**
 * A messageId within the documented pattern `^\d{13,}-message$` (platform-api.md): the current
 * millisecond, then random digits. Two users asking in the same millisecond no longer collide (the
 * second would be refused as a reuse), and the id cannot be guessed from the time alone.
 */
export function newMessageId(now: number, randomBytes: RandomBytes): string {
  let digits = "";
  while (digits.length < MESSAGE_ID_RANDOM_DIGITS) {
    for (const byte of randomBytes(MESSAGE_ID_RANDOM_DIGITS)) {
      // 250 = 25 x 10: bytes above it would make low digits likelier, so they are skipped.
      if (byte < 250 && digits.length < MESSAGE_ID_RANDOM_DIGITS) digits += String(byte % 10);
    }
  }
  return `${String(Math.floor(now)).padStart(13, "0")}${digits}-message`;
}
