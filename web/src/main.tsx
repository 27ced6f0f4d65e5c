import { render } from 'preact';
import { App } from './app';
import { auth } from './api/endpoints';
import { browserLanguage, initI18n } from './i18n';
import { installLeaveGuard } from './components/useLeaveGuard';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/daily.css';
import './styles/changes.css';

/** Who is signed in decides the language of the very first paint, so ask before rendering. */
async function start(): Promise<void> {
  let user = null;
  try {
    user = await auth.me();
  } catch {
    // Offline or the service is down: render signed out; the first request will say why.
  }
  await initI18n(user?.language ?? browserLanguage());
  installLeaveGuard(); // before the router, whose listeners must come after it
  render(<App initialUser={user} />, document.getElementById('app')!);
}

void start();
