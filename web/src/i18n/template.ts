// A message translated once and filled in many times. i18next resolves the key, the language and
// the interpolation on every call: at 10,000 tree labels that was a fifth of a second of a page
// load in the browser. Here the message is asked for once with markers in place of the values,
// and each label only joins the pieces around them.

/** Never in a translation: it only ever delimits a value's name in the marked message. */
const MARK = '\u0000';

export function messageTemplate<K extends string>(
  translate: (values: Record<K, string>) => string,
  names: readonly K[],
): (values: Record<K, string>) => string {
  const marked = translate(
    Object.fromEntries(names.map((name) => [name, `${MARK}${name}${MARK}`])) as Record<K, string>,
  );
  // Even indexes are the message's own text, odd ones the names of the values between them.
  const parts = marked.split(MARK);
  return (values) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) out += values[parts[i] as K] + parts[i + 1]!;
    return out;
  };
}
