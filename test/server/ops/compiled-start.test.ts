import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { storeEnv } from '../../support/server.js';
import { builtServerDir } from '../../support/built-server.js';
import { spawnCompiledServer } from '../../support/spawn-server.js';

/**
 * The start path the Dockerfile and compose.yaml rely on, as they run it: `npm run build`, then
 * plain `node dist/server/main.js` (no TypeScript loader), with the same variables. On both
 * stores (on PostgreSQL the migrations must have been copied into the build).
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The image's /app copies are made inside the repo (test-artifacts/ is ignored by git).
mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-compiled-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The build's files, without the link to node_modules the run's build has beside them. */
function builtFiles(out: string): string[] {
  return readdirSync(out, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules')
    .flatMap((e) => (e.isDirectory() ? readdirSync(join(out, e.name), { recursive: true, encoding: 'utf8' }).map((f) => join(e.name, f)) : [e.name]));
}

describe('the compiled server (npm run build && node dist/server/main.js)', () => {
  it('builds, starts without tsx, serves API, pages and health, and stops cleanly on SIGTERM', async () => {
    // `npm run build`'s output: the run's build (builtServerDir runs the same
    // scripts/build-server.mjs into the run's directory, once, and fails if it fails), not one of
    // this file's own. A build is ~1.4 CPU-s (perf stat; most of it in esbuild's own process, which
    // neither vitest's per-file CPU nor the shell's `time` sees), and this file made one per store project.
    const out = await builtServerDir();
    // What the container image runs is what package.json's scripts name.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.build).toBe('node scripts/build-server.mjs');
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toMatch(/CMD \["node", "dist\/server\/main\.js"\]/);
    // The image installs production dependencies only: every package the build imports must be one.
    const imported = new Set<string>();
    for (const file of builtFiles(out).filter((f) => f.endsWith('.js'))) {
      for (const m of readFileSync(join(out, file), 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"./][^'"]*)['"]|import\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g)) {
        const spec = (m[1] ?? m[2])!;
        if (spec.startsWith('node:')) continue;
        imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((p) => !pkg.dependencies[p]).sort(), 'imported but not a production dependency').toEqual([]);

    const metricsToken = 'compiled-metrics-token-123456';
    const server = await spawnCompiledServer(out, {
      DATA_DIR: dataDir,
      MASTER_KEY: 'cd'.repeat(32),
      METRICS_TOKEN: metricsToken,
      ...(await storeEnv(dataDir, { MASTER_KEY: 'cd'.repeat(32) })),
    });
    try {
      expect(server.output()).not.toMatch(/tsx/);
      expect((await api.get(server.url, '/healthz')).body).toEqual({ status: 'ok' });
      expect((await api.get(server.url, '/readyz')).body).toEqual({ status: 'ready' });
      const made = await api.post(server.url, '/api/v2/pushes', { json: { push: { payload: 'from the compiled server', expire_after_views: 1 } } });
      expect(made.status).toBe(201);
      const seen = await api.get(server.url, `/api/v2/pushes/${made.body.url_token}`);
      expect(seen.body.payload).toBe('from the compiled server');
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      const css = await fetch(`${server.url}/assets/style.css`);
      expect(css.status).toBe(200);
      expect((await css.text()).length).toBeGreaterThan(100);
      // The end-to-end scripts were bundled by the build (the compiled server has no bundler step).
      expect(existsSync(join(out, 'server/http/pages/assets/e2e-recipient.js'))).toBe(true);
      const script = await fetch(`${server.url}/assets/e2e-recipient.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(await script.text()).toContain('AES-GCM');
      // The sign-in page with its passkey options (WebAuthn through @simplewebauthn/server) and the passkey script.
      const signIn = await fetch(`${server.url}/users/sign_in`);
      expect(signIn.status).toBe(200);
      expect(await signIn.text()).toContain('data-passkey="sign-in"');
      const passkeys = await fetch(`${server.url}/assets/passkeys.js`);
      expect(passkeys.status).toBe(200);
      expect(await passkeys.text()).toContain('navigator.credentials');
      const metrics = await api.get(server.url, '/metrics', { token: metricsToken });
      expect(metrics.text).toMatch(/secretpush_pushes_created_total\{kind="text"\} 1/);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });

  it('runs the admin commands as the image does: npm run users / store:migrate without the TypeScript sources', async () => {
    const out = await builtServerDir();
    // The image's /app, as the Dockerfile's last stage copies it: dist/, node_modules,
    // package.json and the launcher, no server/ sources and no tsx loader in the command.
    const app = mkdtempSync(join(ROOT, 'test-artifacts', 'image-'));
    try {
      const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
      expect(dockerfile).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
      expect(dockerfile).toMatch(/COPY scripts\/cli\.mjs \.\/scripts\//);
      // dist/ as the build wrote it: not the run's link to node_modules (the image has /app/node_modules).
      cpSync(out, join(app, 'dist'), { recursive: true, filter: (src) => src !== join(out, 'node_modules') });
      cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
      cpSync(join(ROOT, 'scripts/cli.mjs'), join(app, 'scripts/cli.mjs'));
      symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir');
      const cliData = mkdtempSync(join(tmpdir(), 'secret-push-image-cli-'));
      try {
        const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'production', DATA_DIR: cliData, MASTER_KEY: 'ef'.repeat(32), ...(await storeEnv(cliData, { MASTER_KEY: 'ef'.repeat(32) })) };
        for (const k of ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR']) delete env[k];
        const npm = (...args: string[]) => spawnSync('npm', ['run', '--silent', ...args], { cwd: app, env, encoding: 'utf8' });
        const made = npm('users', '--', 'create', 'ops@example.com');
        expect(made.status, made.stdout + made.stderr).toBe(0);
        expect(made.stdout.trim().split('\n').at(-1)).toMatch(/^sp_[A-Za-z0-9_-]{20,}$/);
        const listed = npm('users', '--', 'tokens', 'ops@example.com');
        expect(listed.status, listed.stdout + listed.stderr).toBe(0);
        expect(listed.stdout).toContain('CLI token');
        const migrate = npm('store:migrate', '--', '--help');
        expect(migrate.status, migrate.stdout + migrate.stderr).toBe(0);
        expect(migrate.stdout).toMatch(/^Usage: npm run store:migrate/);
      } finally {
        rmSync(cliData, { recursive: true, force: true });
      }
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});
