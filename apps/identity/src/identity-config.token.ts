/** Injection token of the validated {@link IdentityConfig}. */
export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');
