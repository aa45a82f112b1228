import type { loadConfig } from '../../server/src/config.ts';
import { embeddedAppUrl } from '../../server/src/db/app-role.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { type PreparedChains, prepareChains } from '../../server/src/modules/chain/chain-module.ts';

/** PostgreSQL (embedded unless DATABASE_URL) and the keys + local chains, owned by the launcher. */
export async function startShared(
  config: ReturnType<typeof loadConfig>,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<{ databaseUrl: string; migrationUrl: string | undefined; stop: () => Promise<void> }> {
  let pg: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  let migrationUrl = env.MIGRATION_DATABASE_URL;
  if (databaseUrl === undefined) {
    pg = await startEmbeddedPostgres({
      dir: config.dataDir,
      ...(config.pgPort === undefined ? {} : { port: config.pgPort }),
      log: (msg) => log(msg),
    });
    await pg.ensureDatabase('wallet');
    // The instances migrate as the superuser and run as the app's login (server/src/db/app-role.ts).
    migrationUrl = pg.url('wallet');
    databaseUrl = await embeddedAppUrl(migrationUrl, config.dataDir);
  }
  const quiet = {
    info: () => undefined,
    warn: (_d: object, msg: string) => log(msg),
    error: (_d: object, msg: string) => log(msg),
  };
  let chains: PreparedChains | undefined;
  try {
    chains = await prepareChains({ dataDir: config.dataDir, env, chains: config.chains, log: quiet });
  } catch (err) {
    await pg?.stop();
    throw err;
  }
  return {
    databaseUrl,
    migrationUrl,
    stop: async () => {
      await chains?.stopLocal();
      await pg?.stop();
    },
  };
}
