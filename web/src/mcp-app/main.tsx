// The MCP App's entry (CONTRACT §17): an ext-apps App that the host hands get_tree's result, drawn
// with the web app's tree code. Built into one self-contained document (web/mcp-app.vite.config.ts).
import { render } from 'preact';
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { TreeApp } from './TreeApp';
import { shownOf, type Shown } from './shown';
import { languageOf, wordsOf } from './words';
import './app.css';

const root = document.getElementById('app')!;
let shown: Shown = { kind: 'waiting' };
let context: McpUiHostContext = {};

function draw(): void {
  const language = languageOf(context.locale);
  document.documentElement.lang = language;
  const timeZone = context.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  render(<TreeApp shown={shown} words={wordsOf(language)} timeZone={timeZone} />, root);
}

/** The host's theme, style variables and fonts, when it gives them; the App has its own otherwise. */
function adopt(next: McpUiHostContext | undefined): void {
  if (next === undefined) return;
  context = next;
  if (next.theme !== undefined) applyDocumentTheme(next.theme);
  if (next.styles?.variables !== undefined) applyHostStyleVariables(next.styles.variables);
  if (next.styles?.css?.fonts !== undefined) applyHostFonts(next.styles.css.fonts);
  draw();
}

const app = new App({ name: 'Task Tree', version: '1' }, {});
// Handlers before connect(), so no notification is missed.
app.addEventListener('toolresult', (result) => {
  shown = shownOf(result);
  draw();
});
app.addEventListener('toolcancelled', () => {
  if (shown.kind === 'waiting') shown = { kind: 'cancelled' };
  draw();
});
app.addEventListener('hostcontextchanged', () => adopt(app.getHostContext()));

draw();
app.connect().then(
  () => adopt(app.getHostContext()),
  (err: unknown) => console.error('Task Tree: the host did not answer', err),
);
