// Trunk post-build hook: minifies the JS glue wasm-bindgen writes (trunk leaves it as generated) and updates
// its Subresource Integrity hash in index.html, so the preload still verifies. About 1.5 kB gzip of the
// 150 kB budget. Reads TRUNK_STAGING_DIR.
import { readFile, writeFile, readdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('minify.mjs runs as a trunk post_build hook (TRUNK_STAGING_DIR unset)');
const glue = (await readdir(dir)).filter((f) => /^fencing-lab-[0-9a-f]+\.js$/.test(f));
if (glue.length !== 1) throw new Error(`expected one wasm-bindgen glue file, found ${glue.join(', ') || 'none'}`);
const path = join(dir, glue[0]);
const source = await readFile(path, 'utf8');
// Module code: top-level names may be mangled, exports and object keys (the wasm imports) are kept.
const { code } = await minify(source, { module: true, compress: { passes: 2 }, mangle: true });
await writeFile(path, code);
const sri = `sha384-${createHash('sha384').update(code).digest('base64')}`;
const index = join(dir, 'index.html');
const html = await readFile(index, 'utf8');
// The preload link names the file and carries its hash (attribute order and quotes vary once minified).
const link = new RegExp(`<link[^>]*${glue[0].replace('.', '\\.')}[^>]*>`);
const tag = html.match(link)?.[0];
if (!tag || !/integrity=/.test(tag)) throw new Error(`no preload link with integrity for ${glue[0]}`);
const updated = tag.replace(/integrity="?[^"\s>]+"?/, `integrity="${sri}"`);
await writeFile(index, html.replace(tag, updated));
