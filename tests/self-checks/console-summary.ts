// Reading what `npm run contract` prints at its end: the failure summary by category.

/**
 * A category's count in the console summary of a run (`  Target unavailable  1`): 0 for a category
 * the summary does not list (it lists only those that hold failures), undefined without a summary.
 */
export function categoryCount(output: string, category: string): number | undefined {
  if (!/^Contract run: /m.test(output)) return undefined;
  const match = new RegExp(`^\\s*${category}\\s+(\\d+)\\s*$`, 'm').exec(output);
  return match ? Number(match[1]) : 0;
}
