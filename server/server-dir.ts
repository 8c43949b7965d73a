import { fileURLToPath } from 'node:url';

/**
 * The server's own folder: `server/` in a checkout, `dist/server/` in the build, where
 * scripts/build-server.mjs puts the bundle's entry and chunks side by side. The files read at
 * run time (the pages' assets, PostgreSQL's migrations) are found from here, so the same paths
 * hold for the sources and the bundle (whose modules are no longer where their sources were).
 */
export const serverDir = fileURLToPath(new URL('./', import.meta.url));
