import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('configuration', () => {
  const base = { DATA_DIR: '/tmp/tasktree-config-test', SECRET: 'config-test-secret-0123456789' };

  it('reads the speech provider settings with their defaults', () => {
    expect(loadConfig(base).speech).toEqual({ apiUrl: null, apiKey: null, model: 'whisper-1', timeoutMs: 120_000 });
    const set = loadConfig({
      ...base,
      SPEECH_API_URL: 'https://api.openai.com/v1',
      SPEECH_API_KEY: 'sk-x',
      SPEECH_MODEL: 'gpt-4o-transcribe',
      SPEECH_TIMEOUT_SECONDS: '30',
    });
    expect(set.speech).toEqual({
      apiUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'gpt-4o-transcribe',
      timeoutMs: 30_000,
    });
  });

  it('reads billing: unconfigured by default, test keys only, prices and currency configurable', () => {
    expect(loadConfig(base).billing).toEqual({
      providerKey: null,
      webhookSecret: null,
      apiUrl: null,
      currency: 'usd',
      prices: { sprout: 500, grove: 1200 },
    });
    const set = loadConfig({
      ...base,
      BILLING_PROVIDER_KEY: 'rk_test_abc',
      BILLING_WEBHOOK_SECRET: 'whsec_abc',
      BILLING_API_URL: 'http://127.0.0.1:12111',
      BILLING_CURRENCY: 'EUR',
      BILLING_PRICE_SPROUT: '400',
      BILLING_PRICE_GROVE: '1000',
    });
    expect(set.billing).toEqual({
      providerKey: 'rk_test_abc',
      webhookSecret: 'whsec_abc',
      apiUrl: 'http://127.0.0.1:12111',
      currency: 'eur',
      prices: { sprout: 400, grove: 1000 },
    });
  });

  it('refuses a live billing key at start, naming the problem but never the key', () => {
    for (const key of ['sk_live_secretvalue', 'rk_live_secretvalue']) {
      expect(() => loadConfig({ ...base, BILLING_PROVIDER_KEY: key })).toThrow(/live key .*test mode only/);
      try {
        loadConfig({ ...base, BILLING_PROVIDER_KEY: key });
      } catch (err) {
        expect((err as Error).message).not.toContain('secretvalue');
      }
    }
    expect(() => loadConfig({ ...base, BILLING_PROVIDER_KEY: 'pk_test_abc' })).toThrow(
      /BILLING_PROVIDER_KEY must be a test key/,
    );
    expect(() => loadConfig({ ...base, BILLING_WEBHOOK_SECRET: 'secret' })).toThrow(/BILLING_WEBHOOK_SECRET must be/);
    expect(() => loadConfig({ ...base, BILLING_API_URL: 'localhost:12111' })).toThrow(
      /BILLING_API_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ ...base, BILLING_PRICE_GROVE: '12.00' })).toThrow(
      /BILLING_PRICE_GROVE must be a whole number/,
    );
    expect(() => loadConfig({ ...base, BILLING_CURRENCY: 'dollars' })).toThrow(/BILLING_CURRENCY/);
  });

  it('serves metrics only when METRICS_PORT is set, on a port of their own', () => {
    expect(loadConfig(base).metrics).toBeNull();
    expect(loadConfig({ ...base, METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, token: null });
    expect(loadConfig({ ...base, METRICS_PORT: '9464', METRICS_TOKEN: 'scrape-token-0123456789' }).metrics).toEqual({
      port: 9464,
      token: 'scrape-token-0123456789',
    });
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'scrape-token-0123456789' })).toThrow(
      /METRICS_TOKEN is set but METRICS_PORT is not/,
    );
    expect(() => loadConfig({ ...base, PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
    expect(() => loadConfig({ ...base, METRICS_PORT: 'metrics' })).toThrow(/METRICS_PORT must be 0\.\.65535/);
    expect(() => loadConfig({ ...base, METRICS_PORT: '9464', METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16/,
    );
  });

  it('keeps attachments under DATA_DIR unless BLOB_STORE_URL names an S3 bucket, and checks the S3 settings at start', () => {
    expect(loadConfig(base).blobStore).toEqual({ kind: 'disk' });
    const keys = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret-key-value' };
    expect(
      loadConfig({
        ...base,
        ...keys,
        BLOB_STORE_URL: 's3://my-bucket/task/tree/',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
      }).blobStore,
    ).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'task/tree',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-key-value' },
    });
    // On AWS itself: virtual-hosted style, a region is required, credentials may come from the SDK's chain.
    expect(loadConfig({ ...base, BLOB_STORE_URL: 's3://my-bucket', AWS_REGION: 'eu-west-3' }).blobStore).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: '',
      endpoint: null,
      region: 'eu-west-3',
      forcePathStyle: false,
      credentials: null,
    });
    expect(
      loadConfig({
        ...base,
        BLOB_STORE_URL: 's3://my-bucket/p',
        AWS_ENDPOINT_URL_S3: 'https://s3.example.net',
        S3_FORCE_PATH_STYLE: 'false',
        AWS_REGION: 'auto',
      }).blobStore,
    ).toMatchObject({ endpoint: 'https://s3.example.net', region: 'auto', forcePathStyle: false });

    const refused: [Record<string, string>, RegExp][] = [
      [{ BLOB_STORE_URL: 'gs://my-bucket' }, /BLOB_STORE_URL must look like s3:\/\/bucket\/prefix/],
      [{ BLOB_STORE_URL: 's3://My_Bucket', S3_ENDPOINT: 'http://127.0.0.1:9000' }, /not a valid bucket name/],
      [{ BLOB_STORE_URL: 's3://my-bucket/a/../b', S3_ENDPOINT: 'http://127.0.0.1:9000' }, /prefix/],
      [{ BLOB_STORE_URL: 's3://my-bucket' }, /AWS_REGION is required/],
      [{ BLOB_STORE_URL: 's3://my-bucket', S3_ENDPOINT: '127.0.0.1:9000' }, /S3_ENDPOINT must be an http\(s\) URL/],
      [
        { BLOB_STORE_URL: 's3://my-bucket', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'yes' },
        /S3_FORCE_PATH_STYLE must be true or false/,
      ],
      [
        { BLOB_STORE_URL: 's3://my-bucket', AWS_REGION: 'eu-west-3', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE' },
        /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together/,
      ],
      [
        { BLOB_STORE_URL: 's3://my-bucket', AWS_REGION: 'eu-west-3', AWS_SECRET_ACCESS_KEY: 'secret-key-value' },
        /must be set together/,
      ],
    ];
    for (const [env, message] of refused) {
      expect(() => loadConfig({ ...base, ...env }), JSON.stringify(env)).toThrow(message);
      try {
        loadConfig({ ...base, ...env });
      } catch (err) {
        expect((err as Error).message).not.toContain('secret-key-value');
      }
    }
  });

  it('fails at start on settings that cannot work', () => {
    expect(() => loadConfig({ ...base, SPEECH_API_URL: 'api.openai.com/v1' })).toThrow(
      /SPEECH_API_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ ...base, SPEECH_API_URL: 'ftp://example.com' })).toThrow(/SPEECH_API_URL/);
    expect(() => loadConfig({ ...base, SPEECH_TIMEOUT_SECONDS: '0' })).toThrow(
      /SPEECH_TIMEOUT_SECONDS must be a positive number/,
    );
    expect(() => loadConfig({ ...base, SPEECH_TIMEOUT_SECONDS: 'soon' })).toThrow(/SPEECH_TIMEOUT_SECONDS/);
  });

  it('reads the request timeouts in seconds, and refuses a headers timeout longer than the request timeout', () => {
    expect(loadConfig(base).http).toEqual({
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 300_000,
      bodyIdleTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
    });
    expect(
      loadConfig({
        ...base,
        HEADERS_TIMEOUT_SECONDS: '0.5',
        REQUEST_TIMEOUT_SECONDS: '2',
        BODY_IDLE_TIMEOUT_SECONDS: '0.25',
        KEEP_ALIVE_TIMEOUT_SECONDS: '5',
      }).http,
    ).toEqual({ headersTimeoutMs: 500, requestTimeoutMs: 2000, bodyIdleTimeoutMs: 250, keepAliveTimeoutMs: 5000 });
    expect(() => loadConfig({ ...base, HEADERS_TIMEOUT_SECONDS: '60', REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(
      /HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS/,
    );
    expect(() => loadConfig({ ...base, BODY_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(
      /BODY_IDLE_TIMEOUT_SECONDS must be a positive number/,
    );
  });

  it('bounds every PostgreSQL statement, 30 s unless DATABASE_STATEMENT_TIMEOUT_SECONDS says otherwise', () => {
    expect(loadConfig(base).statementTimeoutMs).toBe(30_000);
    expect(loadConfig({ ...base, DATABASE_STATEMENT_TIMEOUT_SECONDS: '5' }).statementTimeoutMs).toBe(5_000);
    expect(() => loadConfig({ ...base, DATABASE_STATEMENT_TIMEOUT_SECONDS: '0' })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_SECONDS must be a positive number/,
    );
  });

  it('turns the journal off only when asked', () => {
    expect(loadConfig(base).journal).toBe(true);
    expect(loadConfig({ ...base, JOURNAL: 'off' }).journal).toBe(false);
  });

  it('reads TRUST_PROXY as a hop count or a list of addresses and CIDRs, and refuses anything else at start', () => {
    expect(loadConfig(base).trustProxy).toBeNull();
    expect(loadConfig({ ...base, TRUST_PROXY: '0' }).trustProxy).toBeNull();
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.5, 172.16.0.0/12,::1, fd00::/8 ' }).trustProxy).toEqual({
      addresses: ['10.0.0.5', '172.16.0.0/12', '::1', 'fd00::/8'],
    });
    for (const bad of [
      'true',
      'yes',
      '-1',
      '1.5',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.0/8/1',
      'proxy.internal',
      '10.0.0.5,,10.0.0.6',
      '10.0.0.0/',
    ]) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY must be a hop count .* or a comma list of proxy addresses or CIDRs/,
      );
    }
  });
});
