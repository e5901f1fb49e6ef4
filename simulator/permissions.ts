// Owns what a client may do beyond holding a valid token: the simulator's stand-in for the
// vendor's permissions (403: authenticated, not authorized), off unless a knob asks for it. The
// documentation shows none of this; the vendor's status table lists 403 for a market a client has
// no permission for, and the screening scopes are separate from bci.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import type { SimulatorState } from './state.js';
import type { TokenHolder } from './tokens.js';

/** The catalogue operation a request is, from its method and route (docs/catalogue.json ids). */
export function operationOf(method: string, route: string): string | undefined {
  if (route.includes('/sandbox/')) return method === 'PUT' ? 'op1' : method === 'DELETE' ? 'op2' : undefined;
  if (route.endsWith('/persons/_find')) return 'op4';
  if (route.includes('/persons/:gedi')) return 'op3';
  if (route.endsWith('/consumers')) return method === 'POST' ? 'op5' : 'op6';
  if (route.endsWith('/subscriptions/persons')) return 'op7';
  if (route.endsWith('/person/screening')) return 'op8';
  if (route.endsWith('/company/screening')) return 'op9';
  return undefined;
}

const SCREENING = new Set(['op8', 'op9']);

const forbidden = (message: string) => new HttpError(403, 'forbidden', message);

/** Throws 403 where the token's client or scope may not call the operation. */
export function checkPermission(state: SimulatorState, request: FastifyRequest, holder: TokenHolder): void {
  const operation = operationOf(request.method, request.routeOptions.url ?? '');
  if (operation === undefined) return;
  const { forbiddenOperations, screeningScope } = state.options;
  if (forbiddenOperations.includes(operation)) {
    throw forbidden(
      `client ${holder.clientId} has no permission for this operation in the market (onboarding permission missing)`,
    );
  }
  if (screeningScope === undefined) return;
  const wanted = SCREENING.has(operation) ? screeningScope : 'bci';
  if (holder.scope !== wanted)
    throw forbidden(`the token's scope ${holder.scope} does not allow this operation; it needs scope ${wanted}`);
}
