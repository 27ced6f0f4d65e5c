import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ExifTool } from 'exiftool-vendored';
import type { Client } from './client.js';

export interface FilePart {
  field?: string;
  name?: string;
  type?: string;
  data: Buffer | Uint8Array;
}

/** A real multipart upload over fetch; `fields` are sent before the files unless `after` says so. */
export async function upload(
  client: Client,
  path: string,
  files: FilePart[],
  fields: Record<string, string> = {},
  options: { fieldsAfter?: boolean } = {},
) {
  const form = new FormData();
  const addFields = () => {
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
  };
  if (!options.fieldsAfter) addFields();
  for (const file of files)
    form.append(
      file.field ?? 'file',
      new Blob([file.data], { type: file.type ?? 'application/octet-stream' }),
      file.name ?? 'upload.bin',
    );
  if (options.fieldsAfter) addFields();
  const response = await fetch(client.baseUrl + path, {
    method: 'POST',
    headers: client.credentialHeaders('POST'),
    body: form,
  });
  const text = await response.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

export async function download(client: Client | null, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    headers: { ...(client !== null ? client.credentialHeaders('GET') : {}), ...headers },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** `data` in a file of its own, for a tool that reads files (ExifTool). */
export function tempFile(data: Buffer, ext: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tasktree-read-')), `file.${ext}`);
  writeFileSync(path, data);
  return path;
}

/** What a phone leaves in a photo: place, device, serials, owner, XMP, IPTC, a thumbnail. */
export const PHONE_TAGS = {
  GPSLatitude: 48.8584,
  GPSLatitudeRef: 'N',
  GPSLongitude: 2.2945,
  GPSLongitudeRef: 'E',
  GPSAltitude: 35,
  Make: 'Canon',
  Model: 'EOS 5D Mark IV',
  SerialNumber: 'CAM-12345',
  LensSerialNumber: 'LENS-999',
  OwnerName: 'Alice Example',
  'XMP:Creator': 'Alice Example',
  'XMP:Label': 'private',
  'IPTC:Keywords': ['whiteboard'],
  'IPTC:City': 'Paris',
  Orientation: 'Rotate 90 CW',
} as const;

/**
 * Real photos made in the test: pixels from sharp, then the tags a phone writes added with
 * ExifTool (and a thumbnail for JPEG), so the service must remove what a real camera leaves.
 */
export async function makePhoto(
  format: 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif' | 'heic',
  exiftool: ExifTool,
): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'tasktree-photo-'));
  const base = sharp({
    create: { width: 96, height: 64, channels: 3, background: { r: 180, g: 40, b: 90 } },
  }).composite([
    {
      input: Buffer.from('<svg width="96" height="64"><circle cx="30" cy="30" r="20" fill="#1a7"/></svg>'),
      top: 0,
      left: 0,
    },
  ]);
  const pixels = await (
    format === 'tiff' ? base.tiff({ compression: 'lzw' }) : format === 'heic' ? base.avif() : base[format]()
  ).toBuffer();
  // No HEVC encoder ships with sharp: a HEIC is the same HEIF container, so the AVIF gets the
  // 'heic' major brand. ExifTool edits metadata by container, which is what is under test.
  if (format === 'heic') pixels.write('heic', 8, 'latin1');
  const path = join(dir, `photo.${format}`);
  writeFileSync(path, pixels);
  const tags: Record<string, unknown> = { ...PHONE_TAGS };
  if (format !== 'jpeg' && format !== 'tiff') {
    delete tags['IPTC:Keywords'];
    delete tags['IPTC:City'];
  }
  await exiftool.write(path, tags as never, { writeArgs: ['-overwrite_original'] });
  if (format === 'jpeg') {
    const thumb = join(dir, 'thumb.jpg');
    writeFileSync(
      thumb,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer(),
    );
    await exiftool.write(path, {}, { writeArgs: [`-ThumbnailImage<=${thumb}`, '-overwrite_original'] });
  }
  return readFileSync(path);
}

/** The chunk ids of a RIFF/WebP file (VP8, VP8X, EXIF, XMP , ICCP…), read without any library. */
export function webpChunks(data: Buffer): string[] {
  const ids: string[] = [];
  for (let at = 12; at + 8 <= data.length;) {
    ids.push(data.toString('latin1', at, at + 4));
    const size = data.readUInt32LE(at + 4);
    at += 8 + size + (size % 2);
  }
  return ids;
}

/** An image as an encoder writes it, with no metadata at all. */
export async function plainImage(
  format: 'jpeg' | 'png' | 'webp' | 'avif' | 'heic',
  options: { progressive?: boolean } = {},
): Promise<Buffer> {
  const base = sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 120, b: 200 } },
  }).composite([
    {
      input: Buffer.from('<svg width="64" height="48"><rect x="8" y="8" width="30" height="20" fill="#fd0"/></svg>'),
      top: 0,
      left: 0,
    },
  ]);
  const data = await (
    format === 'jpeg'
      ? base.jpeg({ progressive: options.progressive === true })
      : format === 'heic'
        ? base.avif()
        : base[format]()
  ).toBuffer();
  // As makePhoto: the HEIF container under the 'heic' brand.
  if (format === 'heic') data.write('heic', 8, 'latin1');
  return data;
}

/** What a phone appends to a motion photo: an MP4 (here its boxes, with `text` in its media data). */
export function mp4Trailer(text: string): Buffer {
  const box = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  return Buffer.concat([box('ftyp', Buffer.from('mp42\0\0\0\0isommp42', 'latin1')), box('mdat', Buffer.from(text))]);
}

/**
 * A multi-picture (MPF, CIPA DC-007) JPEG as cameras write it: `primary` with an APP2 MPF index
 * after its SOI, then `second` after its end, where the index points.
 */
export function withMpfPage(primary: Buffer, second: Buffer): Buffer {
  const segment = Buffer.alloc(90);
  segment.writeUInt16BE(0xffe2, 0);
  segment.writeUInt16BE(88, 2);
  segment.write('MPF\0', 4, 'latin1');
  // The index is a big-endian TIFF structure whose offsets count from its header, 10 bytes into the file.
  const header = 8;
  segment.write('MM\0*', header, 'latin1');
  segment.writeUInt32BE(8, header + 4);
  let at = header + 8;
  segment.writeUInt16BE(3, at);
  at += 2;
  const entry = (tag: number, type: number, count: number, value: Buffer | number) => {
    segment.writeUInt16BE(tag, at);
    segment.writeUInt16BE(type, at + 2);
    segment.writeUInt32BE(count, at + 4);
    if (typeof value === 'number') segment.writeUInt32BE(value, at + 8);
    else value.copy(segment, at + 8);
    at += 12;
  };
  entry(0xb000, 7, 4, Buffer.from('0100')); // MPFVersion
  entry(0xb001, 4, 1, 2); // NumberOfImages
  entry(0xb002, 7, 32, 50); // MPEntry: two 16-byte entries at offset 50
  at += 4; // no next IFD
  const primaryLength = primary.length + segment.length;
  for (const [type, length, offset] of [
    [0x20030000, primaryLength, 0],
    [0x00010001, second.length, primaryLength - 10],
  ] as const) {
    segment.writeUInt32BE(type, at);
    segment.writeUInt32BE(length, at + 4);
    segment.writeUInt32BE(offset, at + 8);
    at += 16;
  }
  return Buffer.concat([primary.subarray(0, 2), segment, primary.subarray(2), second]);
}
