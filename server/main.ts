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
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  try {
    const server = await startServer(config, logger);
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) {
        logger.error(`${signal} received again: exiting without waiting for requests in flight`);
        logger.flush();
        process.exit(1);
      }
      stopping = true;
      const graceMs = config.shutdownTimeoutSeconds * 1000;
      // SIGTERM comes from a supervisor, with a balancer to tell first; SIGINT from a person at a
      // terminal (Ctrl-C), who has no balancer and should not wait for one.
      const delaySeconds = signal === 'SIGTERM' ? config.shutdownDelaySeconds : 0;
      if (delaySeconds > 0) {
        logger.info(`${signal} received: not ready, serving on for ${delaySeconds} s (SHUTDOWN_DELAY_SECONDS), then finishing requests in flight (up to ${config.shutdownTimeoutSeconds} s)`);
      } else {
        logger.info(`${signal} received: not ready, finishing requests in flight (up to ${config.shutdownTimeoutSeconds} s)`);
      }
      await server.close({ graceMs, delayMs: delaySeconds * 1000 });
      logger.info('shutdown complete: store flushed and closed');
      logger.flush();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
    // Only now, with the handlers in place: a supervisor that signals as soon as it reads this
    // line must get a graceful shutdown, not the default kill. On stdout whatever LOG_LEVEL says.
    process.stdout.write(`Secret Push listening on ${server.url} (data in ${config.database ? `the PostgreSQL database ${new URL(config.database.url).host}${new URL(config.database.url).pathname}` : config.dataDir})\n`);
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
