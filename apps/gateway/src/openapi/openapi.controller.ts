import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { Public } from '@game-wallet/http';

import type { FastifyReply } from 'fastify';
import { CONSOLE_SECURITY_HEADERS } from '../console-app/console-app';
import { DOCS_INIT_SCRIPT, DOCS_PAGE } from './api-docs';
import { ApiPort } from './api-routes';
import { openApiDocument } from './openapi-document';

/** Provider token: which public port a module serves (its OpenAPI document lists that port's routes only). */
export const API_PORT = Symbol('API_PORT');

/** `/v1/openapi.json` (this port's OpenAPI 3.1 document, built once at start) and the `/docs` page that shows it. */
@Controller()
@Public()
export class OpenApiController {
  private readonly document: string;

  constructor(@Inject(API_PORT) port: ApiPort) {
    this.document = JSON.stringify(openApiDocument(port));
  }

  @Get('v1/openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  openApi(): string {
    return this.document;
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-cache')
  docs(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(CONSOLE_SECURITY_HEADERS);
    return DOCS_PAGE;
  }

  @Get('docs/init.js')
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'no-cache')
  docsScript(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers(CONSOLE_SECURITY_HEADERS);
    return DOCS_INIT_SCRIPT;
  }
}

