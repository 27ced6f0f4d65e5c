/** How commands print: a plain aligned table for people, JSON for scripts (`--json`). */

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/** Left-aligned columns separated by two spaces; an empty cell shows as "-". */
export function formatTable(header: string[], rows: (string | number | null)[][]): string {
  const cells = [header, ...rows.map((row) => row.map((cell) => (cell === null || cell === '' ? '-' : String(cell))))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}

/** `key: value` lines, nested objects flattened to `key.sub`, for one record. */
export function formatRecord(record: object): string {
  const pairs: [string, string][] = [];
  const walk = (value: object, prefix: string) => {
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner))
        walk(inner as object, `${prefix}${key}.`);
      else
        pairs.push([
          `${prefix}${key}:`,
          inner === null ? '-' : Array.isArray(inner) ? inner.join(', ') : String(inner),
        ]);
    }
  };
  walk(record, '');
  const width = Math.max(...pairs.map(([key]) => key.length));
  return pairs.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join('\n');
}
