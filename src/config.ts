import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Everything the process reads from its environment, typed, with defaults that run on a fresh machine. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema to work in (tests give each file its own); null means the server default. */
  databaseSchema: string | null;
  /** PostgreSQL ends any statement that runs longer, so no query can hold a pool connection for good. */
  statementTimeoutMs: number;
  redisUrl: string | null;
  secret: string;
  speech: {
    apiUrl: string | null;
    apiKey: string | null;
    model: string;
    /** How long one provider call may take before it counts as a timeout (and is retried). */
    timeoutMs: number;
  };
  smtpUrl: string | null;
  mailFrom: string | null;
  billing: { providerKey: string | null; webhookSecret: string | null };
  logLevel: string;
  /** Requests per rolling minute per token, session or anonymous address (CONTRACT §12: 600). */
  rateLimitPerMinute: number;
  /** The agent call journal (CONTRACT §8); JOURNAL=off only for measuring its cost. */
  journal: boolean;
  /** How long a client may take to send a request, so no connection can hold the service forever. */
  http: HttpTimeouts;
}

export interface HttpTimeouts {
  /** From the first byte to the last header; also bounds a connection that never sends anything. */
  headersTimeoutMs: number;
  /** From the first byte to the last body byte (a 25 MiB upload on a slow link must fit). */
  requestTimeoutMs: number;
  /** The longest pause inside a streamed (multipart) body before the upload is refused with 400. */
  bodyIdleTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

function nonEmpty(value: string | undefined): string | null {
  return value !== undefined && value.trim() !== '' ? value.trim() : null;
}

/** An http(s) URL, checked at start so a typo fails loudly instead of on the first job. */
function httpUrl(name: string, value: string | undefined): string | null {
  const text = nonEmpty(value);
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got "${text}"`);
  return text;
}

function parsePositive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0..65535, got "${value}"`);
  return port;
}

/**
 * A SECRET signs cursors, CSRF values and links. When none is configured, one is generated once
 * into DATA_DIR so that restarts keep cursors and sessions valid.
 */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  return secret;
}

function parseRate(value: string | undefined): number {
  if (value === undefined || value === '') return 600;
  const rate = Number(value);
  if (!Number.isInteger(rate) || rate < 1) throw new Error(`RATE_LIMIT_PER_MINUTE must be a positive integer, got "${value}"`);
  return rate;
}

/**
 * The request timeouts, in (possibly fractional) seconds. Node refuses a headers timeout longer
 * than the request timeout, so that is checked here with the variable names a user sets.
 */
function loadHttpTimeouts(env: Env): HttpTimeouts {
  const seconds = (name: string, fallback: number) => parsePositive(name, env[name], fallback) * 1000;
  const timeouts = {
    headersTimeoutMs: seconds('HEADERS_TIMEOUT_SECONDS', 30),
    requestTimeoutMs: seconds('REQUEST_TIMEOUT_SECONDS', 300),
    bodyIdleTimeoutMs: seconds('BODY_IDLE_TIMEOUT_SECONDS', 30),
    keepAliveTimeoutMs: seconds('KEEP_ALIVE_TIMEOUT_SECONDS', 72),
  };
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) throw new Error('HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS');
  return timeouts;
}

export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(env.PORT);
  const host = nonEmpty(env.HOST) ?? '127.0.0.1';
  const dataDir = resolve(nonEmpty(env.DATA_DIR) ?? './data');
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)');
  }
  const secret = nonEmpty(env.SECRET) ?? loadOrCreateSecret(dataDir);
  if (secret.length < 16) throw new Error('SECRET must be at least 16 characters');
  const publicUrl = (nonEmpty(env.PUBLIC_URL) ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    publicUrl,
    dataDir,
    databaseUrl,
    databaseSchema: nonEmpty(env.DATABASE_SCHEMA),
    statementTimeoutMs: parsePositive('DATABASE_STATEMENT_TIMEOUT_SECONDS', env.DATABASE_STATEMENT_TIMEOUT_SECONDS, 30) * 1000,
    redisUrl: nonEmpty(env.REDIS_URL),
    secret,
    speech: {
      apiUrl: httpUrl('SPEECH_API_URL', env.SPEECH_API_URL),
      apiKey: nonEmpty(env.SPEECH_API_KEY),
      model: nonEmpty(env.SPEECH_MODEL) ?? 'whisper-1',
      timeoutMs: parsePositive('SPEECH_TIMEOUT_SECONDS', env.SPEECH_TIMEOUT_SECONDS, 120) * 1000,
    },
    smtpUrl: nonEmpty(env.SMTP_URL),
    mailFrom: nonEmpty(env.MAIL_FROM),
    billing: { providerKey: nonEmpty(env.BILLING_PROVIDER_KEY), webhookSecret: nonEmpty(env.BILLING_WEBHOOK_SECRET) },
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    rateLimitPerMinute: parseRate(env.RATE_LIMIT_PER_MINUTE),
    journal: env.JOURNAL !== 'off',
    http: loadHttpTimeouts(env),
  };
}
