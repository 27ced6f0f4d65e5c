import { afterAll, beforeAll, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
import { startFakeSpeech } from '../helpers/fake-speech.js';
import { browserDescribe, expectAccessible } from './support/browser.js';
import { useBrowserApp } from './support/session.js';
import { TreePage } from './pages/tree.js';

const AUDIO = Buffer.from('RIFF....WAVEfmt fake audio bytes for the provider');

browserDescribe.each(databases)('transcription in the task panel (%s)', (kind) => {
  let provider: Awaited<ReturnType<typeof startFakeSpeech>>;
  beforeAll(async () => {
    provider = await startFakeSpeech(['ok']);
  });
  afterAll(async () => provider.close());
  const s = useBrowserApp(kind, () => ({
    SPEECH_API_URL: provider.url,
    SPEECH_API_KEY: 'sk-test-key',
    SPEECH_MODEL: 'whisper-test',
  }));

  it('uploads an audio note, transcribes it and shows the transcript', async () => {
    const person = await makeUser(s.t.url, s.t.app, { plan: 'sprout' });
    const tree = (await person.browser.post('/api/v1/trees', { name: 'Voice notes' })).body.tree;
    await person.browser.post('/api/v1/tasks', { tree_id: tree.id, title: 'Call the plumber' });
    await s.w.context.addCookies([
      { name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url },
    ]);
    await s.w.page.goto(`/trees/${tree.id}`);
    const panel = await new TreePage(s.w.page).openTask('Call the plumber');
    await panel.root.getByText(/Transcribe audio attachments with 127\.0\.0\.1/).waitFor();
    await panel.upload('memo.wav', 'audio/wav', AUDIO);
    await panel.root.getByRole('button', { name: 'Transcribe' }).click();
    await panel.root.getByText(`heard ${AUDIO.length} bytes`).waitFor();
    await panel.root.getByText('Finished').waitFor();
    await expectAccessible(s.w.page, 'task panel with a transcript');
  });
});
