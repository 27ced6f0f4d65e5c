import { spawn, type ChildProcess } from 'node:child_process';
import type { TestEnv } from './app.js';

export interface ServerProcess {
  process: ChildProcess;
  url: string;
  /** Everything the server wrote to stdout and stderr so far (its structured log). */
  log(): string;
  /**
   * The log once every line of the requests answered so far is in it: lines leave in batches,
   * in order, so this sends one more request and waits for its line.
   */
  settledLog(): Promise<string>;
  /** SIGTERM (a clean stop) unless told otherwise; resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The environment a test env's config stands for, for a server started as its own process. */
export function envOf(env: TestEnv): Record<string, string> {
  const { config } = env;
  return {
    DATA_DIR: config.dataDir,
    SECRET: config.secret,
    ...(config.databaseUrl !== null ? { DATABASE_URL: config.databaseUrl } : {}),
    ...(config.databaseSchema !== null ? { DATABASE_SCHEMA: config.databaseSchema } : {}),
  };
}

/**
 * The real server as a child process (`node --import tsx src/main.ts`), for what only a process
 * shows: its log stream, or what is left after it is killed. Resolves once it listens.
 * `nodeArgs` go to Node before the entry (`--trace-gc-nvp` writes V8's collections to the log).
 */
export async function spawnServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  let log = '';
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (found) {
        clearInterval(timer);
        resolve(found[1]!);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`server exited: ${log}`));
    });
  });
  return {
    process: child,
    url,
    log: () => log,
    async settledLog() {
      const id = `settled-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      await fetch(`${url}/healthz`, { headers: { 'x-request-id': id } });
      for (let waited = 0; !log.includes(id) && waited < 5_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      return log;
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
