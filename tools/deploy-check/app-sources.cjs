'use strict';
/**
 * What the apps' source says about running them: the environment variables each app reads (and which of them must be
 * set) and the HTTP paths it serves. Read with regular expressions from the TypeScript sources, following the one
 * pattern every app uses (STYLE.md): a zod schema of the environment in apps/<app>/src/config.ts, built from the
 * helpers in libs/config/src.
 */
const { existsSync, readFileSync, readdirSync } = require('node:fs');
const { join, relative } = require('node:path');

const ENV_NAME = '[A-Z][A-Z0-9_]*';

function sourceFiles(dir) {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/\.(spec|e2e-spec|fault-spec|d)\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** The apps of the repository: folders of apps/ with a `src/main.ts`. */
function appNames(root) {
  const apps = join(root, 'apps');
  return readdirSync(apps, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(apps, entry.name, 'src', 'main.ts')))
    .map((entry) => entry.name);
}

/** `config.ts` and the libs/config files it uses, following exported names (`loadServiceConfig` → service-config.ts). */
function configFiles(root, app) {
  const exportsByFile = sourceFiles(join(root, 'libs', 'config', 'src')).map((file) => {
    const text = readFileSync(file, 'utf8');
    return { file, text, names: [...text.matchAll(/export\s+(?:const|function|class|type|interface)\s+(\w+)/g)].map((match) => match[1]) };
  });
  const start = join(root, 'apps', app, 'src', 'config.ts');
  const files = [{ file: start, text: readFileSync(start, 'utf8') }];
  for (let index = 0; index < files.length; index += 1) {
    for (const candidate of exportsByFile) {
      const used = candidate.names.some((name) => new RegExp(`\\b${name}\\b`).test(files[index].text));
      if (used && !files.some(({ file }) => file === candidate.file)) {
        files.push(candidate);
      }
    }
  }
  return files;
}

/**
 * The text from `start` to the end of the object entry or statement it begins, or with `{ list: true }` to the bracket
 * that closes the list `start` is in (brackets balanced).
 */
function entryText(text, start, { list = false } = {}) {
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if ('([{'.includes(char)) {
      depth += 1;
    } else if (')]}'.includes(char)) {
      if (depth === 0) {
        return text.slice(start, index);
      }
      depth -= 1;
    } else if ((char === ',' || char === ';') && depth === 0 && !list) {
      return text.slice(start, index);
    }
  }
  return text.slice(start);
}

/** Helpers (`const portVar = …`) whose schema has a default or is optional, found by their definitions. */
function optionalHelpers(files) {
  const definitions = new Map();
  for (const { text } of files) {
    for (const match of text.matchAll(/(?:^|\n)(?:export\s+)?const\s+(\w+)\s*=/g)) {
      definitions.set(match[1], entryText(text, match.index + match[0].length));
    }
  }
  const optional = new Set();
  const isOptional = (body, seen) =>
    /\.optional\(\)|\.default\(/.test(body) ||
    [...body.matchAll(/\b(\w+)\b/g)].some(
      ([, name]) => definitions.has(name) && !seen.has(name) && isOptional(definitions.get(name), new Set([...seen, name])),
    );
  for (const [name, body] of definitions) {
    if (isOptional(body, new Set([name]))) {
      optional.add(name);
    }
  }
  return { optional, definitions };
}

/**
 * The environment of one app: every variable it reads (`known`), those its schema requires (no default, not
 * optional), and groups of which at least one must be set in production (`!env.X` checks, `requiredInProduction`).
 */
function appEnvironment(root, app) {
  const files = configFiles(root, app);
  const configText = files[0].text;
  const { optional, definitions } = optionalHelpers(files);
  const specValue = (property) => new RegExp(`\\b${property}\\s*:\\s*'(${ENV_NAME})'`).exec(configText)?.[1];
  const specList = (property) => {
    const list = new RegExp(`\\b${property}\\s*:\\s*\\[([^\\]]*)\\]`).exec(configText)?.[1] ?? '';
    return [...list.matchAll(new RegExp(`'(${ENV_NAME})'`, 'g'))].map((match) => match[1]);
  };
  const known = new Set();
  const required = [];
  const productionGroups = [];
  const source = (file) => relative(root, file);

  for (const { file, text } of files) {
    // Schema entries: `NAME: <schema>` and `[spec.portVariable]: <schema>` (the app's config names the variable).
    for (const match of text.matchAll(new RegExp(`\\n\\s*(?:(${ENV_NAME})|\\[spec\\.(\\w+)\\])\\s*:\\s*`, 'g'))) {
      const name = match[1] ?? specValue(match[2]);
      if (!name) {
        continue;
      }
      known.add(name);
      const body = entryText(text, match.index + match[0].length);
      const isOptional =
        /\.optional\(\)|\.default\(/.test(body) || [...body.matchAll(/\b(\w+)\b/g)].some(([, word]) => optional.has(word));
      if (!isOptional && (/\bz\./.test(body) || [...body.matchAll(/\b(\w+)\b/g)].some(([, word]) => definitions.has(word)))) {
        required.push({ names: [name], source: source(file) });
      }
    }
    // Reads: `env.NAME` (the parsed or raw environment).
    for (const match of text.matchAll(new RegExp(`\\benv\\.(${ENV_NAME})\\b`, 'g'))) {
      known.add(match[1]);
    }
    // Production checks: `if (!env.A && !env[spec.databaseVariable]) { …must be set… }` needs one of them set;
    // `requireInProduction(env, ['REDIS_URL', ...(spec.requiredInProduction ?? [])], …)` needs each. A check naming a
    // `spec.` property the app's config does not give belongs to a helper the app does not call (a libs/config file
    // is followed for another of its exports): it is left out, rather than read as requiring its other names alone.
    for (const match of text.matchAll(/if\s*\(([^{};]*?!env[.[][^{};]*?)\)\s*\{/g)) {
      for (const alternative of match[1].split('||')) {
        const oneOf = [];
        let unresolved = false;
        for (const [, dotted, indexed] of alternative.matchAll(/!env(?:\.(\w+)|\[([^\]]+)\])/g)) {
          const spec = /^spec\.(\w+)$/.exec(indexed?.trim() ?? '');
          if (dotted || spec) {
            const name = dotted ?? specValue(spec[1]);
            if (name) {
              oneOf.push(name);
            } else {
              unresolved = true;
            }
          }
        }
        if (oneOf.length > 0 && !unresolved) {
          productionGroups.push({ names: oneOf, source: source(file) });
        }
      }
    }
    for (const match of text.matchAll(/requireInProduction\(\s*env\s*,\s*\[/g)) {
      const list = entryText(text, match.index + match[0].length, { list: true });
      for (const [, name] of list.matchAll(new RegExp(`'(${ENV_NAME})'`, 'g'))) {
        productionGroups.push({ names: [name], source: source(file) });
      }
      for (const [, property] of list.matchAll(/spec\.(\w+)/g)) {
        specList(property).forEach((name) => productionGroups.push({ names: [name], source: source(files[0].file) }));
      }
    }
  }
  // Direct reads anywhere in the app and the libs (outside tests and the operators' command-line tools).
  for (const file of [...sourceFiles(join(root, 'apps', app, 'src')), ...sourceFiles(join(root, 'libs'))]) {
    if (/[\\/](test|testing|cli)[\\/]/.test(relative(root, file))) {
      continue;
    }
    for (const match of readFileSync(file, 'utf8').matchAll(new RegExp(`process\\.env(?:\\.(${ENV_NAME})|\\[['"](${ENV_NAME})['"]\\])`, 'g'))) {
      known.add(match[1] ?? match[2]);
    }
  }
  for (const group of productionGroups) {
    group.names.forEach((name) => known.add(name));
  }
  return { app, known, required, productionGroups };
}

/** GET routes (`@Controller('v1/health')` + `@Get('live')`) of the files under `dirs`, without parameters. */
function getRoutes(dirs) {
  const routes = new Set();
  for (const file of dirs.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    let prefix;
    for (const match of text.matchAll(/@(Controller|Get)\(\s*(?:'([^']*)')?[^)]*\)/g)) {
      if (match[1] === 'Controller') {
        prefix = match[2] ?? '';
      } else if (prefix !== undefined) {
        const path = `/${[prefix, match[2] ?? ''].filter(Boolean).join('/')}`.replace(/\/+/g, '/');
        if (!path.includes(':')) {
          routes.add(path);
        }
      }
    }
  }
  return routes;
}

/** Paths an app serves (its own controllers and the shared libs'), and the health paths among them (probe targets). */
function appRoutes(root, app) {
  const libs = join(root, 'libs');
  const libDirs = existsSync(libs) ? readdirSync(libs).filter((lib) => lib !== 'testing').map((lib) => join(libs, lib, 'src')) : [];
  return {
    served: getRoutes([join(root, 'apps', app, 'src'), ...libDirs]),
    health: getRoutes([join(root, 'libs', 'health', 'src'), join(root, 'apps', app, 'src', 'health')]),
  };
}

module.exports = { appNames, appEnvironment, appRoutes, configFiles };
