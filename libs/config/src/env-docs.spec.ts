import { z } from 'zod';
import { documentedVariables, envDocs } from './env-docs';
import { key32Var, portVar, urlVar } from './env-schema';

describe(documentedVariables.name, () => {
  it("reads each variable's description, and its default from the schema or, when the app computes it, from the doc", () => {
    const variables = documentedVariables({
      PORT: portVar(3000).register(envDocs, { description: 'A port.' }),
      URL: urlVar(['redis:']).register(envDocs, { description: 'A URL.', default: '`redis://127.0.0.1:6379`', required: { production: true } }),
      NAME: z.string().optional().register(envDocs, { description: 'A name.' }),
    });
    expect(variables).toEqual([
      { name: 'PORT', doc: { description: 'A port.' }, defaultValue: '`3000`' },
      { name: 'URL', doc: { description: 'A URL.', default: '`redis://127.0.0.1:6379`', required: { production: true } }, defaultValue: '`redis://127.0.0.1:6379`' },
      { name: 'NAME', doc: { description: 'A name.' }, defaultValue: undefined },
    ]);
  });

  it('refuses a variable without a description', () => {
    expect(() => documentedVariables({ SILENT: z.string() })).toThrow('SILENT has no description');
    expect(() => documentedVariables({ BLANK: z.string().register(envDocs, { description: ' ' }) })).toThrow('BLANK has no description');
  });

  it('refuses a default stated by both the schema and the doc', () => {
    expect(() => documentedVariables({ PORT: portVar(3000).register(envDocs, { description: 'A port.', default: '`3001`' }) })).toThrow(
      'PORT: its default is stated twice',
    );
  });

  it('refuses a secret whose default value would be shown', () => {
    expect(() => documentedVariables({ PIN: z.string().default('1234').register(envDocs, { description: 'A PIN.', secret: true }) })).toThrow(
      'PIN is a secret: it must not have a default value to show',
    );
    expect(documentedVariables({ KEY: key32Var().register(envDocs, { description: 'A key.', secret: true, default: 'generated' }) })[0].defaultValue).toBe('generated');
  });
});
