// Which database a command-line tool (ledger check, backup, restore) works on: DATABASE_URL, or
// the embedded one in DATA_DIR. Read without loadConfig, whose demo-mode start writes a card key
// into DATA_DIR: a tool pointed at the wrong folder must not leave one behind.
import path from 'node:path';

export function toolTarget(env: NodeJS.ProcessEnv = process.env): { databaseUrl: string | undefined; dataDir: string } {
  return { databaseUrl: env.DATABASE_URL || undefined, dataDir: path.resolve(env.DATA_DIR || './data') };
}
