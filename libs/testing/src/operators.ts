import type { CreatedInvitationView, RoleGrant } from '@game-wallet/contracts';
import { randomBytes } from 'node:crypto';
import { http } from './http';
import { TEST_OPERATOR, TestPlatform } from './platform';

export interface OperatorFixture {
  operatorId: string;
  email: string;
  password: string;
  /** a console token of the operator's first session (the one accepting the invitation opened) */
  token: string;
}

export interface CreateOperatorOptions {
  email?: string;
  password?: string;
  displayName?: string;
  /** The inviting owner's sign-in, used when `ownerToken` needs a fresh factor (default: the platform's first operator). */
  owner?: { email: string; password: string };
}

/** The token of an invitation link (`…/console/invitation#token=<token>`). */
export function invitationToken(link: string): string {
  const token = new URL(link).hash.match(/^#token=([A-Za-z0-9_-]+)$/)?.[1];
  if (token === undefined) {
    throw new Error(`not an invitation link: ${link}`);
  }
  return token;
}

/**
 * A new operator with `grants`, made as a person would be: invited by the owner (`ownerToken`) through
 * `POST /v1/console/invitations`, then accepting the link. Inviting needs a fresh second factor: when the owner's
 * session has none, the owner signs in again (a sign-in counts as fresh for 5 minutes) and invites with that session.
 */
export async function createOperator(platform: TestPlatform, ownerToken: string, grants: RoleGrant[], options: CreateOperatorOptions = {}): Promise<OperatorFixture> {
  const email = options.email ?? `operator-${randomBytes(6).toString('hex')}@example.com`;
  const password = options.password ?? `pw-${randomBytes(12).toString('base64url')}`;
  const invite = (bearer: string) => http<CreatedInvitationView & { code?: string }>('POST', `${platform.baseUrl}/v1/console/invitations`, { bearer, body: { email, grants } });
  let invitation = await invite(ownerToken);
  if (invitation.status === 401 && invitation.body.code === 'STEP_UP_REQUIRED') {
    const owner = options.owner ?? TEST_OPERATOR;
    const signedIn = await http<{ token?: string }>('POST', `${platform.baseUrl}/v1/console/session`, { body: owner });
    if (signedIn.status !== 200 || signedIn.body.token === undefined) {
      throw new Error(`the owner's fresh sign-in failed: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
    }
    invitation = await invite(signedIn.body.token);
  }
  if (invitation.status !== 201) {
    throw new Error(`invitation failed: ${invitation.status} ${JSON.stringify(invitation.body)}`);
  }
  const accepted = await http<{ token: string }>('POST', `${platform.baseUrl}/v1/console/invitations/accept`, {
    body: { token: invitationToken(invitation.body.link), password, displayName: options.displayName ?? email.split('@')[0] },
  });
  if (accepted.status !== 200) {
    throw new Error(`accepting the invitation failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  }
  const session = await http<{ operator: { id: string } }>('GET', `${platform.baseUrl}/v1/console/session`, { bearer: accepted.body.token });
  return { operatorId: session.body.operator.id, email, password, token: accepted.body.token };
}
