// Every npm script runs this first: on a Node outside package.json's engines the project's code dies on its first
// import with a stack trace, so this stops it with one line naming the running Node, the range and how to get one.
// Plain CommonJS and nothing newer than Node 6, so that an old Node still reads it.
'use strict';
/* global require, __dirname, process, console */
/* eslint-disable @typescript-eslint/no-require-imports */
const { readFileSync } = require('fs');
const { join } = require('path');

const root = join(__dirname, '..');
const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
const recommended = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
const running = process.versions.node.split('.').map(Number);

// Whether the running Node satisfies one alternative of the range, ^x.y.z (x.y.z or later of major x) or >=x.y.z.
function satisfies(alternative) {
  const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(alternative);
  if (!match) {
    console.error(`check-node: cannot read "${alternative.trim()}" in package.json's engines (only ^x.y.z, >=x.y.z)`);
    process.exit(2);
  }
  const wanted = match.slice(2).map(Number);
  const atLeast = running[0] - wanted[0] || running[1] - wanted[1] || running[2] - wanted[2];
  return atLeast >= 0 && (match[1] === '>=' || running[0] === wanted[0]);
}

if (!range.split('||').some(satisfies)) {
  console.error(
    `This project runs on Node ${range} (package.json engines), not ${process.versions.node}: ` +
      `get Node ${recommended} (.nvmrc) with \`nvm install\`, or run \`npm i --no-save node@${recommended}\` ` +
      'in a scratch folder and put its node_modules/.bin first on PATH.',
  );
  process.exit(1);
}
