// Owns making faker instances, each from one market's locale entry: the package's main entry loads
// every locale faker has (about a tenth of a second per contract worker); these load four.
import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { faker as base } from '@faker-js/faker/locale/base';
import { faker as danish } from '@faker-js/faker/locale/da';
import { faker as finnish } from '@faker-js/faker/locale/fi';
import { faker as norwegian } from '@faker-js/faker/locale/nb_NO';
import { faker as swedish } from '@faker-js/faker/locale/sv';
import type { Market } from '../run/config.js';

// Each entry exports a ready instance whose definitions fall back to English and base, as
// `new Faker({ locale: [sv, en, base] })` would; its class makes independent, separately seeded ones.
const TEMPLATES: Readonly<Record<Market | 'base', Faker>> = {
  SE: swedish,
  NO: norwegian,
  DK: danish,
  FI: finnish,
  base,
};

/** A new faker of the market's language (or only faker's base data), seeded with `seed`. */
export function newFaker(market: Market | 'base', seed: number): Faker {
  const template = TEMPLATES[market];
  const FakerClass = template.constructor as new (options: { locale: LocaleDefinition }) => Faker;
  const faker = new FakerClass({ locale: template.rawDefinitions });
  faker.seed(seed);
  return faker;
}
