/**
 * Every SHA-256 the checksum computes, counted (one per chunk hashed), the hash itself unchanged:
 * for tests that check how the hashing is split up. A test file counts with
 *
 *   vi.mock("@noble/hashes/sha2.js", async (original) =>
 *     (await import("../support/hash-count.js")).countingSha2(await original()));
 *
 * and reads (and resets) `hashes.count`.
 */
export const hashes = { count: 0 };

export function countingSha2<T extends { sha256(bytes: Uint8Array): Uint8Array }>(original: T): T {
  return {
    ...original,
    sha256: (bytes: Uint8Array) => {
      hashes.count++;
      return original.sha256(bytes);
    },
  };
}
