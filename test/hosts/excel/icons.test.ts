/** The icons are real PNG files: signature, chunk CRCs, and pixels that decode back to the drawing. */
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { drawIcon, ICON_SIZES, iconPng } from "../../../src/hosts/excel/icons.js";

function readChunks(png: Buffer): { type: string; data: Buffer; crc: number }[] {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  const chunks = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString("latin1");
    chunks.push({
      type,
      data: png.subarray(at + 8, at + 8 + length),
      crc: png.readUInt32BE(at + 8 + length),
    });
    at += length + 12;
  }
  return chunks;
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return ~c >>> 0;
}

describe("icons", () => {
  it.each(ICON_SIZES)("the %i px icon is a valid RGBA PNG of that size whose pixels decode back", (size) => {
    const png = iconPng(size);
    const chunks = readChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    for (const c of chunks) expect(c.crc).toBe(crc32(Buffer.concat([Buffer.from(c.type, "latin1"), c.data])));
    const header = chunks[0]!.data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([
      size,
      size,
      8,
      6,
    ]);

    const raw = inflateSync(chunks[1]!.data);
    const pixels = drawIcon(size);
    for (let y = 0; y < size; y++) {
      expect(raw[y * (size * 4 + 1)]).toBe(0); // filter: none
      const row = raw.subarray(y * (size * 4 + 1) + 1, (y + 1) * (size * 4 + 1));
      expect(Buffer.from(row).equals(Buffer.from(pixels.subarray(y * size * 4, (y + 1) * size * 4)))).toBe(
        true,
      );
    }
    // Opaque in the middle, transparent in the corners.
    const alpha = (x: number, y: number) => pixels[(y * size + x) * 4 + 3];
    expect(alpha(size >> 1, size >> 1)).toBe(255);
    expect(alpha(0, 0)).toBe(0);
  });
});
