import { mkdtempSync, readdirSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerFile, leftovers, pruneLedgers, recordInLedger } from '../../support/data/ledger.js';

const SANDBOX = 'https://sandbox.example.test';

describe('cleanup ledger', () => {
  it('names the persons created on a target and never deleted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    const file = ledgerFile('run1', dir);
    recordInLedger(file, { event: 'created', personId: 'p1', target: SANDBOX, clientId: 'c' });
    recordInLedger(file, { event: 'created', personId: 'p2', target: SANDBOX, clientId: 'c' });
    recordInLedger(file, { event: 'created', personId: 'p3', target: 'http://127.0.0.1:1234', clientId: 'c' });
    recordInLedger(file, { event: 'deleted', personId: 'p1', target: SANDBOX, clientId: 'c' });

    expect(leftovers(SANDBOX, dir).map((leftover) => leftover.personId)).toEqual(['p2']);
  });

  it('keeps the persons of two clients apart when they chose the same id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    const file = ledgerFile('run3', dir);
    recordInLedger(file, { event: 'created', personId: 'same', target: SANDBOX, clientId: 'first' });
    recordInLedger(file, { event: 'created', personId: 'same', target: SANDBOX, clientId: 'second' });
    recordInLedger(file, { event: 'deleted', personId: 'same', target: SANDBOX, clientId: 'second' });

    expect(leftovers(SANDBOX, dir)).toEqual([{ file, personId: 'same', clientId: 'first' }]);
  });

  it('survives a line cut short by a killed run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    const file = ledgerFile('run2', dir);
    recordInLedger(file, { event: 'created', personId: 'p1', target: SANDBOX, clientId: 'c' });
    appendFileSync(file, '{"event":"created","personId":"p');

    expect(leftovers(SANDBOX, dir).map((leftover) => leftover.personId)).toEqual(['p1']);
  });

  it('prunes ledgers whose persons were all deleted and keeps the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    recordInLedger(ledgerFile('done', dir), { event: 'created', personId: 'p1', target: SANDBOX, clientId: 'c' });
    recordInLedger(ledgerFile('done', dir), { event: 'deleted', personId: 'p1', target: SANDBOX, clientId: 'c' });
    recordInLedger(ledgerFile('open', dir), { event: 'created', personId: 'p2', target: SANDBOX, clientId: 'c' });

    pruneLedgers(dir);

    expect(readdirSync(dir)).toEqual(['open.jsonl']);
  });

  it('finds nothing where no ledger was ever written', () => {
    expect(leftovers(SANDBOX, join(tmpdir(), 'no-such-ledger-dir'))).toEqual([]);
  });
});
