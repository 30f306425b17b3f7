import { z } from 'zod';

/** Reads environment variables into a typed object; one line per bad variable, then the start stops. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const blankToUndefined = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** A TCP port, given as a decimal string. */
export const portVar = (fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .default(String(fallback))
      .refine((value) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 65535, 'must be a port number from 1 to 65535')
      .transform(Number),
  );

/** A positive integer, given as a decimal string. */
export const positiveIntVar = (fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .default(String(fallback))
      .refine((value) => /^\d+$/.test(value) && Number(value) >= 1, 'must be a positive whole number')
      .transform(Number),
  );

export const enumVar = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess(blankToUndefined, z.enum(values, { error: `must be one of ${values.join(', ')}` }).default(fallback as never));

/** A URL with one of `protocols` (e.g. `['redis:', 'rediss:']`); optional here, defaults are applied by the app. */
export const urlVar = (protocols: string[]) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, `must be a ${protocols.map((protocol) => `${protocol}//`).join(' or ')} URL`)
      .optional(),
  );

export const optionalStringVar = () => z.preprocess(blankToUndefined, z.string().optional());

/**
 * Parses `env` with `schema`. Problems are reported one line each, naming the variable and never echoing its value
 * (a variable may hold a secret).
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: Env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) {
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.length > 0 ? issue.path.join('.') : 'environment';
    return `${name}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/**
 * Adds a problem for each variable that must be set explicitly when NODE_ENV=production (development defaults and
 * generated development secrets are refused there). Every app's production-required variables are checked here.
 */
export function requireInProduction(env: Env, names: string[], context: z.RefinementCtx): void {
  if (env.NODE_ENV !== 'production') {
    return;
  }
  for (const name of names) {
    if (blankToUndefined(env[name]) === undefined) {
      context.addIssue({ code: 'custom', path: [name], message: 'must be set when NODE_ENV=production' });
    }
  }
}

/** A base64 value of exactly 32 bytes (a key); optional here. */
export const key32Var = () =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
      .optional(),
  );
