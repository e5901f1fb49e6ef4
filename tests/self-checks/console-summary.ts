// Reading what `npm run contract` prints at its end: the failure summary by category.

/** A category's count in the console summary of a run (`  Target unavailable  1`). */
export function categoryCount(output: string, category: string): number | undefined {
  const match = new RegExp(`^\\s*${category}\\s+(\\d+)\\s*$`, 'm').exec(output);
  return match ? Number(match[1]) : undefined;
}
