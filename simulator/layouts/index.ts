import type { Layout } from '../options.js';
import { alternateLayout } from './alternate.js';
import type { ResponseLayout } from './layout.js';
import { standardLayout } from './standard.js';
import { vendorLayout } from './vendor.js';

export const LAYOUTS: Record<Layout, ResponseLayout> = {
  standard: standardLayout,
  alternate: alternateLayout,
  vendor: vendorLayout,
};
