// The container's HEALTHCHECK (slim images have no curl): exit 0 when GET /healthz answers 200
// on this process's own PORT within 4 s, 1 otherwise. scripts/container-check.sh runs it too.
const port = process.env.PORT ?? '8080';
try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
