// The first-load budget as a check: exits 1 when what the page fetches before its first interaction
// (scripts/bundle.mjs) is over 160,000 bytes of gzip -9, and prints the figure either way; the later
// loads are printed apart. Usage: node scripts/budget.mjs [DIST] (default dist).
import { bundle, FIRST_LOAD_BUDGET, kB } from './bundle.mjs';

const dist = process.argv[2] ?? 'dist';
let b;
try {
  b = await bundle(dist);
} catch (e) {
  console.error(`budget: cannot read the built site in ${dist}: ${e.message}`);
  process.exit(2);
}
if (!b.files.some((f) => f.name.endsWith('.wasm') && !f.later)) {
  console.error(`budget: no first-load .wasm in ${dist}: is it a release build?`);
  process.exit(2);
}
const over = b.first - FIRST_LOAD_BUDGET;
console.log(`first load: ${b.first} B = ${kB(b.first)} gzip -9 (budget ${FIRST_LOAD_BUDGET} B)`);
console.log(`loaded later, when asked: ${b.later} B = ${kB(b.later)} gzip -9 (no budget; printed apart)`);
if (over > 0) {
  console.error(`budget: the first load is ${over} B over its budget`);
  for (const f of b.files.filter((f) => !f.later)) console.error(`  ${f.name.padEnd(56)} ${String(f.gzip).padStart(8)} B`);
  process.exit(1);
}
console.log(`within budget by ${-over} B`);
