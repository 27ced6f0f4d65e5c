import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring in a process that serves requests (`serve()`, so
 * `npm start` and `tasktree serve` alike).
 *
 * V8 watches where objects are allocated, and a place whose objects mostly survive a young
 * collection gets its later objects allocated straight in the old generation. A burst of
 * concurrent requests (500 agents connecting at once) keeps every request's objects alive across
 * a few young collections; after one, each later request's objects behaved as born old: they
 * died there and, until the next full collection, kept the young objects they point to alive.
 * Measured (`--trace-gc-nvp`, `GET /auth/me` under load after such a burst): 2.3 MB surviving
 * each young collection instead of 0.2 MB, a full collection every 1.4 s, and a third more CPU
 * per request, for as long as the process ran; with pretenuring off the state never came.
 * A request's objects live for about a millisecond, so the service gains nothing from them
 * being born old.
 *
 * Set at run time, before the first request: test/http/heap-tuning.test.ts shows it takes effect.
 */
export function tuneHeapForRequests(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
