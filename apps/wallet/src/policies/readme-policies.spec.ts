import { PolicyRule, ruleSentence } from '@game-wallet/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesProblem } from './rules-validation';

/** The README's example policies are policies the wallet saves, and read in the console as the README shows them. */
describe("the README's signing policies", () => {
  const readme = readFileSync(join(__dirname, '../../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Signing policy'), readme.indexOf('## Configuration'));
  const examples = [...section.matchAll(/```json\n([\s\S]*?)\n```\n\n((?:> \d+\. .*\n)+)/g)].map(([, json, shown]) => ({
    rules: (JSON.parse(json) as { rules: PolicyRule[] }).rules,
    sentences: shown.trimEnd().split('\n').map((line) => line.replace(/^> \d+\. /, '')),
  }));

  it('shows three policies', () => {
    expect(examples).toHaveLength(3);
  });

  it.each([0, 1, 2])('policy %i is valid and reads as the console shows it', (index) => {
    const { rules, sentences } = examples[index];
    expect(rulesProblem(rules)).toBeUndefined();
    expect(rules.map(ruleSentence)).toEqual(sentences);
  });
});
