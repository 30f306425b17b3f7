import type { ConsoleSessionEntryView, InvitationView, OperatorView } from './console-access';

/** The team, as `GET /v1/console/operators` answers it (an owner of listed games sees only their games' operators and grants). */
export interface OperatorList {
  items: OperatorView[];
}

/** `GET /v1/console/invitations`: the latest invitations (at most 500), newest first. */
export interface InvitationList {
  items: InvitationView[];
}

/** `GET /v1/console/operators/{operatorId}/sessions`: the operator's open sessions, newest first. */
export interface OperatorSessionList {
  items: ConsoleSessionEntryView[];
}
