// Process entry point: read config, open the database (starting the embedded PostgreSQL when
// DATABASE_URL is unset, then running migrations), listen, and shut down in order on SIGINT or
// SIGTERM. A crash of the app's own stops its embedded PostgreSQL on the way out.
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { openDatabase, type Database } from './db/client';
import { EmbeddedPostgresError } from './db/embedded-postgres';
import { startScheduler } from './scheduler';

/** Stopped on the way out of any crash, so that a failed start leaves no PostgreSQL behind. */
let openedDatabase: Database | undefined;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.dbPoolSize,
      say: { info: (message) => logger.info(message), warn: (message) => logger.warn(message), error: (message) => logger.error(message) },
    });
  } catch (error) {
    // Said to a person (another app holds DATA_DIR, PostgreSQL did not start): no stack trace.
    if (error instanceof EmbeddedPostgresError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  openedDatabase = database;
  logger.info({ database: database.embedded ? 'embedded' : 'DATABASE_URL', demoMode: config.demoMode }, 'database ready');
  const crash = (error: unknown) => {
    logger.fatal({ err: error }, 'crashed');
    database.stopNow();
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  const app = await buildApp({ config, database, logger });
  const scheduler = startScheduler(app);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    scheduler.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A machine without IPv6 cannot bind '::'; fall back to every IPv4 address.
    if (config.host !== '::' || (error as { code?: string }).code !== 'EAFNOSUPPORT') throw error;
    await app.listen({ port: config.port, host: '0.0.0.0' });
  }
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info(`PayWeave is running at http://${shownHost}:${config.port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  openedDatabase?.stopNow();
  process.exit(1);
});
