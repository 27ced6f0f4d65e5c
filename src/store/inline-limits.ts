import {
  LimitNode,
  SelectQueryNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * SQLite: a query's LIMIT is written into its text instead of being bound as a parameter.
 *
 * SQLite's planner reads the value of a bound LIMIT (a small one may choose another index) and so
 * marks the statement to be prepared again the next time that parameter is bound: every run of a
 * `limit ?` statement is a fresh prepare. With better-sqlite3 (SQLite 3.53), a look-up by an
 * indexed column took 3.1 µs per run with `limit ?` and 0.7 µs with `limit 1`; a task's create
 * (its position is read with `limit 1`) spent 3% of its CPU re-preparing. Written in, each distinct
 * limit is one statement, kept by the statement cache (page sizes are few).
 *
 * A plugin runs on every query Kysely builds (and on each subquery as it is embedded), so only a
 * select's own limit is looked at and only its root node is copied.
 */
export class InlineLimits implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node) || node.limit === undefined) return node;
    const limit = node.limit.limit;
    if (!ValueNode.is(limit) || limit.immediate === true || !Number.isSafeInteger(limit.value)) return node;
    return SelectQueryNode.cloneWithLimit(node, LimitNode.create(ValueNode.createImmediate(limit.value)));
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}
