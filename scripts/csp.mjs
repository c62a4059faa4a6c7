// Trunk post-build hook: moves trunk's inline loader <script> into a file of its own, so the page runs under
// a Content-Security-Policy with no inline script at all (trunk issue #288). Reads TRUNK_STAGING_DIR.
import { readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('csp.mjs runs as a trunk post_build hook (TRUNK_STAGING_DIR unset)');
const file = join(dir, 'index.html');
let html = await readFile(file, 'utf8');
// Any <script> without src (minified or not: attribute quotes may be gone).
const inline = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;
const loaders = [];
html = html.replace(inline, (_, body) => {
  // Trunk's loader is a module script; keep it one.
  const name = `loader-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;
  loaders.push([name, body.trim() + '\n']);
  return `<script type="module" src="/${name}"></script>`;
});
const count = loaders.length;
for (const [name, body] of loaders) await writeFile(join(dir, name), body);
if (count !== 1) throw new Error(`expected trunk's one inline loader script, found ${count}`);
if (/<script(?![^>]*\ssrc=)[^>]*>/.test(html)) throw new Error('an inline script is left in index.html');
await writeFile(file, html);
