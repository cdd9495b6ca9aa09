/**
 * The add-in's icons, drawn in code and encoded as PNG at build time: a blue rounded square with a
 * white three-bar chart. Office asks for real PNG files at 16, 32 and 80 px (ribbon and context
 * menu) and 32 and 64 px (IconUrl, HighResolutionIconUrl); drawing them here keeps binary files out
 * of the repository and every size sharp (each pixel is 4x4 supersampled).
 */
import { deflateSync } from "node:zlib";

export const ICON_SIZES = [16, 32, 64, 80] as const;
export type IconSize = (typeof ICON_SIZES)[number];

/** Where the build writes an icon, relative to dist/excel/ (the manifest's URLs use the same). */
export function iconPath(size: number): string {
  return `assets/icon-${size}.png`;
}

type Rgba = readonly [number, number, number, number];

const BRAND: Rgba = [15, 108, 189, 255]; // Fluent's brand blue (#0F6CBD)
const WHITE: Rgba = [255, 255, 255, 255];
const CLEAR: Rgba = [0, 0, 0, 0];

/** The bars of the chart, in unit coordinates of the icon: [left, top, right, bottom]. */
const BARS: readonly (readonly [number, number, number, number])[] = [
  [0.22, 0.52, 0.36, 0.78],
  [0.43, 0.34, 0.57, 0.78],
  [0.64, 0.2, 0.78, 0.78],
];

function insideRoundedSquare(x: number, y: number): boolean {
  const lo = 0.04;
  const hi = 0.96;
  const r = 0.2;
  if (x < lo || x > hi || y < lo || y > hi) return false;
  const cx = Math.min(Math.max(x, lo + r), hi - r);
  const cy = Math.min(Math.max(y, lo + r), hi - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function colorAt(x: number, y: number): Rgba {
  if (!insideRoundedSquare(x, y)) return CLEAR;
  for (const [l, t, r, b] of BARS) if (x >= l && x <= r && y >= t && y <= b) return WHITE;
  return BRAND;
}

/** The icon's pixels, RGBA row by row. */
export function drawIcon(size: number): Uint8Array {
  const samples = 4;
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      // Average premultiplied colour over the subsamples, then un-premultiply.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const c = colorAt((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          const alpha = c[3] / 255;
          r += c[0] * alpha;
          g += c[1] * alpha;
          b += c[2] * alpha;
          a += alpha;
        }
      }
      const o = (py * size + px) * 4;
      if (a > 0) {
        pixels[o] = Math.round(r / a);
        pixels[o + 1] = Math.round(g / a);
        pixels[o + 2] = Math.round(b / a);
      }
      pixels[o + 3] = Math.round((a / (samples * samples)) * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** A PNG file (8-bit RGBA, no interlace) of `width` x `height` pixels. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  if (rgba.length !== width * height * 4) throw new Error("encodePng: pixel data does not match the size");
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  // compression, filter and interlace methods stay 0
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    // filter type 0 (none) at the start of each row
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** The icon of `size` px as a PNG file. */
export function iconPng(size: number): Buffer {
  return encodePng(size, size, drawIcon(size));
}
