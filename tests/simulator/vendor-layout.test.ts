import { afterAll, describe, expect, it } from 'vitest';
import { CONSUMERS, findPath, Harness, PERSONS, personPath, screeningPath, SUBSCRIPTIONS } from './harness.js';

// The vendor layout answers in the shapes the vendor's public pages show (../../shared/vendor-public-notes.md).
describe('the vendor layout', () => {
  let h: Harness;
  let token: string;
  Harness.forBlock({ layout: 'vendor', backgroundRecords: 25 }, (started) => ({ h, token } = started));

  const put = (json: unknown) => h.request('PUT', PERSONS, { token, json });
  const read = async (gedi: string) => (await h.request('GET', personPath(gedi), { token })).body;

  it('answers 201 then 200 with the gedi, and shows the v3 person object without a gedi', async () => {
    const earlier = h.freshLegalId();
    const person = h.person({ deprecatedLegalIds: [{ socialSecurityNumber: earlier }], protectedIdentity: true });
    const created = await put(person);
    const updated = await put({ ...person, familyName: 'Other' });
    expect([created.status, updated.status]).toEqual([201, 200]);
    expect(created.body).toEqual({ id: person.id, gedi: expect.any(String) });
    expect(updated.body.gedi).toBe(created.body.gedi);
    h.settle();
    const record = await read(created.body.gedi);
    expect(record).toMatchObject({
      legalId: {
        identityNumber: person.legalId,
        temporary: false,
        history: [{ identityNumber: earlier, temporary: false }],
      },
      firstNames: ['Test'],
      familyName: 'Other',
      birthDate: person.dateOfBirth,
      birthDatePrecision: 'DAY',
      status: { active: true, protected: true, removed: false, deregistered: false },
      metadata: {
        updatedTimestamp: expect.any(String),
        sources: [{ name: expect.any(String), market: 'SE', updatedTimestamp: expect.any(String) }],
      },
    });
    expect(JSON.stringify(record)).not.toContain(created.body.gedi);
    expect(record).not.toHaveProperty('dateOfBirth');
    expect(record).not.toHaveProperty('id');
  });

  it('shows a deregistration, with a date of month precision, and a removal in status', async () => {
    const person = h.person();
    const { gedi } = (await put(person)).body;
    await put({
      ...person,
      deregistered: true,
      deregisteredReason: 'Emigrated',
      deregisteredYear: '2020',
      deregisteredMonth: '03',
    });
    h.settle();
    expect(await read(gedi)).toMatchObject({
      status: { active: false, deregistered: true, removed: false },
      deregistration: { reason: 'Emigrated', deregistrationDate: '2020-03', deregistrationDatePrecision: 'MONTH' },
    });
    expect((await h.request('DELETE', PERSONS, { token, json: { ...person, removed: true } })).status).toBe(204);
    h.settle();
    expect((await read(gedi)).status).toMatchObject({ active: false, removed: true });
  });

  it('names the person a merge went into by its gedi, and shows relatives in v3 form', async () => {
    const target = (await put(h.person())).body.gedi;
    const parent = h.freshLegalId();
    const person = h.person({
      merged: { gedi: target },
      relationshipList: [
        {
          hierarchicalRelationship: 'Parent',
          legalId: { socialSecurityNumber: parent },
          firstName: 'Olof',
          dateOfBirth: '1940-01-02',
          dateOfDeath: '2010-05-06',
        },
      ],
    });
    const { gedi } = (await put(person)).body;
    h.settle();
    expect(await read(gedi)).toMatchObject({
      status: { active: false, merged: true },
      mergedInto: { gedi: target },
      relations: [
        {
          relationType: 'Parent',
          legalId: { identityNumber: parent },
          firstNames: ['Olof'],
          birthDate: '1940-01-02',
          deathDate: '2010-05-06',
          deathDatePrecision: 'DAY',
          status: { deceased: true, deregistered: false },
        },
      ],
    });
  });

  it('refuses a merge into an unknown gedi with a status of its table (400), not 422', async () => {
    const answer = await put(h.person({ merged: { gedi: 'no-such-gedi' } }));
    expect(answer.status).toBe(400);
    expect(answer.body.subErrors).toEqual([
      { object: 'merged', field: 'gedi', rejectedValue: null, message: expect.stringContaining('no-such-gedi') },
    ]);
  });

  it('finds one person object, or answers 204 with no body', async () => {
    const person = h.person();
    await put(person);
    h.settle();
    const found = await h.request('POST', findPath(), { token, json: { legalId: person.legalId } });
    expect(found.status).toBe(200);
    expect(found.body.legalId.identityNumber).toBe(person.legalId);
    const none = await h.request('POST', findPath(), { token, json: { legalId: h.freshLegalId() } });
    expect([none.status, none.body]).toEqual([204, undefined]);
  });

  it(
    'accepts consumers with 202 and no body; lists them ten to a page by nextPageToken, oldest first, IDENTIFIED ' +
      'or NOT_IDENTIFIED',
    async () => {
      const person = h.person();
      await put(person);
      h.settle();
      const accepted = await h.request('POST', CONSUMERS, {
        token,
        json: [
          { consumerId: 'v-match', market: 'SE', data: { legalId: person.legalId } },
          { consumerId: 'v-other', market: 'SE', data: { legalId: h.freshLegalId() } },
        ],
      });
      expect([accepted.status, accepted.body]).toEqual([202, undefined]);
      h.settle();
      const pages: Array<Array<{ consumerId: string; state: string }>> = [];
      let pageToken: string | undefined;
      do {
        const page = await h.request('GET', `${CONSUMERS}${pageToken ? `?pageToken=${pageToken}` : ''}`, { token });
        pages.push(page.body.consumers);
        pageToken = page.body.nextPageToken;
      } while (pageToken);
      expect(pages.map((page) => page.length)).toEqual([10, 10, 7]);
      const all = pages.flat();
      expect(all[0].consumerId).toBe('bg0-0');
      expect(all.slice(-2)).toMatchObject([
        { consumerId: 'v-match', state: 'IDENTIFIED' },
        { consumerId: 'v-other', state: 'NOT_IDENTIFIED' },
      ]);
      const subscriptions = await h.request('GET', `${SUBSCRIPTIONS}?pageSize=100`, { token });
      expect(subscriptions.body).not.toHaveProperty('nextPageToken');
      expect(subscriptions.body.persons.at(-1).legalId.identityNumber).toBe(person.legalId);
    },
  );

  it('answers errors in the vendor error model, and only with statuses of its table', async () => {
    const invalid = await put(h.person({ familyName: 'x'.repeat(101) }));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      status: 400,
      statusText: 'Bad Request',
      message: expect.stringContaining('familyName'),
      timestamp: expect.any(String),
      subErrors: [
        { object: 'request', field: 'familyName', rejectedValue: 'x'.repeat(101), message: expect.any(String) },
      ],
    });
    expect((await h.request('PUT', PERSONS, { token, raw: { contentType: 'text/plain', body: 'x' } })).status).toBe(
      400,
    );
    const wrongMethod = await h.request('POST', PERSONS, { token, json: h.person() });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.headers.get('allow')).toBeNull();
    expect((await h.request('GET', CONSUMERS, { token: null })).body).toMatchObject({
      status: 401,
      statusText: 'Unauthorized',
    });
  });

  it(
    'answers a throttled request 429 or 503 with Retry-After, ' + 'and a body over the limit 400 (no 413 in its table)',
    async () => {
      const [faulty, small] = await Promise.all([
        Harness.start({ layout: 'vendor', faultRate: 1 }),
        Harness.start({ layout: 'vendor', bodyLimitBytes: 1024 }),
      ]);
      try {
        const throttled = await faulty.tokenRequest();
        expect([429, 503]).toContain(throttled.status);
        expect(throttled.headers.get('retry-after')).toBe('1');
        expect(throttled.body).toMatchObject({
          status: throttled.status,
          statusText: expect.any(String),
          subErrors: [],
        });
        const tooLarge = await small.request('PUT', PERSONS, {
          token: await small.token(),
          json: small.person({ familyName: 'x'.repeat(2000) }),
        });
        expect(tooLarge.status).toBe(400);
      } finally {
        await Promise.all([faulty.close(), small.close()]);
      }
    },
  );

  it('answers screening with screeningResult: a PEP match in its lists, and the lists screened', async () => {
    const answer = await h.request('POST', screeningPath('person'), {
      token,
      json: { reference: 'person_test_case_01', provider: 'SANDBOX-AML' },
    });
    expect(answer.body).toEqual({
      screeningResult: {
        numberOfMatches: 1,
        matches: [
          {
            name: expect.any(String),
            lists: [{ type: 'PEP', name: expect.any(String) }],
            pepCategory: 'POLITICIAN',
            score: expect.any(Number),
          },
        ],
        listsScreened: ['PEP', 'SANCTION', 'RCA'],
      },
    });
  });

  it(
    'answers company screening with the request echoed, ' + 'the verified company and its own screening result',
    async () => {
      const request = {
        reference: 'company_test_case_02',
        name: 'Test Trading',
        regNo: '556000-0000',
        nationality: 'SE',
      };
      const answer = await h.request('POST', screeningPath('company'), { token, json: request });
      expect(answer.body).toMatchObject({
        companyInput: request,
        verifiedCompany: {
          subjectReference: expect.any(String),
          identified: true,
          screenableEntry: true,
          name: 'Test Trading Company Ltd',
        },
        screeningResult: {
          numberOfMatches: 1,
          matches: [{ lists: [{ type: 'SANCTION' }] }],
          listsScreened: ['PEP', 'SANCTION', 'RCA'],
        },
      });
      const clear = await h.request('POST', screeningPath('company'), {
        token,
        json: { reference: 'company_test_case_01' },
      });
      expect(clear.body.screeningResult).toEqual({
        numberOfMatches: 0,
        matches: [],
        listsScreened: ['PEP', 'SANCTION', 'RCA'],
      });
    },
  );
});

// A v3 service that names no gedi in its records and shows a merge by answering the target's
// record for the merged-away gedi (SIMULATOR_RECORDS_WITHOUT_GEDI, SIMULATOR_MERGES_SHOWN_BY_TARGET).
describe('the vendor layout without a gedi in records', () => {
  const started: Harness[] = [];
  afterAll(() => Promise.all(started.map((h) => h.close())));

  /** A vendor simulator with these settings, a target and a person merged into it, every effect visible. */
  async function merged(settings: { recordsWithoutGedi?: boolean; mergesShownByTarget?: boolean }) {
    const h = await Harness.start({ layout: 'vendor', ...settings });
    started.push(h);
    const token = await h.token();
    const put = (json: unknown) => h.request('PUT', PERSONS, { token, json });
    const [target, source] = [h.person(), h.person()];
    const targetGedi: string = (await put(target)).body.gedi;
    const sourceGedi: string = (await put(source)).body.gedi;
    expect([targetGedi, sourceGedi]).toEqual([expect.any(String), expect.any(String)]);
    await put({ ...source, merged: { gedi: targetGedi } });
    h.settle();
    const record = (await h.request('GET', personPath(sourceGedi), { token })).body;
    return { h, token, target, targetGedi, source, record };
  }

  it("answers the target's record for the merged-away gedi, naming no gedi; the PUT answer keeps it", async () => {
    const { record, target, targetGedi } = await merged({ recordsWithoutGedi: true, mergesShownByTarget: true });
    expect(record).toMatchObject({ legalId: { identityNumber: target.legalId }, familyName: target.familyName });
    expect(record).toMatchObject({ status: { merged: false } });
    expect(JSON.stringify(record)).not.toContain(targetGedi);
  });

  it('shows a merge without naming into whom when only the gedi is left out', async () => {
    const { record, source, targetGedi } = await merged({ recordsWithoutGedi: true });
    expect(record).toMatchObject({ legalId: { identityNumber: source.legalId }, status: { merged: true } });
    expect(record).not.toHaveProperty('mergedInto');
    expect(JSON.stringify(record)).not.toContain(targetGedi);
  });

  it("answers the target's record as the vendor layout shows it when only merges are shown by the target", async () => {
    const { record, target } = await merged({ mergesShownByTarget: true });
    expect(record).toMatchObject({ legalId: { identityNumber: target.legalId }, status: { merged: false } });
    expect(record).not.toHaveProperty('mergedInto');
  });

  it('names no gedi in find answers, consumers or subscribed persons', async () => {
    const { h, token, target, targetGedi } = await merged({ recordsWithoutGedi: true, mergesShownByTarget: true });
    const found = await h.request('POST', findPath(), { token, json: { legalId: target.legalId } });
    const consumer = { consumerId: 'nogedi-1', market: 'SE', data: { legalId: target.legalId } };
    await h.request('POST', CONSUMERS, { token, json: [consumer] });
    h.settle();
    const lists = [CONSUMERS, SUBSCRIPTIONS].map((path) => h.request('GET', path, { token }));
    const [consumers, subscriptions] = await Promise.all(lists);
    expect(found.body.legalId.identityNumber).toBe(target.legalId);
    expect(consumers.body.consumers).toEqual([{ ...consumer, state: 'IDENTIFIED' }]);
    expect(subscriptions.body.persons).toMatchObject([{ legalId: { identityNumber: target.legalId } }]);
    for (const { body } of [found, consumers, subscriptions]) expect(JSON.stringify(body)).not.toContain(targetGedi);
  });
});
