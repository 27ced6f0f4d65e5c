// The package (a dependency of pino) ships no types; this is the part we call.
declare module 'on-exit-leak-free' {
  /** Calls `fn(obj, event)` on process exit while `obj` is alive; registrations run in order. */
  export function register<T extends object>(obj: T, fn: (obj: T, event: 'exit') => void): void;
  export function unregister(obj: object): void;
  const onExit: { register: typeof register; unregister: typeof unregister };
  export default onExit;
}
