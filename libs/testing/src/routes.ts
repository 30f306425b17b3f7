import { TestPlatform } from './platform';

/** The routes the platform's gateway mapped as it started (`METHOD /path`, Nest's `:param` form); needs LOG_LEVEL=debug. */
export function mappedRoutes(platform: TestPlatform): string[] {
  return platform
    .process('gateway')
    .jsonLines()
    .map((line) => /^Mapped \{(\S+), (\w+)\} route$/.exec(String(line.msg)))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, path, method]) => `${method} ${path}`);
}
