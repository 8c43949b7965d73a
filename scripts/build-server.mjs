// `npm run build`: the server as plain JavaScript in dist/ (what the container runs with
// `node dist/server/main.js`, no TypeScript loader), plus the files it reads at run time:
// the pages' static assets and the PostgreSQL migrations. BUILD_OUT_DIR overrides dist/.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(root, process.env.BUILD_OUT_DIR ?? 'dist');
rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'server/tsconfig.build.json'), '--outDir', out], {
  stdio: 'inherit',
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
console.log(`built the server into ${out}: run it with node ${join(out, 'server/main.js')}`);
