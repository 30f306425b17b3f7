import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
// The package's own index would load and run Swagger UI's browser bundle (4 MB of source) in the gateway; this
// module only names the folder the files are served from.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path';
import { CONSOLE_SECURITY_HEADERS } from '../console-app/console-app';

/** The files of Swagger UI the docs page loads (the package also holds a demo page, not served). */
const DOCS_ASSETS = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/favicon-32x32.png', '/favicon-16x16.png']);

/** `/docs`: the reference page, the same on both public ports, reading the port's own `/v1/openapi.json`. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Game Wallet Platform API</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/** Starts Swagger UI from a file of its own: the page's Content-Security-Policy allows no inline script. */
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  tryItOutEnabled: false,
});
`;

/**
 * Serves Swagger UI's files under `/docs/assets/` (from the `swagger-ui-dist` package: nothing is fetched from
 * elsewhere, so the page works offline), with the console's security headers.
 */
export async function installApiDocs(fastify: FastifyInstance): Promise<void> {
  await fastify.register(fastifyStatic, {
    root: getAbsoluteFSPath(),
    prefix: '/docs/assets/',
    // Another registration (the console's files) may have decorated the reply already.
    decorateReply: false,
    wildcard: false,
    index: false,
    allowedPath: (path) => DOCS_ASSETS.has(path),
    cacheControl: false,
    setHeaders: (reply) => {
      void reply.headers(CONSOLE_SECURITY_HEADERS).header('cache-control', 'public, max-age=86400');
    },
  });
}
