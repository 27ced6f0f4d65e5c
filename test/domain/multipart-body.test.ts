import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { multipartBody } from '../../src/domain/files/multipart-body.js';

describe('multipartBody', () => {
  it('is read back by a standard form parser, bytes and names intact', async () => {
    const bytes = randomBytes(300_000);
    const { body, contentType } = multipartBody(
      { model: 'whisper-1' },
      { name: 'file', filename: 'memo "final"\r\n.m4a', contentType: 'audio/mp4', bytes },
    );
    const form = await new Request('http://local/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
    expect(form.get('model')).toBe('whisper-1');
    const file = form.get('file') as File;
    expect(file.name).toBe('memo "final"\r\n.m4a');
    expect(file.type).toBe('audio/mp4');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
