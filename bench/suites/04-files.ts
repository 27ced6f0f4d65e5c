import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ExifTool } from 'exiftool-vendored';
import { loadConfig } from '../../src/config.js';
import { openDeps } from '../../src/app.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { freePort } from '../lib.js';

const MiB = 1024 * 1024;
const RUNS = 8;

/**
 * Attachments: upload throughput of a 10 MiB JPEG with its metadata removed, next to a plain
 * copy of the same bytes on the same disk; and the server's memory while 5 uploads of 25 MiB
 * run at once (the server runs in its own process so its peak RSS is its own).
 */
export async function run(): Promise<void> {
  console.log('\n### Attachments (sqlite, server in a child process)\n');
  console.log('| measurement | MB/s | p50 ms | p99 ms | × baseline | note |');
  console.log('|---|---|---|---|---|---|');
  const dir = await mkdtemp(join(tmpdir(), 'tasktree-files-bench-'));
  const server = await startChild(dir);
  try {
    const atStart = await server.memory();
    const photo = await tenMiBPhoto(join(dir, 'photo.jpg'));
    const copy = await timed(RUNS, (i) => copyFile(join(dir, 'photo.jpg'), join(dir, `copy-${i}.jpg`)));
    row('plain file copy of the 10 MiB JPEG (baseline)', photo.length, copy);
    const agent = await server.agent();
    const tree = await agent.json('POST', '/api/v1/trees', { name: 'Bench' });
    const task = await agent.json('POST', '/api/v1/tasks', { tree_id: tree.tree.id, title: 'Photos' });
    const path = `/api/v1/tasks/${task.task.id}/attachments`;
    let removed: string[] = [];
    const uploads = await timed(RUNS, async () => {
      const answer = await agent.upload(path, photo, 'whiteboard.jpg');
      removed = answer.attachment.metadata_removed;
    });
    row(
      'POST /tasks/{id}/attachments, 10 MiB JPEG, metadata removed',
      photo.length,
      uploads,
      copy,
      `removed: ${removed.join(', ')}`,
    );
    const plain = Buffer.alloc(10 * MiB, 3);
    row(
      'POST /tasks/{id}/attachments, 10 MiB non-image',
      plain.length,
      await timed(RUNS, () => agent.upload(path, plain, 'data.bin')),
      copy,
    );

    const before = await server.memory();
    const big = Buffer.alloc(25 * MiB, 5);
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, (_, i) => agent.upload(path, big, `big-${i}.bin`)));
    const seconds = (performance.now() - started) / 1000;
    const after = await server.memory();
    console.log(
      `| 5 parallel uploads of 25 MiB (125 MiB in flight) | ${((5 * big.length) / MiB / seconds).toFixed(0)} | | | | server peak RSS: ${atStart.peak} MiB at start, ${before.peak} MiB after the uploads above, ${after.peak} MiB after these |`,
    );
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function row(name: string, bytes: number, samples: number[], baseline?: number[], note = '') {
  const rate = (s: number[]) => bytes / MiB / (s.reduce((a, b) => a + b, 0) / s.length / 1000);
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const ratio = baseline ? (rate(samples) / rate(baseline)).toFixed(3) : '';
  console.log(
    `| ${name} | ${rate(samples).toFixed(0)} | ${at(0.5).toFixed(1)} | ${at(0.99).toFixed(1)} | ${ratio} | ${note} |`,
  );
}

async function timed(runs: number, work: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await work(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}

/** A photo of about 10 MiB (noise compresses badly) carrying the tags a phone writes. */
async function tenMiBPhoto(path: string): Promise<Buffer> {
  const side = 2600;
  const noise = Buffer.alloc(side * side * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  await writeFile(
    path,
    await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 96 })
      .toBuffer(),
  );
  const exiftool = new ExifTool({ maxProcs: 1 });
  try {
    await exiftool.write(
      path,
      {
        GPSLatitude: 48.8584,
        GPSLatitudeRef: 'N',
        GPSLongitude: 2.2945,
        GPSLongitudeRef: 'E',
        Make: 'Canon',
        Model: 'EOS',
        SerialNumber: 'S1',
        'XMP:Creator': 'Bench',
      } as never,
      { writeArgs: ['-overwrite_original'] },
    );
  } finally {
    await exiftool.end();
  }
  return readFile(path);
}

/** `src/main.ts` in its own process on a fresh DATA_DIR, with a signed-in Sprout browser. */
async function startChild(dataDir: string) {
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    DATABASE_URL: '',
  };
  const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const status = async () => {
    const text = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const kib = (name: string) =>
      Number(/(\d+) kB/.exec(text.split('\n').find((l) => l.startsWith(name)) ?? '')?.[1] ?? 0);
    return { rss: Math.round(kib('VmRSS:') / 1024), peak: Math.round(kib('VmHWM:') / 1024) };
  };
  return {
    memory: status,
    async agent() {
      let cookie = '';
      let csrf = '';
      const call = async (method: string, path: string, body?: unknown) => {
        const answer = await fetch(base + path, {
          method,
          headers: {
            cookie,
            'x-csrf-token': csrf,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const set = answer.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
        if (set !== '') cookie = set;
        const json = (await answer.json()) as { csrf?: string };
        if (typeof json.csrf === 'string') csrf = json.csrf;
        return json as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      await call('GET', '/api/v1/auth/me');
      const email = `bench-${port}@example.test`;
      await call('POST', '/api/v1/auth/register', { email, password: 'bench password 123' });
      const { deps, close } = await openDeps(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
      await setUserPlan(deps, email, 'sprout', null);
      await close();
      return {
        json: call,
        async upload(path: string, data: Buffer, name: string) {
          const form = new FormData();
          form.append('file', new Blob([data]), name);
          const answer = await fetch(base + path, {
            method: 'POST',
            headers: { cookie, 'x-csrf-token': csrf },
            body: form,
          });
          if (answer.status !== 201) throw new Error(`upload answered ${answer.status} ${await answer.text()}`);
          return answer.json() as Promise<{ attachment: { metadata_removed: string[] } }>;
        },
      };
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
