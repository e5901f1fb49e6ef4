import type { FastifyInstance } from 'fastify';
import { basicClient } from '../auth.js';
import { badRequest } from '../errors.js';
import { send } from '../http/reply.js';
import { resource } from '../http/resource.js';
import type { SimulatorState } from '../state.js';

const TOKEN_PATH = '/sandbox/v1/token.oauth2';

/**
 * The documented OAuth 2.0 client-credentials token request. The answer is the same in both
 * layouts: its property names are the OAuth standard's, and `access_token` is documented.
 */
export function registerTokenRoute(app: FastifyInstance, state: SimulatorState): void {
  resource(
    app,
    TOKEN_PATH,
    { api: true, bearer: false, body: 'form' },
    {
      POST: (request, reply) => {
        const clientId = basicClient(state, request.headers.authorization);
        const form = (request.body ?? {}) as Record<string, unknown>;
        if (form.grant_type !== 'client_credentials')
          throw badRequest('grant_type', `expected client_credentials, got ${JSON.stringify(form.grant_type ?? null)}`);
        const scopes = ['bci', ...(state.options.screeningScope === undefined ? [] : [state.options.screeningScope])];
        if (typeof form.scope !== 'string' || !scopes.includes(form.scope))
          throw badRequest('scope', `expected ${scopes.join(' or ')}, got ${JSON.stringify(form.scope ?? null)}`);
        const { accessToken, expiresIn } = state.tokens.issue(clientId, form.scope);
        const token = state.mutant('token-without-access-token') ? {} : { access_token: accessToken };
        return send(reply, {
          status: 200,
          headers: { 'cache-control': 'no-store' },
          body: { ...token, token_type: 'Bearer', expires_in: expiresIn, scope: form.scope },
        });
      },
    },
  );
}
