import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestEnv, type TestEnv } from '../helpers/app.js';
import { cliEnvOf, tasktree } from '../helpers/cli.js';
import { makeUser, type Person } from '../helpers/factories.js';
import { makeTree } from '../helpers/data.js';
import { spawnServer, envOf, type ServerProcess } from '../helpers/server-process.js';
import { loadSqlite } from '../../src/store/sqlite-driver.js';

const sh = promisify(execFile);

function readBackup(file: string) {
  const db = new (loadSqlite())(file, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      tasks: (db.prepare('SELECT count(*) AS n FROM tasks').get() as { n: number }).n,
      // The tree's counter moves in the same transaction as each insert: equal only in a consistent copy.
      counted: (db.prepare('SELECT sum(task_count) AS n FROM trees').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

describe('tasktree backup and restore (SQLite)', { timeout: 300_000 }, () => {
  let env: TestEnv;
  let server: ServerProcess;
  let person: Person;
  let treeId: string;
  let cli: (...args: string[]) => ReturnType<typeof tasktree>;

  beforeAll(async () => {
    env = makeTestEnv('sqlite');
    server = await spawnServer(envOf(env));
    person = await makeUser(server.url);
    treeId = (await makeTree(person.browser, { name: 'Backed up' })).id;
    const childEnv = cliEnvOf(env);
    cli = (...args) => tasktree(childEnv, ...args);
  });
  afterAll(async () => {
    await server.stop();
    await env.dispose();
  });

  it('copies a consistent database while the server process writes, and restores it only once the server is stopped', async () => {
    let written = 0;
    let writing = true;
    const writer = (async () => {
      while (writing && written < 450) {
        const created = await person.browser.post('/api/v1/tasks', { tree_id: treeId, title: `task ${written}` });
        if (created.status !== 201) throw new Error(`write failed: ${created.status} ${created.text}`);
        written++;
      }
    })();
    while (written < 10) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = written;
    const file = join(env.dataDir, 'copy.db');
    const backup = await cli('backup', '--to', file);
    const after = written;
    writing = false;
    await writer;
    expect(backup.code).toBe(0);
    expect(backup.stdout.trim()).toBe(file);
    expect(backup.stderr).toContain('blobs');
    const copy = readBackup(file);
    expect(copy.integrity).toBe('ok');
    expect(copy.tasks).toBe(copy.counted);
    expect(copy.tasks).toBeGreaterThanOrEqual(before);
    expect(copy.tasks).toBeLessThanOrEqual(after);
    expect(readdirSync(env.dataDir).filter((f) => f.startsWith('copy.db'))).toEqual(['copy.db']);
    const again = await cli('backup', '--to', file);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');

    // While the server has the database open, restore refuses and touches nothing.
    const live = join(env.dataDir, 'tasktree.db');
    const refused = await cli('restore', '--from', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('in use');
    expect(readdirSync(env.dataDir).filter((f) => f.endsWith('.bak'))).toEqual([]);
    const total = readBackup(live).tasks;
    expect(total).toBe(written);

    const port = new URL(server.url).port;
    await server.stop();
    const restored = await cli('restore', '--from', file);
    expect(restored.code).toBe(0);
    const bak = readdirSync(env.dataDir).filter((f) => f.endsWith('.bak'));
    expect(bak).toHaveLength(1);
    expect(readBackup(join(env.dataDir, bak[0]!)).tasks).toBe(total);
    expect(existsSync(`${live}-wal`)).toBe(false);

    // Same port, so the browser (its session is in the restored file) talks to the new process.
    server = await spawnServer({ ...envOf(env), PORT: port });
    expect((await person.browser.post('/api/v1/tasks', { tree_id: treeId, title: 'after the restore' })).status).toBe(
      201,
    );
    expect(readBackup(live).tasks).toBe(copy.tasks + 1);
  });

  it('refuses a file that is not a Task Tree database', async () => {
    const text = join(env.dataDir, 'notes.txt');
    writeFileSync(text, 'hello, this is not a database\n'.repeat(100));
    const notSqlite = await cli('restore', '--from', text);
    expect(notSqlite.code).toBe(1);
    expect(notSqlite.stderr).toContain('not an SQLite database');

    const other = join(env.dataDir, 'other.db');
    const db = new (loadSqlite())(other);
    db.exec('CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    const foreign = await cli('restore', '--from', other);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('not a Task Tree database');
    expect((await cli('restore', '--from', join(env.dataDir, 'missing.db'))).code).toBe(1);
    expect(statSync(join(env.dataDir, 'tasktree.db')).size).toBeGreaterThan(0);
  });

  it('prints the pg_dump line for PostgreSQL without the password, and that line works', async () => {
    const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const url = new URL(base);
    url.password = 'not-printed-pw';
    const file = join(env.dataDir, 'dump.pgc');
    const pgEnv = { ...cliEnvOf(env), DATABASE_URL: url.toString(), DATABASE_SCHEMA: 'some_schema' };
    const printed = await tasktree(pgEnv, 'backup', '--to', file);
    expect(printed.code).toBe(0);
    expect(printed.stdout + printed.stderr).not.toContain('not-printed-pw');
    expect(printed.stdout.trim()).toMatch(/^pg_dump --format=custom --schema=some_schema --file=\S+ --dbname=\S+$/);
    expect(printed.stderr).toContain('PGPASSWORD');
    expect(printed.stderr).toContain('pg_restore');
    const restore = await tasktree(pgEnv, 'restore', '--from', file);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain('pg_restore');

    // With a real PostgreSQL (and pg_dump installed), the printed line makes a dump of a migrated schema.
    if (process.env.TEST_DATABASE_URL === undefined || !existsSync('/usr/bin/pg_dump')) return;
    const pg = makeTestEnv('postgres');
    try {
      const pgCli = cliEnvOf(pg);
      expect((await tasktree(pgCli, 'migrate')).code).toBe(0);
      const line = (await tasktree(pgCli, 'backup', '--to', file)).stdout.trim();
      await sh('sh', ['-c', line]);
      const { stdout } = await sh('pg_restore', ['--list', file]);
      expect(stdout).toContain(`TABLE ${pg.schema} users`);
    } finally {
      await pg.dispose();
    }
  });
});
