import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsoleSessionView, CreatedInvitationView, InvitationPreview, InvitationView, PATTERNS, requireSystem } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { InvitationsService } from './invitations.service';

/** Invitations: owners make, list and revoke them; the invitee (through the gateway, as the system) previews and accepts. */
@Controller()
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Handles(PATTERNS.identity.listInvitations)
  list(@Payload() { principal }: EnvelopeOf<'identity.invitations.list'>): Promise<{ items: InvitationView[] }> {
    return this.invitations.list(principal);
  }

  @Handles(PATTERNS.identity.createInvitation)
  create(@Payload() { payload, principal }: EnvelopeOf<'identity.invitations.create'>): Promise<CreatedInvitationView> {
    return this.invitations.create(principal, payload);
  }

  @Handles(PATTERNS.identity.revokeInvitation)
  async revoke(@Payload() { payload, principal }: EnvelopeOf<'identity.invitations.revoke'>): Promise<{ revoked: true }> {
    await this.invitations.revoke(principal, payload.invitationId);
    return { revoked: true };
  }

  @Handles(PATTERNS.identity.previewInvitation)
  preview(@Payload() { payload, principal }: EnvelopeOf<'identity.invitations.preview'>): Promise<InvitationPreview> {
    requireSystem(principal);
    return this.invitations.preview(payload.tokenHash);
  }

  @Handles(PATTERNS.identity.acceptInvitation)
  accept(@Payload() { payload, principal }: EnvelopeOf<'identity.invitations.accept'>): Promise<ConsoleSessionView> {
    requireSystem(principal);
    return this.invitations.accept(payload);
  }
}
