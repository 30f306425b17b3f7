import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Authenticated, Caller, ServiceCaller } from '@game-wallet/auth';
import { IssuedToken, PATTERNS } from '@game-wallet/contracts';
import { ServiceCalls } from '../services/service-calls';
import { parseDuration } from './authenticate-body';

@Controller('v1/profile')
export class ProfilesController {
  constructor(private readonly services: ServiceCalls) {}

  /** SPEC §4.1: a profile JWT for the profile; 200, not 201. It mints a credential that can sign: a signing route. */
  @Post(':id/authenticate')
  @HttpCode(200)
  @Authenticated({ apiKey: true, profile: true, signing: true })
  authenticate(@Param('id') id: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<IssuedToken> {
    return this.services.call(PATTERNS.identity.authenticateProfile, { profileId: id, duration: parseDuration(body) }, caller);
  }

  /** SPEC §4.5: every token of the profile issued before now is refused from now on. */
  @Post(':id/revoke')
  @HttpCode(204)
  @Authenticated({ apiKey: true })
  async revoke(@Param('id') id: string, @Caller() caller: ServiceCaller): Promise<void> {
    await this.services.call(PATTERNS.identity.revokeProfile, { profileId: id }, caller);
  }
}
