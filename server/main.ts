import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { WrongMasterKeyError } from './crypto/master-key.js';
import { DataDirLockedError } from './storage/embedded/data-dir-lock.js';
import { SchemaTooNewError } from './storage/postgres/migrate.js';
import { CorruptDataError, StorageUnavailableError } from './storage/store.js';

/** `npm start`: configuration from the environment, then the server until a signal. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  try {
    const server = await startServer(config, logger);
    // On stdout whatever LOG_LEVEL says: scripts and supervisors wait for this line.
    process.stdout.write(`Secret Push listening on ${server.url} (data in ${config.dataDir})\n`);
    const stop = async (signal: string) => {
      logger.info(`${signal} received, shutting down`);
      await server.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  } catch (e) {
    if (
      e instanceof DataDirLockedError ||
      e instanceof CorruptDataError ||
      e instanceof WrongMasterKeyError ||
      e instanceof SchemaTooNewError ||
      e instanceof StorageUnavailableError
    ) {
      logger.error(e.message);
      process.exit(1);
    }
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      logger.error(`Port ${config.port} on ${config.host} is already in use. Set PORT to another port.`);
      process.exit(1);
    }
    logger.error('Could not start', e);
    process.exit(1);
  }
}

void main();
