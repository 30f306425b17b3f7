import { z } from 'zod';

/**
 * What the configuration page (`docs/configuration.md`, written by `npm run docs:config`) says of one environment
 * variable. Every field of every app's environment schema registers one beside it:
 * `portVar(3000).register(envDocs, { description: '…' })`.
 */
export interface EnvVarDoc {
  /** What the variable does, its format and its unit, in Markdown (one paragraph, no links: pages move). */
  description: string;
  /** Where the app refuses to start without it. */
  required?: {
    /** `NODE_ENV=production` refuses the start without it (each app's config spec holds the schema to this). */
    production?: boolean;
    /** A narrower or further condition, in words: "with `WALLET_MASTER_KEY_PROVIDER=pkcs11`". */
    when?: string;
  };
  /**
   * The development default, in Markdown, when the app computes it (the schema leaves the value undefined); a default
   * the schema applies itself is read from the schema, never written here too.
   */
  default?: string;
  /** A key, a password or a PIN: the page says so, and shows no value of it. */
  secret?: boolean;
}

/** The descriptions of the environment variables, keyed by their schema fields. */
export const envDocs = z.registry<EnvVarDoc>();

/** A variable of an app's schema, as the configuration page lists it. */
export interface DocumentedVariable {
  name: string;
  doc: EnvVarDoc;
  /** The development default in Markdown (the schema's own, or the one the doc states); undefined when there is none. */
  defaultValue?: string;
}

/**
 * Every variable of `shape` with its description and default. Throws when a variable has no description, when a
 * default is stated both by the schema and by the doc, or when a secret would show a default value.
 */
export function documentedVariables(shape: z.ZodRawShape): DocumentedVariable[] {
  return Object.entries(shape).map(([name, schema]) => {
    const doc = envDocs.get(schema);
    if (doc === undefined || doc.description.trim() === '') {
      throw new Error(`${name} has no description: register one beside its schema field (.register(envDocs, { description }))`);
    }
    const unset = z.safeParse(schema, undefined);
    const schemaDefault = unset.success && unset.data !== undefined ? `\`${String(unset.data)}\`` : undefined;
    if (schemaDefault !== undefined && doc.default !== undefined) {
      throw new Error(`${name}: its default is stated twice, by the schema (${schemaDefault}) and by its doc; keep the schema's`);
    }
    if (doc.secret && schemaDefault !== undefined) {
      throw new Error(`${name} is a secret: it must not have a default value to show`);
    }
    return { name, doc, defaultValue: schemaDefault ?? doc.default };
  });
}
