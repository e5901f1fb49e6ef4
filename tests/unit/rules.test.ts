import { describe, expect, it } from 'vitest';
import { attributeToRule, brokenRuleMessage, rulesNamedIn, StepFailure } from '../../support/evidence/failures.js';
import { ConfigError } from '../../support/run/config.js';
import { ListIncompleteError } from '../../support/readings/list-reader.js';

describe('rule attribution', () => {
  it('names the rule id, its section and the documented words, then the step and what failed in it', () => {
    const failed = new StepFailure('Then', 'the DELETE is accepted', new Error('the DELETE answered 500'));
    const error = attributeToRule(failed, 'transition.delete') as Error;
    expect(error.message).toMatch(
      /^Broken rule transition\.delete \(States and transitions: "DELETE sandbox person \| body has only `?id`?/,
    );
    expect(error.message).toMatch(/\): Then "the DELETE is accepted": the DELETE answered 500$/);
  });

  it('names only the rule of the spec it runs in, whatever verb the failure came from', () => {
    const fromStore = new Error('PUT sandbox person answered 422; any 2xx was expected');
    const failed = new StepFailure('When', 'the client PUTs it', fromStore);
    expect(rulesNamedIn((attributeToRule(failed, 'transition.merge') as Error).message)).toEqual(['transition.merge']);
  });

  it('leaves failures that are not about the contract alone', () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { name: 'TargetUnavailableError' });
    expect((attributeToRule(unreachable, 'transition.delete') as Error).message).toBe('connect ECONNREFUSED');
    expect((attributeToRule(new ConfigError('CONTRACT_MARKET', 'bad'), 'transition.delete') as Error).message).toBe(
      'CONTRACT_MARKET: bad',
    );
    const incomplete = new ListIncompleteError(
      '/v3/consumers',
      'offset',
      3,
      'the total says 12 records, but the page at offset 15 is empty',
      [],
    );
    expect((attributeToRule(incomplete, 'consumer.unknown-not-identified') as Error).message).toMatch(
      /^List could not be read completely/,
    );
  });

  it('refuses a rule id the catalogue does not know', () => {
    expect(() => brokenRuleMessage('no.such-rule', 'x')).toThrow(/Unknown rule id "no.such-rule"/);
  });

  it('reads the rules named in a failure text, once each', () => {
    const text = [
      brokenRuleMessage('transition.remove', 'a'),
      brokenRuleMessage('transition.remove', 'b'),
      brokenRuleMessage('auth.token-issued', 'c'),
    ].join('\n');
    expect(rulesNamedIn(text)).toEqual(['transition.remove', 'auth.token-issued']);
  });
});
