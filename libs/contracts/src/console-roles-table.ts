import { CONSOLE_PERMISSIONS, CONSOLE_ROLES, ConsolePermission } from './console-access';

/** The permission table as the README shows it (Markdown), so the README cannot drift from the code. */
export function consoleRolesTable(): string {
  const header = `| may | ${CONSOLE_ROLES.join(' | ')} | step-up |`;
  const rule = `|---|${CONSOLE_ROLES.map(() => ':-:').join('|')}|:-:|`;
  const rows = (Object.keys(CONSOLE_PERMISSIONS) as ConsolePermission[]).map((permission) => {
    const { roles, stepUp, summary, scope } = CONSOLE_PERMISSIONS[permission];
    const where = scope === 'instance' ? ' (a grant for every game)' : '';
    const marks = CONSOLE_ROLES.map((role) => ((roles as readonly string[]).includes(role) ? '✓' : ''));
    return `| ${summary}${where} | ${marks.join(' | ')} | ${stepUp ? '✓' : ''} |`;
  });
  return [header, rule, ...rows].join('\n');
}
