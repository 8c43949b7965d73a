import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Hono } from 'hono';
import { serverDir } from '../server-dir.js';
import { bundlePageScripts } from './page-scripts.js';
import { SAVE_SCOPE, SAVE_WORKER_SCRIPT } from './pages/browser/streaming-save/save-protocol.js';

const SAVE_WORKER_FILE = SAVE_WORKER_SCRIPT.slice('/assets/'.length);

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * The pages' CSS and scripts, read once at start (a handful of small files), and the scripts
 * bundled from TypeScript (page-scripts.ts) when the build has not already written them here.
 */
export function staticAssets(): Hono {
  const dir = join(serverDir, 'http/pages/assets');
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(name, { body: readFileSync(join(dir, name)), type });
  }
  for (const [name, body] of bundlePageScripts()) {
    if (!files.has(name)) files.set(name, { body, type: TYPES['.js']! });
  }
  const app = new Hono();
  app.get('/assets/:name', (c) => {
    const name = c.req.param('name');
    const file = files.get(name);
    if (!file) return c.json({ error: 'not-found' }, 404);
    if (name === SAVE_WORKER_FILE) {
      // A worker may control only paths under its script's folder unless the server allows more:
      // the recipient's save worker answers the synthetic download addresses under /p/.
      return c.body(new Uint8Array(file.body), 200, { 'Content-Type': file.type, 'Cache-Control': 'no-cache', 'Service-Worker-Allowed': SAVE_SCOPE });
    }
    return c.body(new Uint8Array(file.body), 200, { 'Content-Type': file.type, 'Cache-Control': 'public, max-age=3600' });
  });
  return app;
}
