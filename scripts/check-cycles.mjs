// Fails when the sources import one another in a circle, type-only imports included: a cycle is
// a sign of something in the wrong place (ARCHITECTURE: types live in leaf modules).
import madge from 'madge';

/**
 * Cycles known and being removed, each with the work that removes it. Delete the entry when that
 * work lands; the check then holds the line.
 */
const allowed = new Set([]);

const result = await madge(['src', 'web/src'], { fileExtensions: ['ts', 'tsx'] });
const found = result.circular().map((cycle) => cycle.join(' > '));
const unexpected = found.filter((cycle) => !allowed.has(cycle));
const gone = [...allowed].filter((cycle) => !found.includes(cycle));
for (const cycle of unexpected) console.error(`import cycle: ${cycle}`);
for (const cycle of gone)
  console.error(`no longer a cycle, remove it from the allowance in scripts/check-cycles.mjs: ${cycle}`);
if (unexpected.length > 0 || gone.length > 0) process.exit(1);
const beyond = allowed.size === 0 ? '' : ` beyond the ${allowed.size} allowed`;
console.log(`no import cycles${beyond} in ${Object.keys(result.obj()).length} files`);
