// @vitest-environment happy-dom
// useSubmit, the one busy/error block of every write in the web app: busy while the request runs,
// the failure in words (or the page's own words), and still busy after a success that leaves.
import { describe, expect, it } from 'vitest';

// Loaded untyped, as in render.test.ts: the root tsconfig that checks this file has no DOM and no JSX.
const load = (path: string): Promise<any> => import(/* @vite-ignore */ path);
const { h, render } = await load('preact');
const { act } = await load('preact/test-utils');
const { useSubmit } = await load('../../web/src/components/useSubmit.ts');
const doc = (globalThis as any).document;

interface State {
  busy: boolean;
  error: string | null;
  run(...args: unknown[]): Promise<void>;
  submit(event: Event, ...args: unknown[]): Promise<void>;
}

/** Mounts a component that calls useSubmit and hands back its latest state after each render. */
function mount(work: (...args: any[]) => Promise<void>, options?: object): () => State {
  let state: State | undefined;
  const Probe = () => {
    state = useSubmit(work, options);
    return null;
  };
  act(() => render(h(Probe, {}), doc.body.appendChild(doc.createElement('div'))));
  return () => state!;
}

/** A request the test answers when it likes. */
function pending() {
  let settle!: { resolve(): void; reject(e: unknown): void };
  const promise = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, ...settle };
}

describe('useSubmit', () => {
  it('is busy while the work runs and idle after it succeeds, with no error', async () => {
    const request = pending();
    const state = mount(() => request.promise);
    let done!: Promise<void>;
    act(() => {
      done = state().run();
    });
    expect(state().busy).toBe(true);
    await act(async () => {
      request.resolve();
      await done;
    });
    expect(state()).toMatchObject({ busy: false, error: null });
  });

  it('shows the failure in words and is ready again; the next try clears the old error', async () => {
    let fail = true;
    const state = mount(async () => {
      if (fail) throw new Error('The service cannot be reached');
    });
    await act(() => state().run());
    expect(state()).toMatchObject({ busy: false, error: 'The service cannot be reached' });
    fail = false;
    await act(() => state().run());
    expect(state().error).toBeNull();
  });

  it("passes the arguments to the work and to the page's own wording; null shows nothing", async () => {
    const seen: unknown[] = [];
    const state = mount(
      async (id: string, accept: boolean) => {
        seen.push(id, accept);
        throw new Error(`refused ${id}`);
      },
      {
        errorText: (e: Error, id: string) => (id === 'quiet' ? null : `${e.message}, in the page's words`),
      },
    );
    await act(() => state().run('inv-1', true));
    expect(seen).toEqual(['inv-1', true]);
    expect(state().error).toBe("refused inv-1, in the page's words");
    await act(() => state().run('quiet', false));
    expect(state()).toMatchObject({ busy: false, error: null });
  });

  it('stays busy after a success that leaves (a closed dialog, another page), but not after a failure', async () => {
    let fail = false;
    const state = mount(
      async () => {
        if (fail) throw new Error('no');
      },
      { leaves: true },
    );
    await act(() => state().run());
    expect(state().busy).toBe(true);
    fail = true;
    await act(() => state().run());
    expect(state()).toMatchObject({ busy: false, error: 'no' });
  });

  it("keeps a form's submit from loading a page", async () => {
    const state = mount(async () => {});
    const event = new (globalThis as any).Event('submit', { cancelable: true });
    await act(() => state().submit(event));
    expect(event.defaultPrevented).toBe(true);
  });
});
