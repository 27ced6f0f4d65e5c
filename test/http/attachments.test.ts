import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import exifr from 'exifr';
import sharp from 'sharp';
import { ExifTool } from 'exiftool-vendored';
import { startTestApp } from '../helpers/app.js';
import { startBlobStore, storeMatrix, type TestBlobStore } from '../helpers/blob-stores.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { download, makePhoto, tempFile, upload, webpChunks } from '../helpers/files.js';
import type { Client } from '../helpers/client.js';
import { getAttachment } from '../../src/domain/files/attachments.js';
import { sweepBlobs } from '../../src/domain/files/blob-sweep.js';
import { userActor } from '../../src/domain/actor.js';

const MAX = 26_214_400;

/** exifr cannot read XMP or IPTC inside TIFF; for TIFF those are checked by the byte search. */
function readerOptions(format: string) {
  return { gps: true, tiff: true, exif: true, xmp: format !== 'tiff', iptc: format !== 'tiff', mergeOutput: true };
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe.each(storeMatrix)('attachments (%s, %s)', (kind, storeKind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let store: TestBlobStore;
  /** What the blob store holds, looked at around the app. */
  const stored = () => store.keys(t.env.dataDir);
  let alice: Person;
  let agent: Client;
  let exiftool: ExifTool;
  let blobs: string;

  beforeAll(async () => {
    store = await startBlobStore(storeKind);
    t = await startTestApp(kind, store.env);
    blobs = join(t.env.dataDir, 'blobs');
    exiftool = new ExifTool({ maxProcs: 1 });
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    agent = (await makeToken(alice)).agent;
  });
  afterAll(async () => {
    await exiftool.end();
    await t.stop();
    await store.stop();
  });

  it('stores a file, lists it and serves it back safely', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const data = Buffer.from('<html><script>alert(1)</script></html>');
    const created = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [
      { data, name: 'page.html', type: 'text/html' },
    ]);
    expect(created.status).toBe(201);
    expect(created.body.attachment).toEqual({
      id: expect.stringMatching(/^att_/),
      task_id: task.id,
      filename: 'page.html',
      content_type: 'text/html',
      size: data.length,
      sha256: sha(data),
      metadata_removed: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.attachment.id;

    const listed = await agent.get(`/api/v1/tasks/${task.id}/attachments`);
    expect(listed.body).toEqual({ items: [created.body.attachment], next_cursor: null });

    const content = await download(agent, `${t.url}/api/v1/attachments/${id}/content`);
    expect(content.status).toBe(200);
    expect(content.bytes.equals(data)).toBe(true);
    expect(content.headers.get('content-disposition')).toBe(
      `attachment; filename="page.html"; filename*=UTF-8''page.html`,
    );
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toMatch(/^sandbox/);

    const ranged = await download(agent, `${t.url}/api/v1/attachments/${id}/content`, { range: 'bytes=6-13' });
    expect(ranged.status).toBe(206);
    expect(ranged.bytes.toString()).toBe('<script>');
    expect(ranged.headers.get('content-range')).toBe(`bytes 6-13/${data.length}`);
    expect(
      (await download(agent, `${t.url}/api/v1/attachments/${id}/content`, { range: 'bytes=-6' })).bytes.toString(),
    ).toBe('/html>');
    const outside = await download(agent, `${t.url}/api/v1/attachments/${id}/content`, { range: 'bytes=999-' });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${data.length}`);
  });

  it('serves content with its declared type only when a browser shows or plays it, else as application/octet-stream (CONTRACT §19)', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const cases: [name: string, type: string, data: Buffer, served: string][] = [
      ['app.js', 'text/javascript', Buffer.from('fetch("/api/v1/tokens")'), 'application/octet-stream'],
      ['old.js', 'application/javascript', Buffer.from('alert(1)'), 'application/octet-stream'],
      ['page.html', 'text/html', Buffer.from('<script>alert(1)</script>'), 'application/octet-stream'],
      [
        'page.xhtml',
        'application/xhtml+xml',
        Buffer.from('<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'),
        'application/octet-stream',
      ],
      [
        'logo.svg',
        'image/svg+xml',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'application/octet-stream',
      ],
      ['site.css', 'text/css', Buffer.from('body{background:url(/x)}'), 'application/octet-stream'],
      ['feed.xml', 'application/xml', Buffer.from('<?xml version="1.0"?><a/>'), 'application/octet-stream'],
      ['data.xml', 'text/xml', Buffer.from('<a/>'), 'application/octet-stream'],
      ['dot.png', 'image/png', png, 'image/png'],
      ['paper.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf'],
      ['notes.txt', 'text/plain', Buffer.from('plain words'), 'text/plain'],
      ['rows.csv', 'text/csv', Buffer.from('a,b\n1,2\n'), 'text/csv'],
      ['memo.mp3', 'audio/mpeg', Buffer.from('ID3 fake audio'), 'audio/mpeg'],
      ['clip.mp4', 'video/mp4', Buffer.from('fake video'), 'video/mp4'],
    ];
    for (const [name, type, data, served] of cases) {
      const created = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data, name, type }]);
      expect(created.status, name).toBe(201);
      // The record keeps what was declared; only the answer's Content-Type changes.
      expect(created.body.attachment.content_type, name).toBe(type);
      const id = created.body.attachment.id;
      const content = await download(agent, `${t.url}/api/v1/attachments/${id}/content`);
      expect(content.headers.get('content-type'), name).toBe(served);
      expect(content.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(content.bytes.equals(data), name).toBe(true);
      const link = (await agent.get(`/api/v1/attachments/${id}`)).body.content_url as string;
      const linked = await download(null, `${t.url}${new URL(link).pathname}${new URL(link).search}`);
      expect(linked.headers.get('content-type'), name).toBe(served);
      expect(
        (await download(agent, `${t.url}/api/v1/attachments/${id}/content`, { range: 'bytes=0-1' })).headers.get(
          'content-type',
        ),
        name,
      ).toBe(served);
    }
  });

  it('hands out a signed link that works without credentials for at most 5 minutes', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const data = Buffer.from('signed content');
    const { body } = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data }]);
    const link = await agent.get(`/api/v1/attachments/${body.attachment.id}`);
    expect(link.status).toBe(200);
    expect(link.body.attachment).toEqual(body.attachment);
    const expiresAt = Date.parse(link.body.content_url_expires_at);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(300_000);
    expect(expiresAt - Date.now()).toBeGreaterThan(250_000);

    // The link is absolute on PUBLIC_URL; the test server listens on another port.
    expect(
      link.body.content_url.startsWith(
        `${t.app.deps.config.publicUrl}/api/v1/attachments/${body.attachment.id}/content?`,
      ),
    ).toBe(true);
    const local = (href: string) => {
      const u = new URL(href);
      return `${t.url}${u.pathname}${u.search}`;
    };
    const anonymous = await download(null, local(link.body.content_url));
    expect(anonymous.status).toBe(200);
    expect(anonymous.bytes.equals(data)).toBe(true);

    const url = new URL(local(link.body.content_url));
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60));
    expect((await download(null, tampered.toString())).status).toBe(401);
    const otherId = new URL(url);
    otherId.pathname = otherId.pathname.replace(body.attachment.id, 'att_other');
    expect((await download(null, otherId.toString())).status).toBe(401);
    const badSignature = new URL(url);
    badSignature.searchParams.set('signature', 'x'.repeat(43));
    expect((await download(null, badSignature.toString())).status).toBe(401);

    const user = await t.app.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', alice.user.id)
      .executeTakeFirstOrThrow();
    const old = await getAttachment(
      t.app.deps,
      userActor(user as never, 'session'),
      body.attachment.id,
      Date.now() - 301_000,
    );
    expect((await download(null, local(old.content_url))).status).toBe(401);
    expect((await download(null, `${t.url}/api/v1/attachments/${body.attachment.id}/content`)).status).toBe(401);
  });

  for (const format of ['jpeg', 'png', 'webp', 'tiff', 'avif', 'heic'] as const) {
    it(`removes GPS and camera metadata from a ${format} photo without touching its pixels`, async () => {
      const tree = await makeTree(agent);
      const task = await makeTask(agent, tree.id);
      const photo = await makePhoto(format, exiftool);
      // exifr reads every format here but WebP; WebP's metadata lives in RIFF chunks checked by hand.
      if (format === 'webp') {
        expect(webpChunks(photo)).toEqual(expect.arrayContaining(['EXIF', 'XMP ']));
      } else {
        const before = await exifr.parse(photo, readerOptions(format));
        expect(before.latitude).toBeCloseTo(48.8584, 3);
        expect(before.Make).toBe('Canon');
      }

      const created = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [
        { data: photo, name: `IMG_0001.${format}`, type: 'application/octet-stream' },
      ]);
      expect(created.status).toBe(201);
      const attachment = created.body.attachment;
      expect(attachment.content_type).toBe(`image/${format}`);
      expect(attachment.metadata_removed).toEqual(
        expect.arrayContaining(['gps', 'camera', 'serial_numbers', 'owner', 'xmp']),
      );
      if (format === 'jpeg' || format === 'tiff') expect(attachment.metadata_removed).toContain('iptc');
      if (format === 'jpeg') expect(attachment.metadata_removed).toContain('thumbnail');

      const stored = (await download(agent, `${t.url}/api/v1/attachments/${attachment.id}/content`)).bytes;
      expect(stored.length).toBe(attachment.size);
      for (const text of ['Alice Example', 'CAM-12345', 'LENS-999', 'Canon', 'whiteboard', 'Paris', 'xmpmeta']) {
        expect(photo.includes(text) || text === 'whiteboard' || text === 'Paris', `${format} had ${text}`).toBe(true);
        expect(stored.includes(text), `${format} still holds ${text}`).toBe(false);
      }
      expect(sha(stored)).toBe(attachment.sha256);
      if (format === 'webp') {
        expect(webpChunks(stored)).not.toContain('XMP ');
        const exif = webpChunks(stored).includes('EXIF') ? await exiftool.readRaw(tempFile(stored, 'webp')) : {};
        for (const gone of ['GPSLatitude', 'Make', 'Model', 'SerialNumber', 'OwnerName'])
          expect((exif as any)[gone]).toBeUndefined();
        return void expect((await sharp(stored).raw().toBuffer()).equals(await sharp(photo).raw().toBuffer())).toBe(
          true,
        );
      }
      const after = (await exifr.parse(stored, readerOptions(format))) ?? {};
      for (const gone of [
        'latitude',
        'longitude',
        'GPSLatitude',
        'Make',
        'Model',
        'SerialNumber',
        'LensSerialNumber',
        'OwnerName',
        'creator',
        'Label',
        'Keywords',
        'City',
      ]) {
        expect(after[gone], `${format} ${gone}`).toBeUndefined();
      }
      expect(await exifr.thumbnail(stored)).toBeUndefined();
      expect(after.Orientation, 'orientation kept').toBe('Rotate 90 CW');

      const [original, cleaned] = await Promise.all([sharp(photo).raw().toBuffer(), sharp(stored).raw().toBuffer()]);
      expect(cleaned.equals(original), 'same decoded pixels').toBe(true);
    });
  }

  it('accepts 26,214,400 bytes and refuses one more with nothing left behind', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const full = Buffer.alloc(MAX, 7);
    const ok = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data: full }]);
    expect(ok.status).toBe(201);
    expect(ok.body.attachment.size).toBe(MAX);
    const before = await stored();

    const over = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data: Buffer.alloc(MAX + 1, 7) }]);
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('payload_too_large');
    expect((await agent.get(`/api/v1/tasks/${task.id}/attachments`)).body.items).toHaveLength(1);
    expect(await stored()).toEqual(before);
    expect(filesUnder(join(blobs, 'tmp'))).toEqual([]);
  });

  it('leaves nothing behind when the client goes away mid-upload', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const { request } = await import('node:http');
    const boundary = 'x-boundary-123';
    const url = new URL(`${t.url}/api/v1/tasks/${task.id}/attachments`);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent.bearer}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(10 * 1024 * 1024),
      },
    });
    req.on('error', () => {});
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    req.write(Buffer.alloc(512 * 1024, 1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(filesUnder(join(blobs, 'tmp')).length).toBe(1);
    req.destroy();
    for (let i = 0; i < 50 && filesUnder(join(blobs, 'tmp')).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(filesUnder(join(blobs, 'tmp'))).toEqual([]);
    expect((await agent.get(`/api/v1/tasks/${task.id}/attachments`)).body.items).toEqual([]);
  });

  it('refuses bad uploads with the CONTRACT error and stores nothing', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const path = `/api/v1/tasks/${task.id}/attachments`;
    const json = await agent.post(path, { file: 'x' });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');
    const text = await agent.request('POST', path, { raw: 'hello', contentType: 'text/plain' });
    expect(text.status).toBe(415);

    const noFile = await upload(agent, path, [], { filename: 'x.txt' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error.code).toBe('validation_failed');
    const twoFiles = await upload(agent, path, [{ data: Buffer.from('one') }, { data: Buffer.from('two') }]);
    expect(twoFiles.status).toBe(400);
    expect(twoFiles.body.error.details[0].path).toBe('/file');
    const wrongField = await upload(agent, path, [{ field: 'document', data: Buffer.from('x') }]);
    expect(wrongField.status).toBe(400);

    const corrupt = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10]),
      Buffer.from('Exif\0\0GPS-garbage-not-a-jpeg'),
    ]);
    // A photo cut short with its GPS still in the header cannot be rewritten: refused, not stored.
    const photo = await makePhoto('jpeg', exiftool);
    const truncated = await upload(agent, path, [
      { data: photo.subarray(0, Math.floor(photo.length * 0.6)), name: 'cut.jpg' },
    ]);
    expect(truncated.status).toBe(400);
    expect(truncated.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: '/file' }] });
    expect((await agent.get(`/api/v1/tasks/${task.id}/attachments`)).body.items).toHaveLength(0);
    // JPEG magic with no readable metadata at all is kept as an ordinary file, byte for byte.
    const broken = await upload(agent, path, [{ data: corrupt, name: 'broken.jpg' }]);
    expect(broken.status).toBe(201);
    expect(broken.body.attachment).toMatchObject({ metadata_removed: [], size: corrupt.length, sha256: sha(corrupt) });
    expect(filesUnder(join(blobs, 'tmp'))).toEqual([]);
    expect((await upload(agent, '/api/v1/tasks/tsk_missing/attachments', [{ data: Buffer.from('x') }])).status).toBe(
      404,
    );
  });

  it('sanitizes file names', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const path = `/api/v1/tasks/${task.id}/attachments`;
    const cases: [string, (name: string) => void][] = [
      ['../../etc/passwd', (n) => expect(n).toBe('passwd')],
      ['C:\\Users\\alice\\секрет.pdf', (n) => expect(n).toBe('секрет.pdf')],
      ['evil\u0000name\r\n.txt', (n) => expect(n).toBe('evilname.txt')],
      ['a'.repeat(1000) + '.jpeg', (n) => expect(n).toMatch(/^a{250}\.jpeg$/)],
      ['\u202egnp.exe', (n) => expect(n).toBe('gnp.exe')],
      ['/', (n) => expect(n).toBe('file')],
    ];
    for (const [name, check] of cases) {
      const created = await upload(agent, path, [{ data: Buffer.from('x') }], { filename: name });
      expect(created.status, name).toBe(201);
      check(created.body.attachment.filename);
    }
    const after = await upload(
      agent,
      path,
      [{ data: Buffer.from('x'), name: 'part-name.txt' }],
      { filename: 'field-name.txt' },
      { fieldsAfter: true },
    );
    expect(after.body.attachment.filename).toBe('field-name.txt');
    const fromPart = await upload(agent, path, [{ data: Buffer.from('x'), name: 'part-name.txt' }]);
    expect(fromPart.body.attachment.filename).toBe('part-name.txt');
    const listed = await agent.get(`${path}?limit=2`);
    const id = listed.body.items[1].id;
    const disposition = (await download(agent, `${t.url}/api/v1/attachments/${id}/content`)).headers.get(
      'content-disposition',
    );
    expect(disposition).toBe(
      `attachment; filename="______.pdf"; filename*=UTF-8''%D1%81%D0%B5%D0%BA%D1%80%D0%B5%D1%82.pdf`,
    );
  });

  it("pages a task's attachments and transcriptions with cursors bound to the task and the list", async () => {
    const tree = await makeTree(agent);
    const [task, other] = [await makeTask(agent, tree.id), await makeTask(agent, tree.id)];
    const path = `/api/v1/tasks/${task.id}/attachments`;
    const ids: string[] = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      ids.push((await upload(agent, path, [{ data: Buffer.from(name), name }])).body.attachment.id);
    await upload(agent, `/api/v1/tasks/${other.id}/attachments`, [{ data: Buffer.from('elsewhere') }]);

    const first = await agent.get(`${path}?limit=2`);
    expect(first.body.items.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 2));
    const cursor = encodeURIComponent(first.body.next_cursor);
    await upload(agent, path, [{ data: Buffer.from('later') }]);
    const second = await agent.get(`${path}?limit=2&cursor=${cursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: ids[2] })], next_cursor: null });

    for (const wrong of [
      `/api/v1/tasks/${other.id}/attachments?limit=2`,
      `/api/v1/tasks/${task.id}/transcriptions?limit=2`,
    ]) {
      const refused = await agent.get(`${wrong}&cursor=${cursor}`);
      expect(refused.status, wrong).toBe(400);
      expect(refused.body.error.code).toBe('invalid_cursor');
    }
  });

  it('needs the attachments scope, write for uploads and a paid plan for API writes', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const { body } = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data: Buffer.from('scoped') }]);
    const readOnly = (await makeToken(alice, { scopes: ['read'] })).agent;
    // SPEC rule 4: content is behind read + attachments, and the signed link hands out content.
    const noLink = await readOnly.get(`/api/v1/attachments/${body.attachment.id}`);
    expect(noLink.status).toBe(403);
    expect(noLink.body.error.code).toBe('insufficient_scope');
    expect(noLink.headers.get('www-authenticate')).toContain('scope="attachments"');
    expect(JSON.stringify(noLink.body)).not.toContain('signature');
    const noContent = await download(readOnly, `${t.url}/api/v1/attachments/${body.attachment.id}/content`);
    expect(noContent.status).toBe(403);
    // The records themselves are task data that read covers.
    expect((await readOnly.get(`/api/v1/tasks/${task.id}/attachments`)).body.items.map((a: any) => a.id)).toEqual([
      body.attachment.id,
    ]);
    const attachmentsOnly = (await makeToken(alice, { scopes: ['attachments'] })).agent;
    expect((await attachmentsOnly.get(`/api/v1/attachments/${body.attachment.id}`)).body.error.code).toBe(
      'insufficient_scope',
    );
    expect((await download(attachmentsOnly, `${t.url}/api/v1/attachments/${body.attachment.id}/content`)).status).toBe(
      403,
    );
    // Decided in the domain, so every door (REST, MCP, CLI) refuses the link alike.
    const user = await t.app.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', alice.user.id)
      .executeTakeFirstOrThrow();
    const tokenReader = {
      ...userActor(user as never, 'session'),
      via: 'token' as const,
      scopes: new Set(['read'] as const),
    };
    await expect(getAttachment(t.app.deps, tokenReader, body.attachment.id)).rejects.toMatchObject({
      code: 'insufficient_scope',
    });
    const both = (await makeToken(alice, { scopes: ['read', 'attachments'] })).agent;
    const link = await both.get(`/api/v1/attachments/${body.attachment.id}`);
    expect(link.status).toBe(200);
    const signed = new URL(link.body.content_url);
    expect(await (await fetch(`${t.url}${signed.pathname}${signed.search}`)).text()).toBe('scoped');
    expect((await download(both, `${t.url}/api/v1/attachments/${body.attachment.id}/content`)).bytes.toString()).toBe(
      'scoped',
    );
    const refused = await upload(readOnly, `/api/v1/tasks/${task.id}/attachments`, [{ data: Buffer.from('x') }]);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    const noAttachments = (await makeToken(alice, { scopes: ['read', 'write'] })).agent;
    expect(
      (await upload(noAttachments, `/api/v1/tasks/${task.id}/attachments`, [{ data: Buffer.from('x') }])).body.error
        .code,
    ).toBe('insufficient_scope');

    const seed = await makeUser(t.url, t.app);
    const seedAgent = (await makeToken(seed)).agent;
    const seedTree = await makeTree(seed.browser);
    const seedTask = await makeTask(seed.browser, seedTree.id);
    const readOnlyPlan = await upload(seedAgent, `/api/v1/tasks/${seedTask.id}/attachments`, [
      { data: Buffer.from('x') },
    ]);
    expect(readOnlyPlan.status).toBe(403);
    expect(readOnlyPlan.body.error.code).toBe('insufficient_scope');
    const viaBrowser = await upload(seed.browser, `/api/v1/tasks/${seedTask.id}/attachments`, [
      { data: Buffer.from('from the browser') },
    ]);
    expect(viaBrowser.status).toBe(201);
    const content = await download(seedAgent, `${t.url}/api/v1/attachments/${viaBrowser.body.attachment.id}/content`);
    expect(content.bytes.toString()).toBe('from the browser');
  });

  it('keeps each owner within the storage of the plan, and a delete frees it', async () => {
    const bob = await makeUser(t.url, t.app);
    const tree = await makeTree(bob.browser);
    const task = await makeTask(bob.browser, tree.id);
    const path = `/api/v1/tasks/${task.id}/attachments`;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await upload(bob.browser, path, [{ data: Buffer.alloc(MAX, i) }]);
      expect(created.status).toBe(201);
      ids.push(created.body.attachment.id);
    }
    const over = await upload(bob.browser, path, [{ data: Buffer.from('one byte too many') }]);
    expect(over.status).toBe(403);
    expect(over.body.error).toMatchObject({
      code: 'plan_limit_reached',
      details: [{ limit: 'attachment_storage_bytes', value: 104_857_600 }],
    });
    const bobs = async () => (await stored()).filter((key) => key.startsWith(`${bob.user.id}/`));
    expect(await bobs()).toEqual(ids.map((id) => `${bob.user.id}/${id}`).sort());
    expect((await bob.browser.delete(`/api/v1/attachments/${ids[0]}`)).status).toBe(200);
    expect(await bobs()).toEqual(
      ids
        .slice(1)
        .map((id) => `${bob.user.id}/${id}`)
        .sort(),
    );
    expect((await upload(bob.browser, path, [{ data: Buffer.from('fits again') }])).status).toBe(201);
    expect((await bob.browser.get(`/api/v1/attachments/${ids[0]}`)).status).toBe(404);
  });

  it('holds the storage limit when uploads race for the last space', async () => {
    const carol = await makeUser(t.url, t.app);
    const tree = await makeTree(carol.browser);
    const task = await makeTask(carol.browser, tree.id);
    const path = `/api/v1/tasks/${task.id}/attachments`;
    for (let i = 0; i < 3; i++)
      expect((await upload(carol.browser, path, [{ data: Buffer.alloc(MAX, i) }])).status).toBe(201);
    // 75 MiB stored; 25 MiB left: of four 10 MiB uploads at once, exactly two fit.
    const racing = await Promise.all(
      Array.from({ length: 4 }, (_, i) => upload(carol.browser, path, [{ data: Buffer.alloc(10 * 1024 * 1024, i) }])),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 403, 403]);
    const used = await t.app.deps.db
      .selectFrom('attachments')
      .select('size')
      .where('owner_id', '=', carol.user.id)
      .execute();
    expect(used.reduce((n, r) => n + Number(r.size), 0)).toBe(3 * MAX + 2 * 10 * 1024 * 1024);
    const rows = await t.app.deps.db
      .selectFrom('attachments')
      .select('id')
      .where('owner_id', '=', carol.user.id)
      .execute();
    expect((await stored()).filter((key) => key.startsWith(`${carol.user.id}/`))).toEqual(
      rows.map((r) => `${carol.user.id}/${r.id}`).sort(),
    );
    expect(filesUnder(join(blobs, 'tmp'))).toEqual([]);
  });

  it('keeps other tenants out: foreign ids are 404 everywhere', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const { body } = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data: Buffer.from('private') }]);
    const mallory = await makeUser(t.url, t.app, { plan: 'sprout' });
    const eve = (await makeToken(mallory)).agent;
    const id = body.attachment.id;
    expect((await eve.get(`/api/v1/attachments/${id}`)).status).toBe(404);
    expect((await download(eve, `${t.url}/api/v1/attachments/${id}/content`)).status).toBe(404);
    expect((await eve.delete(`/api/v1/attachments/${id}`)).status).toBe(404);
    expect((await eve.get(`/api/v1/tasks/${task.id}/attachments`)).status).toBe(404);
    expect((await upload(eve, `/api/v1/tasks/${task.id}/attachments`, [{ data: Buffer.from('x') }])).status).toBe(404);
    expect((await agent.get(`/api/v1/attachments/${id}`)).status).toBe(200);
  });

  it('removes attachments and blobs with their task, project or tree, and exports their records', async () => {
    const tree = await makeTree(agent);
    const project = await makeProject(agent, tree.id);
    const inProject = await makeTask(agent, tree.id, { project_id: project.id });
    const loose = await makeTask(agent, tree.id);
    const alone = await makeTask(agent, tree.id);
    const ids: Record<string, string> = {};
    for (const [name, task] of Object.entries({ inProject, loose, alone })) {
      ids[name] = (
        await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [{ data: Buffer.from(name), name: `${name}.txt` }])
      ).body.attachment.id;
    }
    const has = async (id: string) => (await stored()).includes(`${alice.user.id}/${id}`);
    for (const id of Object.values(ids)) expect(await has(id)).toBe(true);
    const exported = await agent.get(`/api/v1/trees/${tree.id}/export`);
    expect(exported.body.attachments.map((a: any) => a.filename).sort()).toEqual([
      'alone.txt',
      'inProject.txt',
      'loose.txt',
    ]);

    expect((await agent.delete(`/api/v1/tasks/${alone.id}`)).status).toBe(200);
    expect(await has(ids.alone!)).toBe(false);
    expect((await agent.delete(`/api/v1/projects/${project.id}?cascade=true`)).status).toBe(200);
    expect(await has(ids.inProject!)).toBe(false);
    expect(await has(ids.loose!)).toBe(true);
    expect((await agent.delete(`/api/v1/trees/${tree.id}`)).status).toBe(200);
    expect(await has(ids.loose!)).toBe(false);
    const rows = await t.app.deps.db
      .selectFrom('attachments')
      .select('id')
      .where('id', 'in', Object.values(ids))
      .execute();
    expect(rows).toEqual([]);
  });

  it('sweeps blobs whose upload never committed, after a grace period', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    await store.write(t.env.dataDir, `${alice.user.id}/att_orphan`, 'left by a crash');
    mkdirSync(join(blobs, 'tmp'), { recursive: true });
    writeFileSync(join(blobs, 'tmp', 'half-upload'), 'left by a crash');
    expect(await sweepBlobs(t.app.deps)).toBe(0);
    expect(await stored()).toContain(`${alice.user.id}/att_orphan`);
    expect(await sweepBlobs(t.app.deps, Date.now() + 11 * 60_000)).toBe(2);
    expect(await stored()).not.toContain(`${alice.user.id}/att_orphan`);
    expect(filesUnder(join(blobs, 'tmp'))).toEqual([]);
    const kept = await t.app.deps.db.selectFrom('attachments').select(['id', 'owner_id']).execute();
    expect(await stored()).toEqual(kept.map((row) => `${row.owner_id}/${row.id}`).sort());
  });
});
