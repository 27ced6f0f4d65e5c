/**
 * Validation details of a batch (CONTRACT §17): a detail inside an item names the item by its
 * `index` in the array it came in (and, where a body holds more than one array, that array as
 * `op`), with the path inside the item; a detail outside every item keeps its path.
 * `arrays` maps each array's property to its op (undefined: no op).
 */
export function itemDetails(
  details: readonly { path: string; message: string }[],
  arrays: Readonly<Record<string, string | undefined>>,
): Record<string, unknown>[] {
  return details.map(({ path, message }) => {
    const match = /^\/([^/]+)\/(\d+)(\/.*)?$/.exec(path);
    if (match === null || !(match[1]! in arrays)) return { path, message };
    const op = arrays[match[1]!];
    return { index: Number(match[2]), ...(op !== undefined ? { op } : {}), path: match[3] ?? '/', message };
  });
}

/** Details of a batch's domain error without `op`, for a door whose batch holds one array (MCP). */
export function withoutOp(details: readonly unknown[]): unknown[] {
  return details.map((detail) => {
    if (typeof detail !== 'object' || detail === null || !('op' in detail)) return detail;
    const { op: _op, ...rest } = detail as Record<string, unknown>;
    return rest;
  });
}
