import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { Public } from '@game-wallet/http';

import { AppError } from '@game-wallet/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_ROOT } from './console-app';

/**
 * The web console's client-side routes (`/console`, `/console/games/…`): every path that is not one of its files gets
 * the app's `index.html`, and the app shows the screen. A missing file under `assets/` is a plain 404.
 */
@Controller('console')
@Public()
export class ConsoleAppController {
  constructor(@Inject(CONSOLE_ROOT) private readonly root: string | null) {}

  @Get()
  index(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return this.page(request, reply);
  }

  @Get('*')
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    if (this.root === null) {
      throw new AppError('NOT_FOUND', 'The web console is not installed in this gateway');
    }
    const path = request.url.split('?')[0];
    if (path.startsWith('/console/assets/') || /\.[a-z0-9]+$/i.test(path)) {
      throw new AppError('NOT_FOUND', `Route ${request.method} ${path} not found`);
    }
    return reply.sendFile('index.html');
  }
}
