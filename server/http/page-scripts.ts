import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { serverDir } from '../server-dir.js';

/**
 * The pages' scripts written in TypeScript (pages/browser/*.ts, one script per file there; they
 * import the end-to-end code from shared/). Each is bundled by esbuild into one file served as
 * /assets/<name>.js, so the CSP can stay `script-src 'self'`.
 *
 * From a source checkout (`npm start`, the tests) they are bundled in memory at start (esbuild
 * comes with tsx, which runs the server); `npm run build` writes them into dist/ beside the
 * other assets (scripts/build-server.mjs calls writePageScripts), and the compiled server then
 * serves those files and needs no bundler.
 */
const sourceDir = join(serverDir, 'http/pages/browser');

export function pageScriptEntries(dir = sourceDir): { name: string; entry: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => ({ name: f.replace(/\.ts$/, '.js'), entry: join(dir, f) }));
}

type Esbuild = typeof import('esbuild');
const esbuild = (): Esbuild => createRequire(import.meta.url)('esbuild') as Esbuild;

const options: import('esbuild').BuildOptions = { bundle: true, format: 'iife', target: ['chrome109', 'firefox115', 'safari16'], minify: true, legalComments: 'none', charset: 'utf8' };

let bundled: Map<string, Buffer> | undefined;

/** The bundled scripts by file name (once per process). */
export function bundlePageScripts(): Map<string, Buffer> {
  if (bundled) return bundled;
  bundled = new Map();
  for (const { name, entry } of pageScriptEntries()) {
    const result = esbuild().buildSync({ ...options, entryPoints: [entry], write: false });
    bundled.set(name, Buffer.from(result.outputFiles![0]!.contents));
  }
  return bundled;
}

/** Writes the bundles into `outDir` (the build's assets folder). */
export function writePageScripts(outDir: string): string[] {
  const names: string[] = [];
  for (const { name, entry } of pageScriptEntries()) {
    esbuild().buildSync({ ...options, entryPoints: [entry], outfile: join(outDir, name) });
    names.push(name);
  }
  return names;
}
