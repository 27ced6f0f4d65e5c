import { serve } from './serve.js';

/** Process entry for `npm start`: the service on its configured address. */
serve().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
