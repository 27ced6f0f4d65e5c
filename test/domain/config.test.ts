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
