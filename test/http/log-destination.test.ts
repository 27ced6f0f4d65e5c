import { execFile } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { LogDestination } from '../../src/http/log-destination.js';

const run = promisify(execFile);
const dirs: string[] = [];

function logFile(): { path: string; fd: number } {
  const dir = mkdtempSync(join(tmpdir(), 'tasktree-log-'));
  dirs.push(dir);
  const path = join(dir, 'out.log');
  return { path, fd: openSync(path, 'a') };
}

const lineOf = (i: number) => `{"n":${i},"msg":"line ${i} ${'é'.repeat(i % 7)}"}\n`;

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the batched log destination', () => {
  it('holds a few lines back and writes them, in order, on flush', async () => {
    const { path, fd } = logFile();
    const destination = new LogDestination(fd);
    for (let i = 0; i < 3; i++) destination.write(lineOf(i));
    expect(readFileSync(path, 'utf8')).toBe('');
    await new Promise<void>((resolve, reject) => destination.flush((err) => (err ? reject(err) : resolve())));
    expect(readFileSync(path, 'utf8')).toBe([0, 1, 2].map(lineOf).join(''));
  });

  it('hands a full batch on without being asked, and loses nothing past it', async () => {
    const { path, fd } = logFile();
    const destination = new LogDestination(fd);
    const lines = Array.from({ length: 2_000 }, (_, i) => lineOf(i));
    for (const line of lines) destination.write(line);
    // 2,000 lines are several batches: most are on their way before any flush.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const early = readFileSync(path, 'utf8');
    expect(early.length).toBeGreaterThan(0);
    expect(lines.join('').startsWith(early)).toBe(true);
    destination.flushSync();
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('passes a line longer than a batch on whole, in its place', async () => {
    const { path, fd } = logFile();
    const destination = new LogDestination(fd);
    const long = `{"stack":"${'é'.repeat(12_000)}"}\n`;
    const lines = [lineOf(1), lineOf(2), long, lineOf(3), long, lineOf(4)];
    for (const line of lines) destination.write(line);
    destination.flushSync();
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('writes what it holds within a second with no further line', async () => {
    const { path, fd } = logFile();
    const destination = new LogDestination(fd);
    destination.write(lineOf(1));
    await expect.poll(() => readFileSync(path, 'utf8'), { timeout: 3_000, interval: 100 }).toBe(lineOf(1));
  });

  it('writes what it holds when the process exits', async () => {
    const { path } = logFile();
    // A process that logs a few lines (less than a batch) and exits at once, as process.exit after SIGTERM does.
    const script = `
      import { openSync } from 'node:fs';
      import { LogDestination } from './src/http/log-destination.ts';
      const destination = new LogDestination(openSync(${JSON.stringify(path)}, 'a'));
      for (let i = 0; i < 5; i++) destination.write('{"n":' + i + '}\\n');
      process.exit(0);
    `;
    await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    expect(readFileSync(path, 'utf8')).toBe([0, 1, 2, 3, 4].map((i) => `{"n":${i}}\n`).join(''));
  });
});
