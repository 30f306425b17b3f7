// eslint-disable-next-line @nx/enforce-module-boundaries -- type-only: nothing of contracts reaches the emitted JavaScript
import type { ConsoleAccountView, ConsoleSessionEntryView, PasskeyView, RecoveryCodesView, StepUpView, TotpEnrollmentView } from '@game-wallet/contracts';
import { HttpClient, RequestOptions } from './http-client';

export type { ConsoleAccountView, ConsoleSessionEntryView, PasskeyView, RecoveryCodesView, StepUpView, TotpEnrollmentView };

/** A second factor given again (or, for an operator without one, the password): exactly one field. */
export type StepUpInput = { totp: string } | { recoveryCode: string } | { passkey: Record<string, unknown> } | { password: string };

/** The console session the client acts with. */
export interface ConsoleSessionApi {
  /**
   * `POST /v1/console/session/step-up`: opens the step-up actions (API keys, the signing policy, the team) for 5
   * minutes; they answer 401 `STEP_UP_REQUIRED` otherwise. A wrong factor: 401 `INVALID_CREDENTIALS`.
   */
  stepUp(input: StepUpInput, options?: RequestOptions): Promise<StepUpView>;
  /** `POST /v1/console/session/step-up/options`: WebAuthn request options for a step-up with a passkey (null without one). */
  stepUpOptions(options?: RequestOptions): Promise<{ passkey: Record<string, unknown> | null }>;
  /** `GET /v1/console/session`: the signed-in operator, their grants and second factors. */
  get(options?: RequestOptions): Promise<ConsoleAccountView>;
}

/** The signed-in operator's own account. Adding or removing a second factor and new recovery codes need a step-up. */
export interface ConsoleAccountApi {
  /** `PATCH /v1/console/account`. */
  update(input: { displayName: string }, options?: RequestOptions): Promise<ConsoleAccountView>;
  /** `PUT /v1/console/account/password` (the new one: 12–1024 characters): ends every other session of the operator's. */
  changePassword(input: { currentPassword: string; newPassword: string }, options?: RequestOptions): Promise<{ endedSessions: number }>;
  /** `GET /v1/console/account/sessions`: the open sessions, newest first. */
  sessions(options?: RequestOptions): Promise<{ items: ConsoleSessionEntryView[] }>;
  /** `DELETE /v1/console/account/sessions/{sessionId}`, or without an id every other session. */
  endSessions(sessionId?: string, options?: RequestOptions): Promise<void>;
  /** `POST /v1/console/account/totp`: a new TOTP secret, pending until {@link confirmTotp}. */
  startTotp(options?: RequestOptions): Promise<TotpEnrollmentView>;
  /** `POST /v1/console/account/totp/confirm`: TOTP on; answers 10 recovery codes, shown this once. */
  confirmTotp(code: string, options?: RequestOptions): Promise<RecoveryCodesView>;
  /** `DELETE /v1/console/account/totp`. */
  removeTotp(options?: RequestOptions): Promise<void>;
  /** `POST /v1/console/account/recovery-codes`: 10 new codes replace the old ones. */
  renewRecoveryCodes(options?: RequestOptions): Promise<RecoveryCodesView>;
  /** `POST /v1/console/account/passkeys/options`: WebAuthn creation options. */
  passkeyOptions(options?: RequestOptions): Promise<Record<string, unknown>>;
  /** `POST /v1/console/account/passkeys`: the authenticator's answer to {@link passkeyOptions}. */
  registerPasskey(input: { name: string; response: Record<string, unknown> }, options?: RequestOptions): Promise<PasskeyView>;
  /** `DELETE /v1/console/account/passkeys/{passkeyId}`. */
  removePasskey(passkeyId: string, options?: RequestOptions): Promise<void>;
}

const segment = encodeURIComponent;

// Writes here spend a factor, end sessions or make a secret: a retry is safe only because it carries the call's
// Idempotency-Key, which the platform answers with the first attempt's answer.
export class ConsoleSessionResource implements ConsoleSessionApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  stepUp(input: StepUpInput, options?: RequestOptions): Promise<StepUpView> {
    return this.http.request({ method: 'POST', url: `${this.baseUrl}/v1/console/session/step-up`, body: input }, options);
  }

  stepUpOptions(options?: RequestOptions): Promise<{ passkey: Record<string, unknown> | null }> {
    return this.http.request({ method: 'POST', url: `${this.baseUrl}/v1/console/session/step-up/options` }, options);
  }

  get(options?: RequestOptions): Promise<ConsoleAccountView> {
    return this.http.request({ method: 'GET', url: `${this.baseUrl}/v1/console/session` }, options);
  }
}

export class ConsoleAccountResource implements ConsoleAccountApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  private url(path = ''): string {
    return `${this.baseUrl}/v1/console/account${path}`;
  }

  update(input: { displayName: string }, options?: RequestOptions): Promise<ConsoleAccountView> {
    return this.http.request({ method: 'PATCH', url: this.url(), body: { displayName: input.displayName } }, options);
  }

  changePassword(input: { currentPassword: string; newPassword: string }, options?: RequestOptions): Promise<{ endedSessions: number }> {
    return this.http.request({ method: 'PUT', url: this.url('/password'), body: { currentPassword: input.currentPassword, newPassword: input.newPassword } }, options);
  }

  sessions(options?: RequestOptions): Promise<{ items: ConsoleSessionEntryView[] }> {
    return this.http.request({ method: 'GET', url: this.url('/sessions') }, options);
  }

  async endSessions(sessionId?: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', url: this.url(sessionId === undefined ? '/sessions' : `/sessions/${segment(sessionId)}`) }, options);
  }

  startTotp(options?: RequestOptions): Promise<TotpEnrollmentView> {
    return this.http.request({ method: 'POST', url: this.url('/totp') }, options);
  }

  confirmTotp(code: string, options?: RequestOptions): Promise<RecoveryCodesView> {
    return this.http.request({ method: 'POST', url: this.url('/totp/confirm'), body: { code } }, options);
  }

  async removeTotp(options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', url: this.url('/totp') }, options);
  }

  renewRecoveryCodes(options?: RequestOptions): Promise<RecoveryCodesView> {
    return this.http.request({ method: 'POST', url: this.url('/recovery-codes') }, options);
  }

  passkeyOptions(options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.http.request({ method: 'POST', url: this.url('/passkeys/options') }, options);
  }

  registerPasskey(input: { name: string; response: Record<string, unknown> }, options?: RequestOptions): Promise<PasskeyView> {
    return this.http.request({ method: 'POST', url: this.url('/passkeys'), body: { name: input.name, response: input.response } }, options);
  }

  async removePasskey(passkeyId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', url: this.url(`/passkeys/${segment(passkeyId)}`) }, options);
  }
}
