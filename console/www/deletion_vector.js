// Deletion vectors (Iceberg spec v3, "Deletion Vectors"; Puffin's deletion-vector-v1 blob) for the
// table page's preview: the deleted row positions of one data file, decoded from the blob's bytes
// in its Puffin file (content_offset, content_size_in_bytes of its manifest entry). The layout is
// the one runtime/iceberg/deletion_vector.h reads: a big-endian length, the magic D1 D3 39 64, a
// 64-bit Roaring bitmap in the portable format (a count of 32-bit bitmaps, each a key and a 32-bit
// portable bitmap of array, bitmap or run containers), a CRC-32 (not checked here: the preview
// only hides rows; Floe's compaction checks it).

const MAGIC = [0xD1, 0xD3, 0x39, 0x64];
const SERIAL_COOKIE_NO_RUN = 12346;
const SERIAL_COOKIE = 12347;
const NO_OFFSET_THRESHOLD = 4;
const MAX_ARRAY = 4096;

/** A 32-bit portable Roaring bitmap at `at`: adds high + each value to `out`; returns the end offset. */
function readBitmap32(view, at, high, out) {
  const cookie = view.getUint32(at, true);
  let n, runs = null, p;
  if ((cookie & 0xFFFF) === SERIAL_COOKIE) {
    n = (cookie >>> 16) + 1;
    runs = new Uint8Array(view.buffer, view.byteOffset + at + 4, Math.ceil(n / 8));
    p = at + 4 + runs.length;
  } else if (cookie === SERIAL_COOKIE_NO_RUN) {
    n = view.getUint32(at + 4, true);
    p = at + 8;
  } else {
    throw new Error(`not a Roaring bitmap (cookie ${cookie})`);
  }
  const headers = [];
  for (let i = 0; i < n; i++, p += 4) headers.push([view.getUint16(p, true), view.getUint16(p + 2, true) + 1]);
  if (!runs || n >= NO_OFFSET_THRESHOLD) p += 4 * n; // the offset header: containers follow in order anyway
  headers.forEach(([key, card], i) => {
    const base = high + key * 65536;
    if (runs && (runs[i >> 3] >> (i & 7)) & 1) {
      const nRuns = view.getUint16(p, true);
      p += 2;
      for (let r = 0; r < nRuns; r++, p += 4) {
        const start = view.getUint16(p, true), len = view.getUint16(p + 2, true);
        for (let v = start; v <= start + len; v++) out.add(base + v);
      }
    } else if (card <= MAX_ARRAY) {
      for (let k = 0; k < card; k++, p += 2) out.add(base + view.getUint16(p, true));
    } else {
      for (let w = 0; w < 2048; w++, p += 4) {
        const word = view.getUint32(p, true);
        for (let b = 0; b < 32; b++) if ((word >>> b) & 1) out.add(base + w * 32 + b);
      }
    }
  });
  return p;
}

/** The deleted positions (a Set of numbers) of a deletion-vector-v1 blob (an ArrayBuffer or view). */
export function deletedPositions(blob) {
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || MAGIC.some((m, i) => bytes[4 + i] !== m)) throw new Error('not a deletion-vector-v1 blob');
  const out = new Set();
  const count = Number(view.getBigUint64(8, true));
  let p = 16;
  for (let i = 0; i < count; i++) {
    const key = view.getUint32(p, true);
    p = readBitmap32(view, p + 4, key * 2 ** 32, out);
  }
  return out;
}
