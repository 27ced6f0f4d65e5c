/**
 * A page of the browser app at PUBLIC_URL, with its query (the one-time token first, so every
 * link keeps the `/page?token=…` form CONTRACT names). Mailed and shown links are built here.
 */
export function appLink(publicUrl: string, path: string, query: Record<string, string>): URL {
  const link = new URL(path, publicUrl);
  for (const [name, value] of Object.entries(query)) link.searchParams.set(name, value);
  return link;
}
