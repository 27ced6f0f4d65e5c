import { useT } from '../../i18n/use-t';

/** How to point an MCP client at this service: its /mcp address on this origin and a config snippet. */
export function McpHelp() {
  const t = useT();
  const url = `${location.origin}/mcp`;
  const snippet = JSON.stringify(
    { mcpServers: { tasktree: { type: 'http', url, headers: { Authorization: 'Bearer ttp_…' } } } },
    null,
    2,
  );
  return (
    <section class="card" aria-labelledby="mcp-title">
      <h2 id="mcp-title">{t('agents.mcp')}</h2>
      <p class="section-lead">{t('agents.mcpLead')}</p>
      <div class="stack">
        <div>
          <div class="small-text muted">{t('agents.mcpUrl')}</div>
          <code class="mcp-url">{url}</code>
        </div>
        <div>
          <div class="small-text muted">{t('agents.snippet')}</div>
          <pre class="snippet" tabIndex={0}>
            {snippet}
          </pre>
        </div>
      </div>
    </section>
  );
}
