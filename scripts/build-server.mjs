// `npm run build`: the server as plain JavaScript in dist/ (what the container runs with
// `node dist/server/main.js`, no TypeScript loader), plus the files it reads at run time:
// the pages' static assets and the PostgreSQL migrations. BUILD_OUT_DIR overrides dist/.
//
// Each source file is transpiled on its own by esbuild (no bundling: dist/ mirrors the source
// tree, as `npm start` runs it through tsx, which uses the same esbuild transform). Types are
// checked by `npm run typecheck`, not here: tsc took ~30 s of CPU per build against well under
// a second for esbuild, and the compiled-start test builds once per store project.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(root, process.env.BUILD_OUT_DIR ?? 'dist');
rmSync(out, { recursive: true, force: true });

const entryPoints = ['server', 'shared'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => join(dir, file))
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts')),
);
await build({
  absWorkingDir: root,
  entryPoints,
  outdir: out,
  outbase: '.',
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  tsconfig: 'server/tsconfig.build.json',
  logLevel: 'warning',
});
for (const dir of ['server/http/pages/assets', 'server/storage/postgres/migrations']) {
  cpSync(join(root, dir), join(out, dir), { recursive: true });
}
// The pages' TypeScript scripts (end-to-end encryption in the browser), bundled beside the
// other assets so that the compiled server serves them without a bundler.
execFileSync(process.execPath, ['--import', 'tsx', '-e', `import('./server/http/page-scripts.ts').then((m) => console.log('bundled page scripts: ' + m.writePageScripts(${JSON.stringify(join(out, 'server/http/pages/assets'))}).join(', ')))`], {
  cwd: root,
  stdio: 'inherit',
});
console.log(`built the server (${entryPoints.length} files) into ${out}: run it with node ${join(out, 'server/main.js')}`);
