// The reader's own scenario both browser benches use (issue 18): three workers, two named values, the
// pause dragged. A drag or a key rewrites its text, which the page's second module reads again.
export const SCRIPT = [
  'value pause 20s, range 0s..25s', 'value b_asks 1s, range 0s..5s', 'lease 10s', 'fencing off',
  'A: acquire, pause {pause}, write, release', 'B: idle {b_asks}, acquire, work 2s, write, release',
  'C: idle 2s, acquire, write, release',
].join('\n');
