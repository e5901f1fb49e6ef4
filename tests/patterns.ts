// Expected texts too long for one line: regular expressions in parts, or the parts a text contains.
import { expect } from 'vitest';

/** The parts matched one after the other, as one regular expression: `/a/` and `/b /` make `/ab /`. */
export function joinedPattern(...parts: RegExp[]): RegExp {
  return new RegExp(parts.map((part) => part.source).join(''), parts.at(-1)?.flags);
}

/** Asserts that `text` contains every one of `parts`, one assertion each. */
export function expectToContainEach(text: string, parts: string[]): void {
  for (const part of parts) expect(text).toContain(part);
}
