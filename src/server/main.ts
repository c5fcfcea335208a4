// Process entry point: read config, open the database (running migrations), listen, and shut
// down cleanly on SIGINT/SIGTERM so Ctrl-C never leaves PGlite's data half-written.
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { openDatabase } from './db/client';
import { startScheduler } from './scheduler';

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
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  logger.info({ engine: database.engine, demoMode: config.demoMode }, 'database ready');

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
  process.exit(1);
});
