import type { FastifyReply } from 'fastify';
import type { Reply } from '../layouts/layout.js';

/** Sends a rendered answer; bodies are serialised here so problem+json and JSON go out alike. */
export function send(reply: FastifyReply, answer: Reply): FastifyReply {
  reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  if (answer.body === undefined) return reply.send();
  if (!reply.hasHeader('content-type')) reply.header('content-type', 'application/json; charset=utf-8');
  return reply.send(JSON.stringify(answer.body));
}
