import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestEnv, type TestEnv } from '../helpers/app.js';
import { startBlobStore, storeMatrix, type TestBlobStore } from '../helpers/blob-stores.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { envOf, spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { openDeps } from '../../src/app.js';
import { sweepBlobs } from '../../src/domain/files/blob-sweep.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-');

/** Live (not zombie) processes below `root`, from /proc: pid and command name. */
function descendants(root: number): { pid: number; comm: string }[] {
  const procs = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return { pid: Number(name), ppid: Number(ppid), comm, state };
      } catch {
        return null; // ended while we looked
      }
    })
    .filter((p) => p !== null && p.state !== 'Z') as { pid: number; ppid: number; comm: string }[];
  const found: { pid: number; comm: string }[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push({ pid: p.pid, comm: p.comm });
        grew = true;
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (check()) return true;
  }
  return check();
}

/** The pid of a process that has already ended. */
function endedPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim());
}

// Uploads are received on the local disk whatever the blob store, so both leave temp files.
describe.each(storeMatrix)('leftovers after a crash (%s, %s)', (kind, storeKind) => {
  let env: TestEnv;
  let store: TestBlobStore;
  let server: ServerProcess | null = null;
  beforeEach(async () => {
    store = await startBlobStore(storeKind);
    env = makeTestEnv(kind, store.env);
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = null;
    await env.dispose();
    await store.stop();
  });

  it(
    'every start removes temp files of writers that are gone, and keeps those that may still be written',
    { timeout: 30_000 },
    async () => {
      const tmp = join(env.dataDir, 'blobs', 'tmp');
      mkdirSync(tmp, { recursive: true });
      const files = {
        endedWriter: `${HOST}.${endedPid()}.aaaa`,
        endedWriterExif: `${HOST}.${endedPid()}.bbbb_exiftool_tmp`,
        liveWriter: `${HOST}.${process.pid}.cccc`,
        otherMachine: `elsewhere.${process.pid}.dddd`,
        oldName: 'eeeeeeeeeeee',
      };
      for (const name of Object.values(files)) writeFileSync(join(tmp, name), 'half an upload');
      server = await spawnServer({ ...envOf(env), ...store.env });
      expect(
        await until(
          () => !existsSync(join(tmp, files.endedWriter)) && !existsSync(join(tmp, files.endedWriterExif)),
          5_000,
        ),
      ).toBe(true);
      // This test process is alive and may be writing; another machine's or an unnamed writer is unknown: the grace period decides.
      for (const name of [files.liveWriter, files.otherMachine, files.oldName])
        expect(existsSync(join(tmp, name)), name).toBe(true);
    },
  );

  it('a start removes temp files named with its own pid that are older than the process (a container restart)', async () => {
    const { deps, close } = await openDeps(env.config);
    try {
      mkdirSync(deps.tempFiles.dir, { recursive: true });
      const before = join(deps.tempFiles.dir, `${HOST}.${process.pid}.ffff`);
      const mine = join(deps.tempFiles.dir, `${HOST}.${process.pid}.gggg`);
      writeFileSync(before, 'left by the previous process with this pid');
      writeFileSync(mine, 'an upload of this process');
      const earlier = (performance.timeOrigin - 60_000) / 1000;
      utimesSync(before, earlier, earlier);
      expect(await sweepBlobs(deps)).toBe(1);
      expect(existsSync(before)).toBe(false);
      expect(existsSync(mine)).toBe(true);
    } finally {
      await close();
    }
  });

  it('the EXIF helper processes end with the server, even on SIGKILL', { timeout: 60_000 }, async () => {
    server = await spawnServer({ ...envOf(env), ...store.env });
    const person = await makeUser(server.url);
    const side = await openDeps(env.config);
    await setUserPlan(side.deps, person.email, 'sprout', null);
    await side.close();
    const { agent } = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#4a7' } })
      .jpeg()
      .toBuffer();
    const uploaded = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [
      { data: jpeg, name: 'photo.jpg', type: 'image/jpeg' },
    ]);
    expect(uploaded.status).toBe(201);
    const helpers = descendants(server.process.pid!);
    expect(helpers.map((p) => p.comm)).toContain('perl');

    await server.stop('SIGKILL');
    server = null;
    const ended = await until(() => helpers.every((p) => !alive(p.pid)), 5_000);
    expect(ended, JSON.stringify(helpers.filter((p) => alive(p.pid)))).toBe(true);
  });
});
