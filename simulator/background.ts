import { swedishLegalId } from './legal-ids.js';
import { seededRandom } from './random.js';
import type { SimulatorState } from './state.js';

const GIVEN_NAMES = ['Anna', 'Erik', 'Maria', 'Lars', 'Karin', 'Johan', 'Eva', 'Nils', 'Ingrid', 'Olof'];
const FAMILY_NAMES = ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson'];

/**
 * Pre-seeds each client with identified consumers and subscribed persons, so lists span several
 * pages as they would on a service that has been in use. These persons are list filler only:
 * _find and consumer identification never match them, so they cannot collide with test data.
 */
export function seedBackground(state: SimulatorState): void {
  const { backgroundRecords, clients, seed } = state.options;
  clients.forEach((client, clientIndex) => {
    const random = seededRandom(seed + clientIndex);
    for (let index = 0; index < backgroundRecords; index += 1) {
      const { legalId, dateOfBirth, gender } = swedishLegalId(random, { from: 1930, to: 1935 });
      // Inside the bounds the simulator holds uploads to (BOUNDS.consumerId, BOUNDS.personId): the client by its
      // position.
      const id = `bg${clientIndex}-${index}`;
      const fields = {
        id,
        country: 'SE',
        legalId,
        dateOfBirth,
        gender,
        firstNames: [GIVEN_NAMES[index % GIVEN_NAMES.length]],
        familyName: FAMILY_NAMES[index % FAMILY_NAMES.length],
      };
      const person = state.persons.create(client.id, id, { fields, removed: false, deregistered: false }, true);
      state.consumers.put({
        clientId: client.id,
        consumerId: id,
        market: 'SE',
        data: { legalId },
        uploadedAt: 0,
        identifyAt: 0,
        subscribeAt: 0,
        matchedGedi: person.gedi,
      });
    }
  });
}
