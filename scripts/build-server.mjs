// `npm run build`: the server as plain JavaScript in dist/ (what the container runs with
// `node dist/server/main.js`, no TypeScript loader), plus the files it reads at run time:
// the pages' static assets and the PostgreSQL migrations. BUILD_OUT_DIR overrides dist/.
//
// One bundle per entry point (the server, each admin command of server/cli/), by esbuild, the
// same transform tsx applies when `npm start` runs the sources. Why a bundle and not one file
// per source file: a start is Node resolving and linking modules, ~650 of them (ours and the
// packages'), and a start is paid at every container restart, every instance of a rolling
// upgrade and every server a test starts. Measured on this machine (five starts each, to the
// listening line and a clean stop): 0.65 CPU-s per start file by file, 0.49 with our code
// bundled, 0.38 with the packages bundled too.
// Types are checked by `npm run typecheck`, not here.
//
// Code loaded only when configured (PostgreSQL, object storage, single sign-on) stays in chunks
// of its own, imported when needed (splitting). The chunks sit beside main.js in dist/server/,
// so that server/server-dir.ts resolves the run-time files alike from the sources and the build.
// Packages stay outside the bundle (imported from node_modules at run time) when they are
// loaded only when configured or first used (so a start does not parse them), or when they
// find files of their own by path (pino's transport workers, esbuild's binary).
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(root, process.env.BUILD_OUT_DIR ?? 'dist');
rmSync(out, { recursive: true, force: true });

const external = [
  // Loaded when configured or first used.
  'pg',
  '@aws-sdk/*',
  'nodemailer',
  'openid-client',
  '@simplewebauthn/server',
  'pino-pretty',
  // Find files of their own by path at run time.
  'pino',
  'esbuild',
];
const commands = readdirSync(join(root, 'server/cli')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
await build({
  absWorkingDir: root,
  entryPoints: ['server/main.ts', ...commands.map((f) => `server/cli/${f}`)],
  outdir: out,
  outbase: '.',
  entryNames: '[dir]/[name]',
  chunkNames: 'server/[name]-[hash]',
  bundle: true,
  splitting: true,
  external,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // The packages written as CommonJS require Node's own modules: an ES module has no `require`.
  banner: { js: "import { createRequire as createRequireForBundledPackages } from 'node:module'; const require = createRequireForBundledPackages(import.meta.url);" },
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
console.log(`bundled the server (${commands.length + 1} entry points) into ${out}: run it with node ${join(out, 'server/main.js')}`);
