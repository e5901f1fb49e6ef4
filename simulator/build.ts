import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { seedBackground } from './background.js';
import { installErrorHandling } from './http/errors.js';
import { installHooks } from './http/hooks.js';
import { LAYOUTS } from './layouts/index.js';
import { storingAsSent } from './layouts/as-sent.js';
import { keyedByPersonGedi } from './layouts/entry-keys.js';
import { honestShapes } from './layouts/honest-shapes.js';
import type { ResponseLayout } from './layouts/layout.js';
import { withoutGedi } from './layouts/without-gedi.js';
import { resolveOptions, type ResolvedSimulatorOptions, type SimulatorOptions } from './options.js';
import { registerConsumerRoutes } from './routes/consumers.js';
import { registerControlRoutes } from './routes/control.js';
import { registerPersonRoutes } from './routes/persons.js';
import { registerScreeningRoutes } from './routes/screening.js';
import { registerTokenRoute } from './routes/token.js';
import { SimulatorState } from './state.js';

export interface Simulator {
  app: FastifyInstance;
  options: ResolvedSimulatorOptions;
  state: SimulatorState;
}

/**
 * The resolved layout with the settings that reshape its answers: the honest options innermost, records without gedi
 * the outermost.
 */
function shapedBy(options: ResolvedSimulatorOptions, isGedi: (value: string) => boolean): ResponseLayout {
  let layout = honestShapes(LAYOUTS[options.layout], options);
  if (options.storeAsSent !== undefined) layout = storingAsSent(layout, options.storeAsSent);
  if (options.entryKeys === 'personGedi') layout = keyedByPersonGedi(layout);
  return options.recordsWithoutGedi ? withoutGedi(layout, isGedi) : layout;
}

/** The simulator as a fastify instance that does not listen yet (fastify's build/listen split). */
export function buildSimulator(options: SimulatorOptions = {}): Simulator {
  const resolved = resolveOptions(options);
  const state = new SimulatorState(resolved, seedBackground);
  const isGedi = (value: string): boolean => state.persons.byGedi(value) !== undefined;
  const layout = shapedBy(resolved, isGedi);
  const settings = { bodyLimit: resolved.bodyLimitBytes, logger: false };
  // An https instance is typed apart from an http one, while every route and hook here is the same.
  const app = (resolved.tls
    ? Fastify({ ...settings, https: resolved.tls })
    : Fastify(settings)) as unknown as FastifyInstance;
  app.register(formbody);
  installHooks(app, state, layout);
  installErrorHandling(app, layout, state);
  registerTokenRoute(app, state);
  registerPersonRoutes(app, state, layout);
  registerConsumerRoutes(app, state, layout);
  registerScreeningRoutes(app, state, layout);
  if (resolved.control) registerControlRoutes(app, state);
  return { app, options: resolved, state };
}
