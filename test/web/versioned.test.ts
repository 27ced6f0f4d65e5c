// @vitest-environment happy-dom
// The web app's conditional writes (CONTRACT §16.2): which If-Match each edit sends, when a record is
// read first, when the 412 is said without asking the server, and the one resend a tree gets when
// only its snapshot (not its own fields) changed. The server here is a record in memory with the
// contract's rule; the real one is driven through the browser in test/e2e/supervision.test.ts.
import { describe, expect, it } from 'vitest';

const load = (path: string): Promise<any> => import(/* @vite-ignore */ path);
const { remember, writeIfUnchanged, saveOrCurrent } = await load('../../web/src/api/versioned.ts');
const { ApiError } = await load('../../web/src/api/client.ts');

/** One record on a server that keeps the contract's rule: a write whose If-Match is not the current tag is 412. */
function server(kind: string, id: string) {
  const state = { version: 1, tag: '"t1"', sent: [] as string[], reads: 0 };
  const read = async () => {
    state.reads += 1;
    remember(kind, id, state.tag, state.version);
    return state.version;
  };
  const send = async (ifMatch: string) => {
    state.sent.push(ifMatch);
    if (ifMatch !== state.tag) throw new ApiError(412, 'precondition_failed', 'changed', null, []);
    state.version += 1;
    state.tag = `"t${state.version}"`;
    return { body: { version: state.version }, etag: state.tag };
  };
  /** Someone else's save. */
  const bump = () => {
    state.version += 1;
    state.tag = `"t${state.version}"`;
  };
  return { state, read, send, bump };
}

const versionOf = (answer: { version: number }) => answer.version;
const shown = (kind: string, id: string, version: number | undefined, read: () => Promise<number>) => ({
  kind,
  id,
  version,
  read,
});

describe('conditional writes', () => {
  it('reads a record whose tag it lacks, sends that tag, and keeps the answer’s tag for the next edit', async () => {
    const s = server('task', 'tsk_a');
    await writeIfUnchanged(shown('task', 'tsk_a', 1, s.read), s.send, versionOf);
    expect(s.state.reads).toBe(1);
    await writeIfUnchanged(shown('task', 'tsk_a', 2, s.read), s.send, versionOf);
    expect(s.state.reads).toBe(1);
    expect(s.state.sent).toEqual(['"t1"', '"t2"']);
  });

  it('says 412 without writing when the record read first is newer than the one shown', async () => {
    const s = server('task', 'tsk_b');
    s.bump();
    await expect(writeIfUnchanged(shown('task', 'tsk_b', 1, s.read), s.send, versionOf)).rejects.toMatchObject({
      status: 412,
      code: 'precondition_failed',
    });
    expect(s.state.sent).toEqual([]);
  });

  it('passes the server’s 412 on when another save came after the tag it holds', async () => {
    const s = server('project', 'prj_c');
    await s.read();
    s.bump();
    const outcome = await saveOrCurrent(
      () => writeIfUnchanged(shown('project', 'prj_c', 1, s.read), s.send, versionOf),
      async () => ({ version: await s.read() }),
    );
    expect(outcome).toEqual({ current: { version: 2 } });
    expect(s.state.sent).toEqual(['"t1"']);
  });

  it('resends a tree’s edit once with the fresh tag when only its snapshot changed, never when the tree did', async () => {
    const s = server('tree', 'tre_d');
    await s.read();
    // A task saved inside the tree renews the snapshot's tag; the tree's own version stays 1.
    s.state.tag = '"t1-after-task"';
    const read = async () => {
      remember('tree', 'tre_d', s.state.tag, 1);
      return 1;
    };
    await writeIfUnchanged(shown('tree', 'tre_d', 1, read), s.send, versionOf);
    expect(s.state.sent).toEqual(['"t1"', '"t1-after-task"']);

    const t = server('tree', 'tre_e');
    await t.read();
    t.bump();
    await expect(writeIfUnchanged(shown('tree', 'tre_e', 1, t.read), t.send, versionOf)).rejects.toMatchObject({
      status: 412,
    });
    expect(t.state.sent).toEqual(['"t1"']);
  });
});
