/**
 * AML screening v2 — Versioning.
 *
 * > The screening interface is reachable at {base_url}/aml-real-time-screening/v2 in the sandbox
 * > [...] and both address forms also exist with the root path /aml-real-time-screening/.
 *
 * Read as: the same operation path without the `v2` segment answers like the versioned one.
 * Not asserted (not shown): the http form (the samples use https), deprecation of either form.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { rootForm, screeningOutcome, TEST_REFERENCES } from '../../support/verbs/screening.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('screening.root-path').test(
  'answers person screening under the root path like under the v2 path',
  async ({ screening, config, data, skipBecause }) => {
    const path = config.paths.personScreening;
    const root = rootForm(path);
    if (root === undefined) {
      await skipBecause(
        `CONTRACT_PERSON_SCREENING_PATH is ${path}, not under /aml-real-time-screening/v2/: the ` +
          'documentation defines the root form of its own paths only',
      );
    }
    const request = await Given('the person test request', async () =>
      screening.personRequest(TEST_REFERENCES.politician, data.personName()),
    );

    const [versioned, atRoot] = await When(`the client screens at ${path} and at ${root}`, () =>
      Promise.all([screening.screenPerson(request), screening.screenPerson(request, root)]),
    );

    await Then('both answer 2xx with the same result', async () => {
      expectAccepted(versioned!, 'the v2 path');
      expectAccepted(atRoot!, 'the root path');
      expect(screeningOutcome(atRoot!.body, request), 'the root path gives the same result as the v2 path').toEqual(
        screeningOutcome(versioned!.body, request),
      );
    });
  },
);
