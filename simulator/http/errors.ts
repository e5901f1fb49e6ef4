// Owns how the simulator answers what it refuses: every error and unknown route in the layout's
// error shape, and the bad-input mutants that answer otherwise.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { operationOf } from '../permissions.js';
import type { Reply, ResponseLayout } from '../layouts/layout.js';
import type { SimulatorState } from '../state.js';
import { send } from './reply.js';

/** Fastify's own rejections (body parsing, limits) rewritten as errors that name what to fix. */
function fromFastify(error: FastifyError, layout: ResponseLayout): HttpError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, 'payload_too_large', 'body: larger than the size limit', 'body');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(400, 'malformed_json', `body: ${error.message}`, 'body');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(
        layout.unsupportedMediaTypeStatus,
        'unsupported_media_type',
        `Content-Type: ${error.message}`,
        'Content-Type',
      );
    default:
      return (error.statusCode ?? 500) < 500
        ? new HttpError(error.statusCode ?? 400, 'invalid_request', `body: ${error.message}`, 'body')
        : new HttpError(500, 'internal_error', error.message);
  }
}

const BAD_BODIES = new Set(['malformed_json', 'wrong_json_type', 'unsupported_media_type']);

/**
 * How a bad-input mutant answers instead of HTTP's verdict on the body: a server error, acceptance
 * without effect, or (conformance-403, on operation 8) a refusal for want of permission.
 */
function mutantAnswer(
  state: SimulatorState,
  error: HttpError,
  request: FastifyRequest,
  layout: ResponseLayout,
): Reply | undefined {
  const operation = operationOf(request.method, request.routeOptions.url ?? '');
  if (BAD_BODIES.has(error.code) && operation === 'op8' && state.mutant('conformance-403')) {
    return layout.error(new HttpError(403, 'forbidden', `client ${request.clientId} may not call this operation`));
  }
  if (error.code === 'malformed_json' && state.mutant('malformed-json-500')) {
    return { status: 500, body: { error: { code: 'internal_error', message: 'Unexpected end of JSON input' } } };
  }
  const accepted =
    (error.code === 'malformed_json' && state.mutant('malformed-json-accepted')) ||
    (error.code === 'wrong_json_type' && state.mutant('wrong-type-accepted')) ||
    (error.code === 'unsupported_media_type' && state.mutant('media-type-ignored'));
  return accepted ? { status: 200, body: { accepted: true } } : undefined;
}

/** Every error and every unknown route answers a JSON body in the layout's error shape, never an empty 200. */
export function installErrorHandling(app: FastifyInstance, layout: ResponseLayout, state: SimulatorState): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const refusal = error instanceof HttpError ? error : fromFastify(error, layout);
    return send(reply, mutantAnswer(state, refusal, request, layout) ?? layout.error(refusal));
  });
  app.setNotFoundHandler((request, reply) =>
    send(
      reply,
      layout.error(new HttpError(404, 'no_route', `no operation ${request.method} ${request.url.split('?')[0]}`)),
    ),
  );
}
