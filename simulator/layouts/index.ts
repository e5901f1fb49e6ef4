import type { Layout } from '../options.js';
import { alternateLayout } from './alternate.js';
import type { ResponseLayout } from './layout.js';
import { standardLayout } from './standard.js';

export const LAYOUTS: Record<Layout, ResponseLayout> = { standard: standardLayout, alternate: alternateLayout };
