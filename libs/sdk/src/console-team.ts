// eslint-disable-next-line @nx/enforce-module-boundaries -- type-only: nothing of contracts reaches the emitted JavaScript
import type { ConsoleSessionEntryView, ConsoleSessionView, ConsoleSettingsView, CreatedInvitationView, InvitationPreview, InvitationView, OperatorStatus, OperatorView, RoleGrant } from '@game-wallet/contracts';
import { HttpClient, RequestOptions } from './http-client';

const segment = encodeURIComponent;

/** What an owner changes of an operator: the roles they reach (others stay), the status, or both. */
export interface OperatorChange {
  grants?: RoleGrant[];
  status?: OperatorStatus;
}

/** An invitee's answer to an invitation link: the link's token, a password (12 to 1024 characters), a display name. */
export interface InvitationAcceptance {
  token: string;
  password: string;
  displayName: string;
}

/**
 * The console's team (owners): operators, their roles and sessions, invitations, the instance's console settings.
 * Changes need a fresh second factor: a 401 `STEP_UP_REQUIRED` asks for one (`POST /v1/console/session/step-up`).
 */
export interface ConsoleTeamApi {
  /** The operators the caller sees (an owner of listed games: those with a role in them, and only those roles). */
  listOperators(options?: RequestOptions): Promise<OperatorView[]>;
  /** Changes the roles the caller reaches, or suspends (ending every session) or reactivates the operator. */
  updateOperator(operatorId: string, change: OperatorChange, options?: RequestOptions): Promise<OperatorView>;
  /** Removes the operator: their sessions end on every gateway within 1 s. */
  removeOperator(operatorId: string, options?: RequestOptions): Promise<void>;
  listOperatorSessions(operatorId: string, options?: RequestOptions): Promise<ConsoleSessionEntryView[]>;
  /** Ends one session of the operator's, or (without `sessionId`) every one. */
  endOperatorSessions(operatorId: string, sessionId?: string, options?: RequestOptions): Promise<void>;
  listInvitations(options?: RequestOptions): Promise<InvitationView[]>;
  /** A single-use link for 72 hours, in the answer this once (and mailed when identity has `SMTP_URL`). */
  createInvitation(input: { email: string; grants: RoleGrant[] }, options?: RequestOptions): Promise<CreatedInvitationView>;
  revokeInvitation(invitationId: string, options?: RequestOptions): Promise<void>;
  /** What a link offers (no console session needed): its e-mail, roles and end. */
  previewInvitation(token: string, options?: RequestOptions): Promise<InvitationPreview>;
  /** Accepts a link (no console session needed): the new operator's session. */
  acceptInvitation(input: InvitationAcceptance, options?: RequestOptions): Promise<ConsoleSessionView>;
  getSettings(options?: RequestOptions): Promise<ConsoleSettingsView>;
  putSettings(settings: ConsoleSettingsView, options?: RequestOptions): Promise<ConsoleSettingsView>;
}

export class ConsoleTeamResource implements ConsoleTeamApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  async listOperators(options?: RequestOptions): Promise<OperatorView[]> {
    return (await this.http.request<{ items: OperatorView[] }>({ method: 'GET', url: this.url('/operators') }, options)).items;
  }

  updateOperator(operatorId: string, change: OperatorChange, options?: RequestOptions): Promise<OperatorView> {
    return this.http.request({ method: 'PATCH', url: this.url(`/operators/${segment(operatorId)}`), body: change }, options);
  }

  async removeOperator(operatorId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', url: this.url(`/operators/${segment(operatorId)}`) }, options);
  }

  async listOperatorSessions(operatorId: string, options?: RequestOptions): Promise<ConsoleSessionEntryView[]> {
    const url = this.url(`/operators/${segment(operatorId)}/sessions`);
    return (await this.http.request<{ items: ConsoleSessionEntryView[] }>({ method: 'GET', url }, options)).items;
  }

  async endOperatorSessions(operatorId: string, sessionId?: string, options?: RequestOptions): Promise<void> {
    const path = `/operators/${segment(operatorId)}/sessions${sessionId === undefined ? '' : `/${segment(sessionId)}`}`;
    await this.http.request({ method: 'DELETE', url: this.url(path) }, options);
  }

  async listInvitations(options?: RequestOptions): Promise<InvitationView[]> {
    return (await this.http.request<{ items: InvitationView[] }>({ method: 'GET', url: this.url('/invitations') }, options)).items;
  }

  createInvitation(input: { email: string; grants: RoleGrant[] }, options?: RequestOptions): Promise<CreatedInvitationView> {
    return this.http.request({ method: 'POST', url: this.url('/invitations'), body: { email: input.email, grants: input.grants } }, options);
  }

  async revokeInvitation(invitationId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', url: this.url(`/invitations/${segment(invitationId)}`) }, options);
  }

  previewInvitation(token: string, options?: RequestOptions): Promise<InvitationPreview> {
    return this.http.request({ method: 'POST', url: this.url('/invitations/preview'), body: { token } }, options);
  }

  acceptInvitation(input: InvitationAcceptance, options?: RequestOptions): Promise<ConsoleSessionView> {
    const body = { token: input.token, password: input.password, displayName: input.displayName };
    return this.http.request({ method: 'POST', url: this.url('/invitations/accept'), body }, options);
  }

  getSettings(options?: RequestOptions): Promise<ConsoleSettingsView> {
    return this.http.request({ method: 'GET', url: this.url('/settings') }, options);
  }

  putSettings(settings: ConsoleSettingsView, options?: RequestOptions): Promise<ConsoleSettingsView> {
    return this.http.request({ method: 'PUT', url: this.url('/settings'), body: { requireTwoFactor: settings.requireTwoFactor } }, options);
  }

  private url(path: string): string {
    return `${this.baseUrl}/v1/console${path}`;
  }
}
