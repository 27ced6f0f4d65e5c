import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestEnv } from './app.js';
import { envOf } from './server-process.js';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment a `tasktree` process needs to reach a test env's store (and nothing of ours). */
export function cliEnvOf(env: TestEnv, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...envOf(env), ...extra };
}

/**
 * Runs `tasktree ARGS` as its own process from the sources (tsx), as an operator would from a
 * shell; never throws, the exit code is part of the answer. Seconds apiece on a busy machine.
 */
export async function tasktree(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err: any) {
    if (typeof err.code !== 'number') throw err;
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
