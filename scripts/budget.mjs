// The budgets as a check: exits 1 when what the page fetches before its first interaction (scripts/bundle.mjs)
// is over 160,000 bytes of gzip -9, or what it fetches later, when asked, is over its own 400,000, and prints
// both figures either way. Usage: node scripts/budget.mjs [DIST] (default dist).
import { bundle, FIRST_LOAD_BUDGET, LATER_BUDGET, kB } from './bundle.mjs';

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
const laterOver = b.later - LATER_BUDGET;
console.log(`first load: ${b.first} B = ${kB(b.first)} gzip -9 (budget ${FIRST_LOAD_BUDGET} B)`);
console.log(`loaded later, when asked: ${b.later} B = ${kB(b.later)} gzip -9 (its own budget ${LATER_BUDGET} B)`);
if (over > 0) {
  console.error(`budget: the first load is ${over} B over its budget`);
  for (const f of b.files.filter((f) => !f.later)) console.error(`  ${f.name.padEnd(56)} ${String(f.gzip).padStart(8)} B`);
}
if (laterOver > 0) {
  console.error(`budget: the later loads are ${laterOver} B over their budget`);
  for (const f of b.files.filter((f) => f.later)) console.error(`  ${f.name.padEnd(56)} ${String(f.gzip).padStart(8)} B`);
}
if (over > 0 || laterOver > 0) process.exit(1);
console.log(`within budget by ${-over} B; the later loads within theirs by ${-laterOver} B`);
