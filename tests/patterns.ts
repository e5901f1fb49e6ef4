// Expected messages too long for one line, written as regular expressions in parts.

/** The parts matched one after the other, as one regular expression: `/a/` and `/b /` make `/ab /`. */
export function joinedPattern(...parts: RegExp[]): RegExp {
  return new RegExp(parts.map((part) => part.source).join(''), parts.at(-1)?.flags);
}
