import { open } from 'node:fs/promises';
import type { ExifTool } from 'exiftool-vendored';
import { cutTrailer } from './image-end.js';

export interface Photo {
  contentType: string;
}

/** Photos by their first bytes, never by the name or type the client claims. */
export async function sniffPhoto(path: string): Promise<Photo | null> {
  const file = await open(path, 'r');
  const head = Buffer.alloc(16);
  try {
    await file.read(head, 0, 16, 0);
  } finally {
    await file.close();
  }
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { contentType: 'image/jpeg' };
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { contentType: 'image/png' };
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return { contentType: 'image/webp' };
  const tiff = head.toString('latin1', 0, 4);
  if (tiff === 'II*\u0000' || tiff === 'MM\u0000*') return { contentType: 'image/tiff' };
  if (head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (brand === 'avif' || brand === 'avis') return { contentType: 'image/avif' };
    if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand))
      return { contentType: 'image/heic' };
  }
  return null;
}

/**
 * Kinds of metadata that identify a place, a device or a person; none may survive. `trailer` is
 * whatever follows the image's end (cutTrailer), and the MPF index that points into it.
 */
const SENSITIVE = [
  'gps',
  'camera',
  'serial_numbers',
  'owner',
  'maker_notes',
  'xmp',
  'iptc',
  'thumbnail',
  'photoshop',
  'trailer',
] as const;
const CAMERA_TAGS = new Set([
  'Make',
  'Model',
  'LensMake',
  'LensModel',
  'LensInfo',
  'UniqueCameraModel',
  'CameraModelName',
  'LocalizedCameraModel',
  'Software',
  'HostComputer',
]);
const OWNER_TAGS = new Set(['Artist', 'OwnerName', 'CameraOwnerName', 'Copyright', 'ImageUniqueID']);
/** Intrinsic to the image or deliberately kept (the Orientation tag, so photos stay upright). */
const KEPT_EXIF = new Set(['Orientation', 'ExifByteOrder']);
const NOT_METADATA = new Set([
  'SourceFile',
  'ExifTool',
  'File',
  'Composite',
  'errors',
  'warnings',
  'ICC_Profile',
  'JFIF',
]);

/** `EXIF:GPS:GPSLatitude` (family 0 and 1 groups, then the tag) → the kind of metadata it is. */
function kindOf(key: string): string | null {
  const parts = key.split(':');
  const [family0 = '', family1 = ''] = parts;
  const tag = parts[parts.length - 1] ?? '';
  if (NOT_METADATA.has(family0)) return null;
  if (family1 === 'GPS' || tag.startsWith('GPS')) return 'gps';
  if (/SerialNumber$/.test(tag)) return 'serial_numbers';
  if (family0 === 'MakerNotes') return 'maker_notes';
  if (family0 === 'XMP') return 'xmp';
  if (family0 === 'IPTC') return 'iptc';
  if (family0 === 'Photoshop') return 'photoshop';
  if (family0 === 'MPF') return 'trailer';
  // In IFD0 of a JPEG-compressed TIFF, ExifTool names the image data itself PreviewImage.
  if (family1 === 'IFD1' || tag === 'ThumbnailImage' || (tag === 'PreviewImage' && family1 !== 'IFD0'))
    return 'thumbnail';
  if (CAMERA_TAGS.has(tag)) return 'camera';
  if (OWNER_TAGS.has(tag)) return 'owner';
  if (family0 === 'EXIF' && !KEPT_EXIF.has(tag)) return 'exif';
  if (family0 === 'PNG' && /^(TextualData|Comment|Author|Title|Description|CreationTime)/.test(tag)) return 'png_text';
  return null;
}

/**
 * Everything goes, then Orientation and the colour profile are copied back from the original.
 * TIFF keeps IFD0 through `-all=` (it holds the image structure), so the identifying tags that
 * may live there are named one by one.
 */
const STRIP_ARGS = [
  '-all=',
  ...[...CAMERA_TAGS, ...OWNER_TAGS, 'ImageDescription', 'DocumentName', 'PageName'].map((tag) => `-${tag}=`),
  '-tagsFromFile',
  '@',
  '-Orientation',
  '-ICC_Profile',
  '-overwrite_original',
];

/** The photo could not be cleaned: it is refused rather than stored with its metadata. */
export class PhotoNotCleaned extends Error {}

/**
 * Removes identifying metadata from photos with ExifTool (on the machine's Perl), in place and
 * without re-encoding the image data. Orientation and the colour profile are kept. The file is
 * read again afterwards: if anything sensitive is still there, the photo is refused.
 */
export class PhotoCleaner {
  private tool: Promise<ExifTool> | null = null;

  /** ExifTool's library is imported with the first photo: a service that never gets one does not carry it. */
  private exiftool(): Promise<ExifTool> {
    this.tool ??= (async () => {
      const [{ ExifTool }, { guardedExiftool }] = await Promise.all([
        import('exiftool-vendored'),
        import('./exiftool-process.js'),
      ]);
      // Behind a guard that ends ExifTool with the service, even when the service is killed.
      return new ExifTool({ maxProcs: 2, taskTimeoutMillis: 30_000, processFactory: guardedExiftool() });
    })();
    return this.tool;
  }

  private async kinds(path: string): Promise<Set<string>> {
    const raw = await (await this.exiftool()).readRaw(path, { readArgs: ['-a', '-G0:1', '-n'] });
    const kinds = new Set<string>();
    for (const key of Object.keys(raw)) {
      const kind = kindOf(key);
      if (kind !== null) kinds.add(kind);
    }
    return kinds;
  }

  /** Strips the photo at `path`, and what follows the image's end; returns the kinds of metadata that went, sorted. */
  async clean(path: string, photo: Photo): Promise<string[]> {
    try {
      // First: ExifTool reads no metadata from an image appended after the end, so it would not
      // know there was any (`cat clean.jpg gps.jpg`), and could not say so.
      const cut = await cutTrailer(path, photo.contentType);
      const before = await this.kinds(path);
      if (cut) before.add('trailer');
      if (before.size > 0) {
        await (await this.exiftool()).write(path, {}, { writeArgs: STRIP_ARGS });
      }
      const after = await this.kinds(path);
      const left = SENSITIVE.filter((kind) => after.has(kind));
      if (left.length > 0) throw new PhotoNotCleaned(`metadata left after cleaning: ${left.join(', ')}`);
      return [...before].filter((kind) => !after.has(kind)).sort();
    } catch (err) {
      if (err instanceof PhotoNotCleaned) throw err;
      throw new PhotoNotCleaned(err instanceof Error ? err.message : String(err));
    }
  }

  async close(): Promise<void> {
    const tool = this.tool;
    this.tool = null;
    if (tool !== null) await (await tool).end();
  }
}
