import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('configuration', () => {
  const base = { DATA_DIR: '/tmp/tasktree-config-test', SECRET: 'config-test-secret-0123456789' };

  it('reads the speech provider settings with their defaults', () => {
    expect(loadConfig(base).speech).toEqual({ apiUrl: null, apiKey: null, model: 'whisper-1', timeoutMs: 120_000 });
    const set = loadConfig({ ...base, SPEECH_API_URL: 'https://api.openai.com/v1', SPEECH_API_KEY: 'sk-x', SPEECH_MODEL: 'gpt-4o-transcribe', SPEECH_TIMEOUT_SECONDS: '30' });
    expect(set.speech).toEqual({ apiUrl: 'https://api.openai.com/v1', apiKey: 'sk-x', model: 'gpt-4o-transcribe', timeoutMs: 30_000 });
  });

  it('fails at start on settings that cannot work', () => {
    expect(() => loadConfig({ ...base, SPEECH_API_URL: 'api.openai.com/v1' })).toThrow(/SPEECH_API_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ ...base, SPEECH_API_URL: 'ftp://example.com' })).toThrow(/SPEECH_API_URL/);
    expect(() => loadConfig({ ...base, SPEECH_TIMEOUT_SECONDS: '0' })).toThrow(/SPEECH_TIMEOUT_SECONDS must be a positive number/);
    expect(() => loadConfig({ ...base, SPEECH_TIMEOUT_SECONDS: 'soon' })).toThrow(/SPEECH_TIMEOUT_SECONDS/);
  });

  it('reads the request timeouts in seconds, and refuses a headers timeout longer than the request timeout', () => {
    expect(loadConfig(base).http).toEqual({ headersTimeoutMs: 30_000, requestTimeoutMs: 300_000, bodyIdleTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000 });
    expect(loadConfig({ ...base, HEADERS_TIMEOUT_SECONDS: '0.5', REQUEST_TIMEOUT_SECONDS: '2', BODY_IDLE_TIMEOUT_SECONDS: '0.25', KEEP_ALIVE_TIMEOUT_SECONDS: '5' }).http)
      .toEqual({ headersTimeoutMs: 500, requestTimeoutMs: 2000, bodyIdleTimeoutMs: 250, keepAliveTimeoutMs: 5000 });
    expect(() => loadConfig({ ...base, HEADERS_TIMEOUT_SECONDS: '60', REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(/HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ ...base, BODY_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(/BODY_IDLE_TIMEOUT_SECONDS must be a positive number/);
  });

  it('bounds every PostgreSQL statement, 30 s unless DATABASE_STATEMENT_TIMEOUT_SECONDS says otherwise', () => {
    expect(loadConfig(base).statementTimeoutMs).toBe(30_000);
    expect(loadConfig({ ...base, DATABASE_STATEMENT_TIMEOUT_SECONDS: '5' }).statementTimeoutMs).toBe(5_000);
    expect(() => loadConfig({ ...base, DATABASE_STATEMENT_TIMEOUT_SECONDS: '0' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_SECONDS must be a positive number/);
  });

  it('turns the journal off only when asked', () => {
    expect(loadConfig(base).journal).toBe(true);
    expect(loadConfig({ ...base, JOURNAL: 'off' }).journal).toBe(false);
  });
});
