import { ConfigError, Env, EnvVarDoc, documentedVariables, z } from '@game-wallet/config';
import { AppName } from '@game-wallet/contracts';
import { newTransportEnvironment } from '@game-wallet/transport';

/**
 * The variables an app's documentation says are required (docs/configuration.md's "required" column: by default
 * those required in production), beside those its schema really refuses to start without: each variable removed in
 * turn from `env`, a complete environment of that kind, those whose absence `load` reports as "must be set". A config
 * spec expects the two lists to be equal.
 */
export function requiredVariables(
  shape: z.ZodRawShape,
  load: (env: Env) => unknown,
  env: Env,
  documentedAs: (doc: EnvVarDoc) => boolean = (doc) => doc.required?.production === true,
): { documented: string[]; refused: string[] } {
  load(env);
  const documented = documentedVariables(shape)
    .filter(({ doc }) => documentedAs(doc))
    .map(({ name }) => name);
  const refused = Object.keys(shape).filter((name) => {
    try {
      load({ ...env, [name]: undefined });
      return false;
    } catch (error) {
      if (!(error instanceof ConfigError)) {
        throw error;
      }
      return error.problems.some((problem) => problem.startsWith(`${name}: must be set`));
    }
  });
  return { documented, refused };
}

/** What every app needs in production (its own transport keys, the database and Redis), for `app`. */
export function commonProductionEnvironment(app: AppName): Env {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://gw@db.internal:5432/game_wallet',
    REDIS_URL: 'rediss://gw@redis.internal:6379',
    ...newTransportEnvironment('t1')[app],
  };
}
