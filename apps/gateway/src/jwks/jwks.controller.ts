import { Controller, Get, Header } from '@nestjs/common';
import { GatewayAuth } from '@game-wallet/auth';
import { Public } from '@game-wallet/http';
import { AppError, Jwks } from '@game-wallet/contracts';

/** The public keys of profile JWTs (RFC 7517): the current and the previous signing key. */
@Controller('v1/.well-known')
export class JwksController {
  constructor(private readonly auth: GatewayAuth) {}

  @Get('jwks.json')
  @Public()
  @Header('cache-control', 'public, max-age=300')
  jwks(): Jwks {
    const jwks = this.auth.tokens.publicJwks();
    if (jwks.keys.length === 0) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The signing keys are not loaded yet');
    }
    return jwks;
  }
}
