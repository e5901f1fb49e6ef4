import { describe, expect, it } from 'vitest';
import { CONSUMERS, findPath, Harness, PERSONS, personPath, SUBSCRIPTIONS, withHarness } from './harness.js';

// Real time: every effect is awaited by polling, as a client must; when an effect comes is checked
// on the manual clock below ("effect timing"), never against real time here.
describe('the documented flows, in real time', () => {
  let h: Harness;
  let token: string;
  Harness.forBlock({ realTime: true, backgroundRecords: 30, pageSize: 10 }, (started) => ({ h, token } = started));

  const read = (gedi: string) => h.request('GET', personPath(gedi), { token });
  const statusOf = async (gedi: string) => (await read(gedi)).status;

  it('issues a bearer token for the client credentials', async () => {
    const answer = await h.tokenRequest();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(answer.body.access_token).toEqual(expect.any(String));
  });

  it('creates a person that becomes available', async () => {
    const person = h.person();
    const put = await h.request('PUT', PERSONS, { token, json: person });
    expect(put.status).toBe(200);
    await expect.poll(() => statusOf(put.body.gedi)).toBe(200);
    expect((await read(put.body.gedi)).body).toMatchObject({
      gedi: put.body.gedi,
      legalId: person.legalId,
      familyName: person.familyName,
    });
  });

  it('updates the same person when the id already exists', async () => {
    const person = h.person();
    const first = await h.request('PUT', PERSONS, { token, json: person });
    const second = await h.request('PUT', PERSONS, { token, json: { ...person, familyName: 'Renamed' } });
    expect(second.body.gedi).toBe(first.body.gedi);
    await expect.poll(async () => (await read(first.body.gedi)).body?.familyName).toBe('Renamed');
  });

  it('finds a person by legal id', async () => {
    const person = h.person();
    const { body } = await h.request('PUT', PERSONS, { token, json: person });
    await expect
      .poll(async () =>
        (await h.request('POST', findPath(), { token, json: { legalId: person.legalId } })).body.results.map(
          (r: { gedi: string }) => r.gedi,
        ),
      )
      .toEqual([body.gedi]);
  });

  it('deletes a person when DELETE has only the id', async () => {
    const person = h.person();
    const { body } = await h.request('PUT', PERSONS, { token, json: person });
    await expect.poll(() => statusOf(body.gedi)).toBe(200);
    const deleted = await h.request('DELETE', PERSONS, { token, json: { id: person.id } });
    expect(deleted.status).toBe(202);
    await expect.poll(() => statusOf(body.gedi)).toBe(404);
  });

  it('marks a person removed when DELETE sends removed true with the fields, and keeps it readable', async () => {
    const person = h.person();
    const { body } = await h.request('PUT', PERSONS, { token, json: person });
    await expect.poll(() => statusOf(body.gedi)).toBe(200);
    await h.request('DELETE', PERSONS, { token, json: { ...person, removed: true } });
    await expect.poll(async () => (await read(body.gedi)).body?.removed).toBe(true);
  });

  it('marks a person deregistered with its reason', async () => {
    const { body } = await h.request('PUT', PERSONS, {
      token,
      json: h.person({ deregistered: true, deregisteredReason: 'Emigrated' }),
    });
    await expect
      .poll(async () => (await read(body.gedi)).body)
      .toMatchObject({ deregistered: true, deregisteredReason: 'Emigrated' });
  });

  it('merges a person into an existing one and rejects an unknown target without storing anything', async () => {
    const target = await h.request('PUT', PERSONS, { token, json: h.person() });
    const source = await h.request('PUT', PERSONS, { token, json: h.person({ merged: { gedi: target.body.gedi } }) });
    await expect.poll(async () => (await read(source.body.gedi)).body?.merged).toEqual({ gedi: target.body.gedi });
    const unknown = h.person({ merged: { gedi: 'no-such-gedi' } });
    const rejected = await h.request('PUT', PERSONS, { token, json: unknown });
    expect(rejected.status).toBe(422);
    expect(rejected.body.error.field).toBe('merged.gedi');
    expect((await h.request('DELETE', PERSONS, { token, json: { id: unknown.id } })).status).toBe(404);
  });

  it('marks related persons deceased or deregistered', async () => {
    const relationshipList = [
      { hierarchicalRelationship: 'Parent', firstNames: ['Old'], dateOfDeath: '2001-02-03' },
      { hierarchicalRelationship: 'Parent', firstNames: ['Away'], deregistered: true, deregisteredReason: 'Emigrated' },
      { hierarchicalRelationship: 'Parent', firstNames: ['Here'] },
    ];
    const { body } = await h.request('PUT', PERSONS, { token, json: h.person({ relationshipList }) });
    await expect
      .poll(async () => (await read(body.gedi)).body?.relationshipList)
      .toEqual([
        expect.objectContaining({
          firstNames: ['Old'],
          dateOfDeath: '2001-02-03',
          deceased: true,
          deregistered: false,
        }),
        expect.objectContaining({
          firstNames: ['Away'],
          deceased: false,
          deregistered: true,
          deregisteredReason: 'Emigrated',
        }),
        expect.objectContaining({ firstNames: ['Here'], deceased: false, deregistered: false }),
      ]);
  });

  it('identifies a matching consumer, subscribes its person and shows its latest version', async () => {
    const person = h.person();
    const { body } = await h.request('PUT', PERSONS, { token, json: person });
    await expect.poll(() => statusOf(body.gedi)).toBe(200);
    const uploaded = await h.request('POST', CONSUMERS, {
      token,
      json: [
        { consumerId: `m-${person.id}`, market: 'SE', data: { legalId: person.legalId } },
        { consumerId: `o-${person.id}`, market: 'SE', data: { legalId: h.freshLegalId() } },
      ],
    });
    expect(uploaded.body.consumers.map((c: { state: string }) => c.state)).toEqual(['PENDING', 'PENDING']);
    const states = async () => {
      const items = (await h.request('GET', `${CONSUMERS}?limit=2`, { token })).body.items as Array<{
        consumerId: string;
        state: string;
      }>;
      return Object.fromEntries(items.map((item) => [item.consumerId, item.state]));
    };
    await expect.poll(states).toEqual({ [`m-${person.id}`]: 'IDENTIFIED', [`o-${person.id}`]: 'UNIDENTIFIED' });
    const subscribed = async () => (await h.request('GET', `${SUBSCRIPTIONS}?limit=1`, { token })).body.items[0];
    await expect.poll(subscribed).toMatchObject({ gedi: body.gedi, familyName: person.familyName });
    await h.request('PUT', PERSONS, { token, json: { ...person, familyName: 'NewVersion' } });
    await expect.poll(subscribed).toMatchObject({ gedi: body.gedi, familyName: 'NewVersion' });
  });

  it('pages through long lists with a next link, newest first, without repeats', async () => {
    const ids: string[] = [];
    let next: string | null = `${CONSUMERS}?limit=7`;
    while (next) {
      const page: { body: { items: Array<{ consumerId: string }>; next: string | null } } = await h.request(
        'GET',
        next,
        { token },
      );
      ids.push(...page.body.items.map((item) => item.consumerId));
      next = page.body.next;
    }
    expect(ids.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toBe('bg0-0');
    expect((await h.request('GET', CONSUMERS, { token })).body.items).toHaveLength(10);
  });

  it('shows each client only its own consumers and subscriptions', async () => {
    const second = await h.token(1);
    await h.request('POST', CONSUMERS, {
      token: second,
      json: [{ consumerId: 'second-only', market: 'SE', data: { legalId: h.freshLegalId() } }],
    });
    await expect
      .poll(async () => (await h.request('GET', `${CONSUMERS}?limit=1`, { token: second })).body.items[0]?.consumerId)
      .toBe('second-only');
    const firstClientIds = (await h.request('GET', `${CONSUMERS}?limit=1000`, { token })).body.items.map(
      (item: { consumerId: string }) => item.consumerId,
    );
    expect(firstClientIds).not.toContain('second-only');
    expect(firstClientIds.some((id: string) => id.startsWith('bg1-'))).toBe(false);
    const subscriptions = (await h.request('GET', `${SUBSCRIPTIONS}?limit=1000`, { token: second })).body.items;
    expect(subscriptions.every((item: { id: string }) => item.id.startsWith('bg1-'))).toBe(true);
  });
});

describe('effect timing', () => {
  it('never shows an effect in the response of the call that caused it, however late the read', async () => {
    await withHarness({}, async (h) => {
      const token = await h.token();
      const { body } = await h.request('PUT', PERSONS, { token, json: h.person() });
      expect((await h.request('GET', personPath(body.gedi), { token })).status).toBe(404);
      h.clock!.advance(9); // below the shortest jittered delay (half of 20 ms)
      expect((await h.request('GET', personPath(body.gedi), { token })).status).toBe(404);
      h.settle();
      expect((await h.request('GET', personPath(body.gedi), { token })).status).toBe(200);
    });
  });

  it('makes effects visible at once with a zero delay', async () => {
    await withHarness({ availabilityDelayMs: 0 }, async (h) => {
      const token = await h.token();
      const { body } = await h.request('PUT', PERSONS, { token, json: h.person() });
      expect((await h.request('GET', personPath(body.gedi), { token })).status).toBe(200);
    });
  });

  it('answers 404 in another market than the person\u2019s', async () => {
    await withHarness({ availabilityDelayMs: 0 }, async (h) => {
      const token = await h.token();
      const { body } = await h.request('PUT', PERSONS, { token, json: h.person() });
      expect((await h.request('GET', personPath(body.gedi, 'NO'), { token })).status).toBe(404);
    });
  });
});
