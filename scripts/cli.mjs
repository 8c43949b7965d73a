// `npm run users` and `npm run store:migrate`: `node scripts/cli.mjs <name> [args…]` runs the
// admin command `name` (server/cli/<name>.ts) with the rest of the arguments. In a checkout it
// runs the TypeScript source (tsx); where there is no source but a build, as in the container
// image (dist/, node_modules, package.json and this file), the compiled dist/server/cli/<name>.js.
// The source wins when both exist, so a stale dist/ in a checkout is never what runs.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const name = process.argv[2] ?? '';
const source = `${root}server/cli/${name}.ts`;
const built = `${root}dist/server/cli/${name}.js`;
if (!/^[a-z-]+$/.test(name) || (!existsSync(source) && !existsSync(built))) {
  process.stderr.write(`Unknown command "${name}": neither ${source} nor ${built} exists (in a checkout without the sources, run npm run build first).\n`);
  process.exit(2);
}
// The command reads its own arguments from process.argv.slice(2).
process.argv.splice(2, 1);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(built).href);
}
