import { open, type FileHandle } from 'node:fs/promises';

/** How much of the file is read at a time: an image's structure is walked, never held in memory. */
const WINDOW = 64 * 1024;

/** A file read through one moving window. */
class FileBytes {
  private window = Buffer.alloc(0);
  private start = 0;

  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  /** The bytes from `at` to the end of the window, at least `length` of them unless the file ends first. */
  async from(at: number, length: number): Promise<Buffer> {
    if (at < this.start || at + length > this.start + this.window.length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(Math.max(length, WINDOW), this.size - at)));
      const { bytesRead } = await this.file.read(buffer, 0, buffer.length, at);
      this.window = buffer.subarray(0, bytesRead);
      this.start = at;
    }
    return this.window.subarray(at - this.start);
  }
}

/** A marker that stands alone (no length): TEM and the restart markers RST0–RST7. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/**
 * Where a scan's entropy-coded data ends: at the first 0xFF that starts a marker, which is not a
 * stuffed 0xFF00, a restart marker inside the scan, or a fill byte before a marker.
 */
async function scanEnd(bytes: FileBytes, at: number): Promise<number | null> {
  for (;;) {
    const chunk = await bytes.from(at, 2);
    if (chunk.length < 2) return null;
    const ff = chunk.indexOf(0xff);
    if (ff < 0) {
      at += chunk.length;
    } else if (ff === chunk.length - 1) {
      at += ff;
    } else {
      const next = chunk[ff + 1]!;
      if (next !== 0x00 && next !== 0xff && !standalone(next)) return at + ff;
      at += ff + (next === 0xff ? 1 : 2);
    }
  }
}

/**
 * JPEG: marker by marker from SOI (segments by their lengths, each scan's data to its next
 * marker) to EOI. An image appended after it, the pages of an MPF file and a motion photo's
 * video all start after that EOI; searching for the last FFD9 would find theirs.
 */
async function jpegEnd(bytes: FileBytes): Promise<number | null> {
  let at = 2;
  for (;;) {
    const head = await bytes.from(at, 4);
    if (head.length < 2 || head[0] !== 0xff) return null;
    const marker = head[1]!;
    if (marker === 0xd9) return at + 2;
    if (marker === 0xff || standalone(marker)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (head.length < 4 || head.readUInt16BE(2) < 2) return null;
    at += 2 + head.readUInt16BE(2);
    if (marker === 0xda) {
      const end = await scanEnd(bytes, at);
      if (end === null) return null;
      at = end;
    }
  }
}

/** PNG: chunk by chunk (length, type, data, CRC) to the end of IEND. */
async function pngEnd(bytes: FileBytes): Promise<number | null> {
  for (let at = 8; at + 12 <= bytes.size;) {
    const head = await bytes.from(at, 8);
    const end = at + 12 + head.readUInt32BE(0);
    if (head.toString('latin1', 4, 8) === 'IEND') return end <= bytes.size ? end : null;
    at = end;
  }
  return null;
}

/** WebP: the RIFF header says how long the file is (its size is padded to even). */
async function webpEnd(bytes: FileBytes): Promise<number | null> {
  const size = (await bytes.from(4, 4)).readUInt32LE(0);
  const end = 8 + size + (size % 2);
  return end <= bytes.size ? end : null;
}

/**
 * HEIC and AVIF (ISO base media boxes): the image ends where the boxes stop, at data that is
 * not a box or at a second `ftyp`, where another file (a motion photo's video) begins.
 */
async function heifEnd(bytes: FileBytes): Promise<number | null> {
  let at = 0;
  while (at + 8 <= bytes.size) {
    const head = await bytes.from(at, 16);
    const type = head.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e]{4}$/.test(type) || (at > 0 && type === 'ftyp')) return at;
    const short = head.readUInt32BE(0);
    if (short === 0) return bytes.size;
    const size = short === 1 && head.length >= 16 ? Number(head.readBigUInt64BE(8)) : short;
    if (size < 8) return at;
    // A box that runs past the end is a damaged file, not a trailer: it is left as it is.
    if (at + size > bytes.size) return null;
    at += size;
  }
  return at;
}

const ENDS: Record<string, (bytes: FileBytes) => Promise<number | null>> = {
  'image/jpeg': jpegEnd,
  'image/png': pngEnd,
  'image/webp': webpEnd,
  'image/heic': heifEnd,
  'image/avif': heifEnd,
};

/**
 * Removes whatever follows the end of the image in the photo at `path` (another image, MPF
 * pages, a motion photo's video), in place; true when something went. A file whose structure
 * cannot be walked is left as it is (ExifTool then cleans it or refuses it). TIFF places its
 * parts by offsets anywhere in the file, so it has no end to find here.
 */
export async function cutTrailer(path: string, contentType: string): Promise<boolean> {
  const imageEnd = ENDS[contentType];
  if (imageEnd === undefined) return false;
  const file = await open(path, 'r+');
  try {
    const { size } = await file.stat();
    const end = await imageEnd(new FileBytes(file, size));
    if (end === null || end >= size) return false;
    await file.truncate(end);
    return true;
  } finally {
    await file.close();
  }
}
