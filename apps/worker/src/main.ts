import { config as loadConfig, ConfigError, createLogger } from '@helix/server';
import { createWorkerRuntime } from './worker-runtime.ts';

const SHUTDOWN_TIMEOUT_MS = 30_000;

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  const runtime = createWorkerRuntime(config, logger);
  await runtime.start();
  logger.info('worker started');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS);
    force.unref();
    await runtime.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
