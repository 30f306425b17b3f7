/** Injection token of the validated {@link CoreConfig}. */
export const CORE_CONFIG = Symbol('CORE_CONFIG');
