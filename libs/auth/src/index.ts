/** Gateway authentication: the `@Authenticated()` decorator, the global guard and the typed principal. */
export {};
