import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import exifr from 'exifr';
import sharp from 'sharp';
import { ExifTool } from 'exiftool-vendored';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { download, makePhoto, mp4Trailer, plainImage, tempFile, upload, withMpfPage } from '../helpers/files.js';
import type { Client } from '../helpers/client.js';

/** CONTRACT §19: what follows an image's end (another image, MPF pages, a motion photo's video) is not stored. */
describe.each(databases)('photo trailers (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  let exiftool: ExifTool;
  let taskId: string;
  /** A phone's photo: GPS, camera, serials, owner, XMP, IPTC, a thumbnail. */
  let gps: Buffer;

  beforeAll(async () => {
    t = await startTestApp(kind);
    exiftool = new ExifTool({ maxProcs: 1 });
    agent = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
    taskId = (await makeTask(agent, (await makeTree(agent)).id)).id;
    gps = await makePhoto('jpeg', exiftool);
  });
  afterAll(async () => {
    await exiftool.end();
    await t.stop();
  });

  /** Uploads `data`; returns the record and the bytes stored. */
  async function store(data: Buffer, name: string) {
    const created = await upload(agent, `/api/v1/tasks/${taskId}/attachments`, [
      { data, name, type: 'application/octet-stream' },
    ]);
    expect(created.status, name).toBe(201);
    const stored = (await download(agent, `${t.url}/api/v1/attachments/${created.body.attachment.id}/content`)).bytes;
    return { attachment: created.body.attachment, stored };
  }

  /** Nothing of the phone's photo is left, and the image is the first one, pixel for pixel. */
  async function expectOnlyTheImage(stored: Buffer, image: Buffer, label: string) {
    for (const text of ['CAM-12345', 'LENS-999', 'Alice Example', 'Canon', 'xmpmeta', 'motion video']) {
      expect(stored.includes(text), `${label} still holds ${text}`).toBe(false);
    }
    const read =
      (await exifr
        .parse(stored, { gps: true, tiff: true, exif: true, xmp: true, iptc: true, mergeOutput: true })
        .catch(() => undefined)) ?? {};
    expect(read.latitude, label).toBeUndefined();
    expect(read.SerialNumber, label).toBeUndefined();
    const [expected, got] = await Promise.all([sharp(image).raw().toBuffer(), sharp(stored).raw().toBuffer()]);
    expect(got.equals(expected), `${label}: same pixels`).toBe(true);
  }

  it('cuts an image appended to a JPEG (`cat clean.jpg gps.jpg`) and says so', async () => {
    const clean = await plainImage('jpeg');
    const { attachment, stored } = await store(Buffer.concat([clean, gps]), 'cat.jpg');
    expect(attachment.content_type).toBe('image/jpeg');
    expect(attachment.metadata_removed).toEqual(['trailer']);
    expect(stored.length).toBeLessThanOrEqual(clean.length);
    await expectOnlyTheImage(stored, clean, 'cat');
  });

  it('walks a progressive JPEG scan by scan, and finds the end of one that has metadata of its own', async () => {
    const progressive = await plainImage('jpeg', { progressive: true });
    const cut = await store(Buffer.concat([progressive, gps]), 'progressive.jpg');
    expect(cut.attachment.metadata_removed).toEqual(['trailer']);
    await expectOnlyTheImage(cut.stored, progressive, 'progressive');

    const twice = await store(Buffer.concat([gps, gps]), 'twice.jpg');
    expect(twice.attachment.metadata_removed).toEqual(
      expect.arrayContaining(['trailer', 'gps', 'camera', 'serial_numbers', 'thumbnail']),
    );
    await expectOnlyTheImage(twice.stored, gps, 'twice');
  });

  it('cuts the pages of a multi-picture (MPF) JPEG and its index', async () => {
    const clean = await plainImage('jpeg');
    const mpf = withMpfPage(clean, gps);
    expect(Object.keys(await exiftool.readRaw(tempFile(mpf, 'jpg'))).some((key) => key.startsWith('MPImage'))).toBe(
      true,
    );
    const { attachment, stored } = await store(mpf, 'mpf.jpg');
    expect(attachment.metadata_removed).toContain('trailer');
    await expectOnlyTheImage(stored, clean, 'mpf');
    expect(Object.keys(await exiftool.readRaw(tempFile(stored, 'jpg'))).filter((key) => key.startsWith('MP'))).toEqual(
      [],
    );
  });

  it("cuts a motion photo's video after a JPEG or a HEIC", async () => {
    const jpeg = await plainImage('jpeg');
    const motion = await store(Buffer.concat([jpeg, mp4Trailer('motion video at 48.8584 N')]), 'MVIMG.jpg');
    expect(motion.attachment.metadata_removed).toEqual(['trailer']);
    await expectOnlyTheImage(motion.stored, jpeg, 'motion jpeg');

    const heic = await plainImage('heic');
    const heicMotion = await store(Buffer.concat([heic, mp4Trailer('motion video at 48.8584 N')]), 'motion.heic');
    expect(heicMotion.attachment.content_type).toBe('image/heic');
    expect(heicMotion.attachment.metadata_removed).toEqual(['trailer']);
    expect(heicMotion.stored.toString('latin1').split('ftyp')).toHaveLength(2);
    await expectOnlyTheImage(heicMotion.stored, heic, 'motion heic');
  });

  it('cuts data after the end of a PNG, a WebP and an AVIF', async () => {
    for (const format of ['png', 'webp', 'avif'] as const) {
      const image = await plainImage(format);
      const { attachment, stored } = await store(Buffer.concat([image, gps]), `appended.${format}`);
      expect(attachment.content_type, format).toBe(`image/${format}`);
      expect(attachment.metadata_removed, format).toEqual(['trailer']);
      await expectOnlyTheImage(stored, image, format);
    }
  });

  it('leaves an image with nothing after its end as it was', async () => {
    for (const format of ['jpeg', 'png', 'webp', 'avif'] as const) {
      const image = await plainImage(format);
      const { attachment, stored } = await store(image, `plain.${format}`);
      expect(attachment.metadata_removed, format).toEqual([]);
      expect(stored.equals(image), format).toBe(true);
    }
  });
});
