/**
 * Named shapes of the public and console APIs that have no view type of their own: what the OpenAPI documents refer
 * to (generated from these types, see `view-schemas.json`). Types only.
 */
import type { ErrorCode } from './error-codes';
import type { PolicyDeniedDetails, PolicyDifferenceView, SigningPolicyVersionView } from './signing-rules';
import type { ApiKeyView, AuditEntryView, GameSummaryView, Page, ProfileView } from './identity';
import type { ConsolePlayerView, WalletView } from './wallet';
import type { ConsoleSessionEntryView, SecondFactorChallengeView } from './console-access';
import type { ConsoleSessionView } from './identity';
import type { WebhookDeliveryView, WebhookEndpointView } from './webhooks';

/** The body of every error answer (SPEC §2): a readable message and a machine-readable code. */
export interface ErrorBody {
  message: string;
  code: ErrorCode;
  /** With 403 `POLICY_DENIED` only: the rule that decided (null: no rule accepted), why, and the observed value. */
  details?: PolicyDeniedDetails;
}

/** A wallet; with `include=profile`, also its profile. */
export interface WalletWithProfileView extends WalletView {
  profile?: ProfileView;
}

/** A game's API keys (every one: there are few). */
export interface ApiKeyList {
  items: ApiKeyView[];
}

/** A game's webhook endpoints (every one: at most 20). */
export interface WebhookEndpointList {
  items: WebhookEndpointView[];
}

export type WebhookDeliveryPage = Page<WebhookDeliveryView>;

/** How many failed deliveries were scheduled again. */
export interface ScheduledRedeliveriesView {
  scheduled: number;
}

export type GamePage = Page<GameSummaryView>;
export type AuditPage = Page<AuditEntryView>;
export type ConsolePlayerPage = Page<ConsolePlayerView>;
export type SigningPolicyVersionPage = Page<SigningPolicyVersionView>;
export type PolicyDifferencePage = Page<PolicyDifferenceView>;

/** One dependency in a health report: `up`, or `down` with a generic `message`. */
export interface HealthIndicatorView {
  status: 'up' | 'down';
  message?: string;
}

/** The health report (SPEC §4.3, the Terminus shape): 200 when every dependency is up, else 503. */
export interface HealthReportView {
  status: 'ok' | 'error' | 'shutting_down';
  info?: Record<string, HealthIndicatorView>;
  error?: Record<string, HealthIndicatorView>;
  details: Record<string, HealthIndicatorView>;
}

/** Liveness: the process runs. */
export interface LivenessView {
  status: 'ok';
}

// ---- Two-factor sign-in, step-up and the operator's own account ----

/** What `POST /v1/console/session` answers: a session, or (the operator has a second factor) the challenge for it. */
export type ConsoleSignInView = ConsoleSessionView | SecondFactorChallengeView;

/** The signed-in operator's open sessions, newest first. */
export interface ConsoleSessionEntryList {
  items: ConsoleSessionEntryView[];
}

/** A password change: how many other sessions of the operator's it ended. */
export interface PasswordChangedView {
  endedSessions: number;
}

/** WebAuthn request options for a step-up with a passkey (PublicKeyCredentialRequestOptionsJSON), null without one. */
export interface StepUpOptionsView {
  passkey: Record<string, unknown> | null;
}

/** WebAuthn creation options for a new passkey (PublicKeyCredentialCreationOptionsJSON), for `navigator.credentials.create`. */
export type PasskeyCreationOptionsView = Record<string, unknown>;
