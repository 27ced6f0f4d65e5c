/**
 * Types a browser only shows or plays, never runs: raster images, audio, video, PDF, plain text
 * and CSV. SVG is an image that runs scripts, so it is not among them.
 */
const SHOWN = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/tiff',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'application/pdf',
  'text/plain',
  'text/csv',
]);

/**
 * The Content-Type stored bytes are served with (CONTRACT §19): the declared type when a browser
 * only shows or plays it, else `application/octet-stream`. HTML, SVG, XML, JavaScript and CSS
 * never leave with their own type, so no upload can run as a script or style of the service's
 * origin: a `<script src>` or stylesheet link obeys neither the download disposition nor the
 * sandbox CSP of what it loads, only its type (with nosniff). The record keeps the declared type.
 */
export function servedContentType(declared: string): string {
  const type = declared.toLowerCase();
  return SHOWN.has(type) || type.startsWith('audio/') || type.startsWith('video/') ? type : 'application/octet-stream';
}
