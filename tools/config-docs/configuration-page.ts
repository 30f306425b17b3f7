import { DocumentedVariable, EnvVarDoc, documentedVariables, z } from '@game-wallet/config';
import { APP_NAMES, AppName } from '@game-wallet/contracts';
import { isDeepStrictEqual } from 'node:util';

/** One row of the page: a variable and the apps that read it. */
interface Row extends DocumentedVariable {
  apps: AppName[];
}

const PLACEHOLDERS = ['{{variables}}', '{{apps}}'] as const;

/**
 * `docs/configuration.md`: `template` (the hand-written parts) with its placeholders replaced by the table of every
 * variable the apps read, taken from each app's environment schema, and each app's list of variables. Throws when a
 * variable has no description, or two apps document the same variable differently.
 */
export function renderConfigurationPage(shapes: Record<AppName, z.ZodRawShape>, template: string): string {
  for (const placeholder of PLACEHOLDERS) {
    if (!template.includes(placeholder)) {
      throw new Error(`The template has no ${placeholder}`);
    }
  }
  const rows = rowsOf(shapes);
  return template.replace('{{variables}}', () => variablesTable(rows)).replace('{{apps}}', () => appsList(shapes, rows));
}

/** Every variable once, those every app reads first, then in the order the apps (gateway first) list them. */
function rowsOf(shapes: Record<AppName, z.ZodRawShape>): Row[] {
  const rows = new Map<string, Row>();
  for (const app of APP_NAMES) {
    const shape = shapes[app];
    if (shape === undefined) {
      throw new Error(`No environment schema for the ${app}`);
    }
    for (const variable of documentedVariables(shape)) {
      const seen = rows.get(variable.name);
      if (seen === undefined) {
        rows.set(variable.name, { ...variable, apps: [app] });
        continue;
      }
      if (!isDeepStrictEqual(seen.doc, variable.doc) || seen.defaultValue !== variable.defaultValue) {
        throw new Error(`${variable.name} is documented differently in the ${seen.apps[0]} and the ${app}: define it once and share it`);
      }
      seen.apps.push(app);
    }
  }
  const all = [...rows.values()];
  return [...all.filter((row) => row.apps.length === APP_NAMES.length), ...all.filter((row) => row.apps.length < APP_NAMES.length)];
}

function variablesTable(rows: Row[]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [
    line(['variable', 'read by', 'required', 'default (development)', 'description']),
    line(['---', '---', '---', '---', '---']),
    ...rows.map((row) => line([`\`${row.name}\``, appsOf(row), requiredOf(row.doc), row.defaultValue ?? '—', descriptionOf(row.doc)].map(cell))),
  ].join('\n');
}

/** Each app's own variables (besides those every app reads), in the order of its schema. */
function appsList(shapes: Record<AppName, z.ZodRawShape>, rows: Row[]): string {
  const everyApp = new Set(rows.filter((row) => row.apps.length === APP_NAMES.length).map((row) => row.name));
  return APP_NAMES.map((app) => {
    const own = Object.keys(shapes[app]).filter((name) => !everyApp.has(name));
    return `- **${app}**: ${own.map((name) => `\`${name}\``).join(', ')}`;
  }).join('\n');
}

const appsOf = (row: Row): string => (row.apps.length === APP_NAMES.length ? 'every app' : row.apps.join(', '));

function requiredOf(doc: EnvVarDoc): string {
  const parts = [doc.required?.production ? 'production' : undefined, doc.required?.when].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : '—';
}

const descriptionOf = (doc: EnvVarDoc): string => (doc.secret ? `**Secret.** ${doc.description}` : doc.description);

/** A table cell: one line, its pipes escaped. */
const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
