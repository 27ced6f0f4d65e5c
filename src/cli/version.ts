import { readFileSync } from 'node:fs';

/**
 * The package version. package.json sits two levels above this file both in the checkout
 * (src/cli/) and in an installed package (dist/cli/), so this holds after `npm link` too.
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
