import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from '../errors.js';
import type { ResponseLayout } from '../layouts/layout.js';
import { send } from './reply.js';

/** Fastify's own rejections (body parsing, limits) rewritten as errors that name what to fix. */
function fromFastify(error: FastifyError, layout: ResponseLayout): HttpError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, 'payload_too_large', 'body: larger than the size limit', 'body');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(layout.unsupportedMediaTypeStatus, 'unsupported_media_type', `Content-Type: ${error.message}`, 'Content-Type');
    default:
      return (error.statusCode ?? 500) < 500
        ? new HttpError(error.statusCode ?? 400, 'invalid_request', `body: ${error.message}`, 'body')
        : new HttpError(500, 'internal_error', error.message);
  }
}

/** Every error and every unknown route answers a JSON body in the layout's error shape, never an empty 200. */
export function installErrorHandling(app: FastifyInstance, layout: ResponseLayout): void {
  app.setErrorHandler((error: FastifyError | HttpError, _request, reply) =>
    send(reply, layout.error(error instanceof HttpError ? error : fromFastify(error, layout))),
  );
  app.setNotFoundHandler((request, reply) =>
    send(reply, layout.error(new HttpError(404, 'no_route', `no operation ${request.method} ${request.url.split('?')[0]}`))),
  );
}
