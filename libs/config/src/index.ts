export * from './common-config';
export * from './redis-target';
export * from './env-schema';
export * from './service-config';
export * from './keyring';
export * from './transport-keys';
export * from './env-docs';
export * from './jwt-issuer';
