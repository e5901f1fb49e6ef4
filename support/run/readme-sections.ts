// Owns how a command writes its part of README.md: the lines between the part's two markers, the rest kept as it is
// (the coverage map of `npm run docs:map`, the bench table of `npm run bench`).

/** A generated part of the README: its markers, and what it is called in the error when they are missing. */
export interface ReadmeSection {
  name: string;
  begin: string;
  end: string;
}

/** `readme` with `lines` between the markers of `section`, the markers included. */
export function withSection(readme: string, section: ReadmeSection, lines: string[]): string {
  const start = readme.indexOf(section.begin);
  const end = readme.indexOf(section.end);
  if (start < 0 || end < 0)
    throw new Error(`README.md has no ${section.name} markers (${section.begin} … ${section.end}).`);
  return (
    readme.slice(0, start) + [section.begin, ...lines, section.end].join('\n') + readme.slice(end + section.end.length)
  );
}
