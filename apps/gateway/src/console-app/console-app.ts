import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

/**
 * Headers of every page and file of the web console: scripts, styles and connections from this origin only (no inline
 * script, so injected markup cannot run), images also from the http(s) URLs games give their players, never framed.
 */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https: http:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Vite names every file under `assets/` by its content hash: such a file never changes, so browsers keep it a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the icon) is revalidated on each load, so a new release shows at once. */
const REVALIDATE = 'no-cache';

export function cacheControlFor(path: string): string {
  return /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : REVALIDATE;
}

/** Provider token: the folder of the built console the gateway serves, or null when there is none. */
export const CONSOLE_ROOT = Symbol('CONSOLE_ROOT');

/** `dir` when it holds a built console; null (and a warning) when not, and `/console` then answers 404 saying so. */
export function findBuiltConsole(dir: string, logger: Logger): string | null {
  if (existsSync(join(dir, 'index.html'))) {
    return dir;
  }
  logger.warn({ consoleDir: dir }, 'No built web console in CONSOLE_DIR: /console answers 404 (run the build)');
  return null;
}

/** Serves the built console's files under `/console/`: precompressed `.br`/`.gz` when the browser accepts them, ETags. */
export async function installConsoleApp(fastify: FastifyInstance, root: string): Promise<void> {
  await fastify.register(fastifyStatic, {
    root,
    prefix: '/console/',
    // One route per file found at start: an unknown path is left to the client-side routes (see ConsoleAppController).
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      void reply.headers(CONSOLE_SECURITY_HEADERS).header('cache-control', cacheControlFor(path));
    },
  });
}
