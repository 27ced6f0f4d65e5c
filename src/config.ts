import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
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
  billing: BillingConfig;
  logLevel: string;
  /** Requests per rolling minute per token, session or anonymous address (CONTRACT §12: 600). */
  rateLimitPerMinute: number;
  /** The agent call journal (CONTRACT §8); JOURNAL=off only for measuring its cost. */
  journal: boolean;
  /** The MCP fast path (src/http/mcp/fast-path.ts); MCP_FAST_PATH=off only for measuring what it saves. */
  mcpFastPath: boolean;
  /** How long a client may take to send a request, so no connection can hold the service forever. */
  http: HttpTimeouts;
  /** The Prometheus endpoint; null (the default) serves no metrics at all. */
  metrics: MetricsConfig | null;
  /** Where attachment content lives: DATA_DIR (default) or S3-compatible object storage. */
  blobStore: BlobStoreConfig;
  /** Whose X-Forwarded-For and X-Forwarded-Proto to believe (CONTRACT §19); null believes nobody. */
  trustProxy: TrustProxy | null;
}

/**
 * TRUST_PROXY: the proxies in front of the service, named by address or CIDR, or counted in hops
 * (every request reaches the service through exactly that many proxies).
 */
export type TrustProxy = { hops: number } | { addresses: string[] };

/** `GET /metrics` on a listener of its own, so the public port never exposes it. */
export interface MetricsConfig {
  /** Bound to HOST like the service; 0 picks a free port (tests). */
  port: number;
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token: string | null;
}

/** BLOB_STORE_URL unset: files under DATA_DIR/blobs. `s3://bucket/prefix`: an S3-compatible bucket. */
export type BlobStoreConfig = { kind: 'disk' } | S3Config;

export interface S3Config {
  kind: 's3';
  bucket: string;
  /** Object keys start with `<prefix>/`; empty for the bucket's root. */
  prefix: string;
  /** Null is AWS itself (the region's endpoint). */
  endpoint: string | null;
  region: string;
  /** `http://endpoint/bucket/key` instead of `http://bucket.endpoint/key` (MinIO, Ceph, most non-AWS stores). */
  forcePathStyle: boolean;
  /** Null leaves credentials to the SDK's default chain (instance role, shared config files…). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
}

/** CONTRACT §14: test mode only; configured when both the key and the webhook secret are set. */
export interface BillingConfig {
  providerKey: string | null;
  webhookSecret: string | null;
  /** Where the provider SDK sends its calls; null is the provider's own API. */
  apiUrl: string | null;
  /** ISO 4217, lower case, as the provider writes it. */
  currency: string;
  /** Monthly price in minor units (500 is 5.00). */
  prices: { sprout: number; grove: number };
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} must be an http(s) URL, got "${text}"`);
  return text;
}

function parsePositive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

function parsePort(value: string | undefined, name = 'PORT'): number {
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be 0..65535, got "${value}"`);
  return port;
}

/**
 * Metrics stay off unless METRICS_PORT is set. A token without a port would protect nothing, and
 * the service's own port cannot be shared, so both are refused at start rather than ignored.
 */
function loadMetrics(env: Env, servicePort: number): MetricsConfig | null {
  const portText = nonEmpty(env.METRICS_PORT);
  const token = nonEmpty(env.METRICS_TOKEN);
  if (portText === null) {
    if (token !== null)
      throw new Error('METRICS_TOKEN is set but METRICS_PORT is not; metrics are served only on their own port');
    return null;
  }
  const port = parsePort(portText, 'METRICS_PORT');
  if (port !== 0 && port === servicePort) throw new Error('METRICS_PORT must differ from PORT');
  if (token !== null && token.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters');
  return { port, token };
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

/** An address or CIDR as proxy-addr reads it: IPv4 or IPv6, with an optional prefix length. */
function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Unset (or 0) believes no forwarded header. `true` is refused, not read as "everyone": a client
 * that reaches the service directly could then choose its own address for every per-address limit.
 */
function parseTrustProxy(value: string | undefined): TrustProxy | null {
  const text = nonEmpty(value);
  if (text === null) return null;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops)) throw new Error(`TRUST_PROXY hop count is too large, got "${text}"`);
    return hops === 0 ? null : { hops };
  }
  const addresses = text.split(',').map((entry) => entry.trim());
  const bad = addresses.find((entry) => !isAddressOrCidr(entry));
  if (bad !== undefined) {
    throw new Error(
      `TRUST_PROXY must be a hop count (e.g. 1) or a comma list of proxy addresses or CIDRs (e.g. 10.0.0.5,172.16.0.0/12); "${bad}" is neither`,
    );
  }
  return { addresses };
}

function parseRate(value: string | undefined): number {
  if (value === undefined || value === '') return 600;
  const rate = Number(value);
  if (!Number.isInteger(rate) || rate < 1)
    throw new Error(`RATE_LIMIT_PER_MINUTE must be a positive integer, got "${value}"`);
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
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs)
    throw new Error('HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS');
  return timeouts;
}

function minorUnits(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  // Digits only: "12.00" would read as 12 cents, not the 12 dollars it was meant as.
  const amount = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new Error(`${name} must be a whole number of minor units (500 is 5.00), got "${value}"`);
  return amount;
}

/**
 * Billing runs in test mode only in this release (CONTRACT §14): a live key would take real
 * money, so it stops the service here rather than at the first checkout. Only the key's prefix
 * is ever named in a message, never the key.
 */
function loadBilling(env: Env): BillingConfig {
  const providerKey = nonEmpty(env.BILLING_PROVIDER_KEY);
  if (providerKey !== null && /^(sk|rk)_live_/.test(providerKey)) {
    throw new Error(
      'BILLING_PROVIDER_KEY is a live key (sk_live_/rk_live_); billing runs in test mode only, so use a test key (sk_test_/rk_test_)',
    );
  }
  if (providerKey !== null && !/^(sk|rk)_test_/.test(providerKey)) {
    throw new Error('BILLING_PROVIDER_KEY must be a test key (sk_test_… or rk_test_…)');
  }
  const webhookSecret = nonEmpty(env.BILLING_WEBHOOK_SECRET);
  if (webhookSecret !== null && !webhookSecret.startsWith('whsec_'))
    throw new Error('BILLING_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)');
  const currency = (nonEmpty(env.BILLING_CURRENCY) ?? 'usd').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency))
    throw new Error(`BILLING_CURRENCY must be a three-letter currency code, got "${currency}"`);
  return {
    providerKey,
    webhookSecret,
    apiUrl: httpUrl('BILLING_API_URL', env.BILLING_API_URL),
    currency,
    prices: {
      sprout: minorUnits('BILLING_PRICE_SPROUT', env.BILLING_PRICE_SPROUT, 500),
      grove: minorUnits('BILLING_PRICE_GROVE', env.BILLING_PRICE_GROVE, 1200),
    },
  };
}

/**
 * BLOB_STORE_URL and the usual S3 settings, checked at start: a typo in a bucket name or a key
 * without its secret stops the service here, not at the first upload. Error messages name the
 * variables, never a key or secret.
 */
function loadBlobStore(env: Env): BlobStoreConfig {
  const url = nonEmpty(env.BLOB_STORE_URL);
  if (url === null) return { kind: 'disk' };
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (match === null)
    throw new Error(`BLOB_STORE_URL must look like s3://bucket/prefix (or be unset for DATA_DIR), got "${url}"`);
  const bucket = match[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error(
      `BLOB_STORE_URL: "${bucket}" is not a valid bucket name (3 to 63 lower-case letters, digits, dots and hyphens)`,
    );
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..') || /\/\//.test(prefix))
    throw new Error(`BLOB_STORE_URL: the prefix "${prefix}" must not hold empty, "." or ".." segments`);
  const endpoint = httpUrl('S3_ENDPOINT', env.S3_ENDPOINT) ?? httpUrl('AWS_ENDPOINT_URL_S3', env.AWS_ENDPOINT_URL_S3);
  const region =
    nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? (endpoint !== null ? 'us-east-1' : null);
  if (region === null)
    throw new Error(
      'AWS_REGION is required with BLOB_STORE_URL on AWS (or set S3_ENDPOINT for another S3-compatible store)',
    );
  const pathStyle = nonEmpty(env.S3_FORCE_PATH_STYLE);
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    throw new Error(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  const accessKeyId = nonEmpty(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.AWS_SECRET_ACCESS_KEY);
  if ((accessKeyId === null) !== (secretAccessKey === null))
    throw new Error(
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (or both left unset for the default credential chain)',
    );
  const sessionToken = nonEmpty(env.AWS_SESSION_TOKEN);
  return {
    kind: 's3',
    bucket,
    prefix,
    endpoint,
    region,
    // A non-AWS endpoint rarely has a DNS name per bucket; AWS itself wants virtual-hosted style.
    forcePathStyle: pathStyle !== null ? pathStyle === 'true' : endpoint !== null,
    credentials:
      accessKeyId !== null && secretAccessKey !== null
        ? { accessKeyId, secretAccessKey, ...(sessionToken !== null ? { sessionToken } : {}) }
        : null,
  };
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
  const publicUrl = (nonEmpty(env.PUBLIC_URL) ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(
    /\/+$/,
    '',
  );
  return {
    port,
    host,
    publicUrl,
    dataDir,
    databaseUrl,
    databaseSchema: nonEmpty(env.DATABASE_SCHEMA),
    statementTimeoutMs:
      parsePositive('DATABASE_STATEMENT_TIMEOUT_SECONDS', env.DATABASE_STATEMENT_TIMEOUT_SECONDS, 30) * 1000,
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
    billing: loadBilling(env),
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    rateLimitPerMinute: parseRate(env.RATE_LIMIT_PER_MINUTE),
    journal: env.JOURNAL !== 'off',
    mcpFastPath: env.MCP_FAST_PATH !== 'off',
    http: loadHttpTimeouts(env),
    metrics: loadMetrics(env, port),
    blobStore: loadBlobStore(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}
