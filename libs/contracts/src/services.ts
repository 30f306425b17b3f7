/** The internal services reachable over the transport. Each has one request stream and one consumer group. */
export const SERVICE_NAMES = ['identity', 'wallet', 'core'] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];
