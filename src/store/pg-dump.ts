/**
 * The `pg_dump` and `pg_restore` command lines for the configured PostgreSQL database. Task
 * Tree does not run them itself: the operator's pg_dump must match the server's major version,
 * and only they know where dumps belong. The password never appears in the lines: pg_dump
 * takes it from PGPASSWORD or ~/.pgpass.
 */

/** Quotes a word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface DumpCommands {
  dump: string;
  restore: string;
  /** The URL carried a password, which was left out of both lines. */
  passwordOmitted: boolean;
}

export function pgDumpCommands(databaseUrl: string, schema: string | null, file: string): DumpCommands {
  const url = new URL(databaseUrl);
  const passwordOmitted = url.password !== '';
  url.password = '';
  const target = `--dbname=${shellWord(url.toString())}`;
  const schemaFlag = schema !== null ? [`--schema=${shellWord(schema)}`] : [];
  return {
    dump: ['pg_dump', '--format=custom', ...schemaFlag, `--file=${shellWord(file)}`, target].join(' '),
    restore: ['pg_restore', '--clean', '--if-exists', '--no-owner', ...schemaFlag, target, shellWord(file)].join(' '),
    passwordOmitted,
  };
}
