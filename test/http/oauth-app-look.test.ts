import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appStylesheets } from '../../src/http/oauth/app-look.js';

describe('the OAuth pages find the browser app’s built stylesheet', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function build(manifest: unknown, files: string[]): string {
    const dir = mkdtempSync(join(tmpdir(), 'tt-web-'));
    dirs.push(dir);
    mkdirSync(join(dir, '.vite'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    for (const file of files) writeFileSync(join(dir, file), '');
    return dir;
  }

  it('links the entry’s CSS from Vite’s manifest, as served from the site root', () => {
    const dir = build(
      {
        'index.html': { file: 'assets/index-a1.js', isEntry: true, css: ['assets/index-b2.css'] },
        'src/x.tsx': { file: 'assets/x.js', css: ['assets/x.css'] },
      },
      ['assets/index-b2.css', 'assets/x.css'],
    );
    expect(appStylesheets(dir)).toEqual(['/assets/index-b2.css']);
  });

  it('links nothing without a build, or for a file the manifest names but the build lacks', () => {
    expect(appStylesheets(join(tmpdir(), 'tt-no-such-build'))).toEqual([]);
    const dir = build(
      { 'index.html': { file: 'assets/index-a1.js', isEntry: true, css: ['assets/index-gone.css'] } },
      [],
    );
    expect(appStylesheets(dir)).toEqual([]);
  });
});
