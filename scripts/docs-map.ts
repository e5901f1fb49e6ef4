// npm run docs:map: writes the coverage map (documented rule → spec → what it asserts) into README.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { README, readmeWithMap } from '../support/run/coverage-map.js';

writeFileSync(README, readmeWithMap(readFileSync(README, 'utf8')));
console.log('docs:map: README.md coverage map updated');
