import { describe, expect, it } from 'vitest';
import { CONSUMERS, findPath, Harness, PERSONS, personPath, screeningPath, SUBSCRIPTIONS } from './harness.js';

// The alternate layout keeps every documented name and value but shapes everything else differently.
describe('the alternate layout', () => {
  let h: Harness;
  let token: string;
  Harness.forBlock({ layout: 'alternate', backgroundRecords: 5, pageSize: 2 }, (started) => ({ h, token } = started));

  it('answers the token request as the standard layout does', async () => {
    expect((await h.tokenRequest()).body).toMatchObject({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
  });

  it('answers 201 then 200 for create and update, with the gedi in a data envelope', async () => {
    const person = h.person();
    const created = await h.request('PUT', PERSONS, { token, json: person });
    const updated = await h.request('PUT', PERSONS, { token, json: { ...person, familyName: 'Other' } });
    expect([created.status, updated.status]).toEqual([201, 200]);
    expect(updated.body.data.gedi).toBe(created.body.data.gedi);
    h.settle();
    expect((await h.request('GET', personPath(created.body.data.gedi), { token })).body.data).toMatchObject({
      gedi: created.body.data.gedi,
      status: 'ACTIVE',
      attributes: { familyName: 'Other', legalId: person.legalId, deregistered: false },
    });
  });

  it('spells removal and merge as a status, answers 204 to DELETE and 410 for a deleted person', async () => {
    const removed = h.person();
    const target = h.person();
    const gedis = await Promise.all(
      [removed, target].map(
        async (person) => (await h.request('PUT', PERSONS, { token, json: person })).body.data.gedi,
      ),
    );
    const merged = (await h.request('PUT', PERSONS, { token, json: h.person({ merged: { gedi: gedis[1] } }) })).body
      .data.gedi;
    h.settle();
    expect((await h.request('DELETE', PERSONS, { token, json: { ...removed, removed: true } })).status).toBe(204);
    h.settle();
    expect((await h.request('GET', personPath(gedis[0]), { token })).body.data.status).toBe('REMOVED');
    expect((await h.request('GET', personPath(merged), { token })).body.data).toMatchObject({
      status: 'MERGED',
      mergedInto: gedis[1],
    });
    await h.request('DELETE', PERSONS, { token, json: { id: target.id } });
    h.settle();
    const gone = await h.request('GET', personPath(gedis[1]), { token });
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(gone.body).toMatchObject({ status: 410, detail: expect.any(String) });
  });

  it('answers _find with a data list, or 404 when nothing matches', async () => {
    const person = h.person();
    await h.request('PUT', PERSONS, { token, json: person });
    h.settle();
    expect(
      (await h.request('POST', findPath(), { token, json: { legalId: person.legalId } })).body.data[0].attributes
        .legalId,
    ).toBe(person.legalId);
    expect((await h.request('POST', findPath(), { token, json: { legalId: h.freshLegalId() } })).status).toBe(404);
  });

  it(
    'accepts consumers with 202 and lists them oldest first, ' + 'paged by cursor and Link header, state as status',
    async () => {
      const person = h.person();
      await h.request('PUT', PERSONS, { token, json: person });
      h.settle();
      const accepted = await h.request('POST', CONSUMERS, {
        token,
        json: [{ consumerId: 'alt-1', market: 'SE', data: { legalId: person.legalId } }],
      });
      expect(accepted.status).toBe(202);
      h.settle();
      const pages: Array<Array<{ consumerId: string; status: string }>> = [];
      let cursor: string | null = null;
      do {
        const page: {
          headers: Headers;
          body: { data: Array<{ consumerId: string; status: string }>; meta: { nextCursor: string | null } };
        } = await h.request('GET', `${CONSUMERS}${cursor ? `?cursor=${cursor}` : ''}`, { token });
        pages.push(page.body.data);
        cursor = page.body.meta.nextCursor;
        expect(page.headers.get('link') ?? '').toContain(cursor ? `cursor=${cursor}` : '');
      } while (cursor);
      const all = pages.flat();
      expect(all[0].consumerId).toBe('bg0-0');
      expect(all.at(-1)).toMatchObject({ consumerId: 'alt-1', status: 'IDENTIFIED' });
      const subscriptions = (await h.request('GET', `${SUBSCRIPTIONS}?limit=100`, { token })).body.data;
      expect(subscriptions.at(-1).person.attributes.legalId).toBe(person.legalId);
    },
  );

  it('answers errors as problem details naming the field, and 415 for a wrong content type', async () => {
    const invalid = await h.request('PUT', PERSONS, { token, json: h.person({ dateOfBirth: 'soon' }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body.invalidParams).toEqual([
      { name: 'dateOfBirth', reason: expect.stringContaining('YYYY-MM-DD') },
    ]);
    expect((await h.request('PUT', PERSONS, { token, raw: { contentType: 'text/plain', body: 'x' } })).status).toBe(
      415,
    );
  });

  it('wraps screening results and spells hits differently', async () => {
    const answer = await h.request('POST', screeningPath('person'), {
      token,
      json: { reference: 'person_test_case_01', provider: 'SANDBOX-AML' },
    });
    expect(answer.body.data).toMatchObject({ outcome: 'HIT', hits: [{ type: 'PEP', pep: true }] });
  });
});
