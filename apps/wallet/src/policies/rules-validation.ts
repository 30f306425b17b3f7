import { AppError, CHAIN_NAMES, CRITERION_SCOPE, ChainName, PolicyRule } from '@game-wallet/contracts';
import { CHAIN_SIGNERS } from '../chains';
import { messageCriterionProblem } from './message-criteria';

/**
 * The checks of a policy's rules beyond their JSON shape (which the gateway checks): unique ids; each criterion fits
 * its rule's operation and chains (a rule for transactions on every chain cannot read `evmValue`: it names its
 * chains); velocity only in accept rules (a limit decides when a signature may be made); and each criterion as its
 * chain reads it (an ABI fragment that parses, a pattern RE2 compiles within its bounds…). 400 naming the rule.
 */
export function assertValidRules(rules: PolicyRule[]): void {
  const problem = rulesProblem(rules);
  if (problem !== undefined) {
    throw new AppError('VALIDATION_FAILED', problem);
  }
}

/** The most `evmData` criteria one policy may hold: each reads the calldata by its own ABI fragment. */
export const MAX_POLICY_FUNCTIONS = 50;

export function rulesProblem(rules: PolicyRule[]): string | undefined {
  const unstorable = unstorableText(rules, 'rules');
  if (unstorable !== undefined) {
    return `${unstorable}: must not hold a NUL character or half of a surrogate pair`;
  }
  // Each ABI fragment decodes the calldata again: their number bounds what a policy costs a request.
  const functions = rules.flatMap((rule) => rule.criteria).filter((criterion) => criterion.type === 'evmData').length;
  if (functions > MAX_POLICY_FUNCTIONS) {
    return `rules: ${functions} evmData criteria, more than ${MAX_POLICY_FUNCTIONS} in one policy`;
  }
  const ids = new Set<string>();
  for (const [index, rule] of rules.entries()) {
    const at = `rules.${index} (${rule.id})`;
    if (ids.has(rule.id)) {
      return `${at}: id ${rule.id} is used by an earlier rule`;
    }
    ids.add(rule.id);
    const chains: readonly ChainName[] = rule.chains ?? CHAIN_NAMES;
    if (rule.operation === 'typed-data' && chains.some((chain) => chain !== 'evm')) {
      return `${at}: typed data is signed on evm only: give the rule chains ["evm"]`;
    }
    for (const [position, criterion] of rule.criteria.entries()) {
      const scope = CRITERION_SCOPE[criterion.type];
      const where = `${at}.criteria.${position} (${criterion.type})`;
      if (!scope.operations.includes(rule.operation)) {
        return `${where}: reads ${scope.operations.join(' or ')}, not the rule's ${rule.operation}`;
      }
      const outside = chains.filter((chain) => !scope.chains.includes(chain));
      if (outside.length > 0) {
        return `${where}: reads ${scope.chains.join(' or ')} only: give the rule chains ${JSON.stringify(scope.chains)}`;
      }
      if (criterion.type === 'velocity') {
        if (rule.action !== 'accept') {
          return `${where}: a velocity limit belongs to an accept rule (it bounds what is accepted)`;
        }
        continue;
      }
      const problem = rule.operation === 'message' ? messageCriterionProblem(criterion) : CHAIN_SIGNERS[chains[0]].criterionProblem(criterion);
      if (problem !== undefined) {
        return `${where}: ${problem}`;
      }
    }
  }
  return undefined;
}

/** The first place in `value` holding text PostgreSQL's jsonb cannot store (NUL, a lone surrogate), by its path. */
function unstorableText(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') {
    return value.includes('\u0000') || !value.isWellFormed() ? path : undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = unstorableText(item, `${path}.${key}`);
      if (found !== undefined) {
        return found;
      }
    }
  }
  return undefined;
}
