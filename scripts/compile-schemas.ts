// npm run schemas:compile: writes support/readings/validators.generated.ts from schemas/*.schema.json.
import { writeFileSync } from 'node:fs';
import { GENERATED_VALIDATORS, generatedValidatorsSource } from '../support/readings/schema-compiler.js';

writeFileSync(GENERATED_VALIDATORS, generatedValidatorsSource());
console.log(`schemas:compile: ${GENERATED_VALIDATORS} written`);
