// Trunk post-build hook: minifies the JS glue wasm-bindgen writes (trunk leaves it as generated) and updates
// its Subresource Integrity hash in index.html, so the preload still verifies. Reads TRUNK_STAGING_DIR.
//
// It also shortens the names the wasm imports from the glue, and the closure shims it exports to it:
// wasm-bindgen names them `__wbg_<name>_<16 hex digits>` and `wasm_bindgen__convert__closures_____invoke__h<16
// hex digits>`, and those hashes, written twice (wasm, glue), do not compress. The import and export sections
// are rewritten with short names, the glue renamed to match, and the wasm's integrity hash updated.
// (What both save, on a621bb3: a build without this hook in Trunk.toml stops at csp.mjs, which needs the
// workbench's <meta> written here; `node scripts/budget.mjs dist/.stage` then counts its glue 8,117 B and
// its wasm 139,528 B gzip -9, against 4,072 B and 136,056 B in dist/ built with it.)
//
// The later panels' module (`workbench.js`, `workbench_bg.wasm`: trunk names a module it does not load by
// its binary, without a hash) gets the same treatment, then names of its own content, which it writes into
// `<meta name="fencing-lab-workbench">` for the page to find them (src/app/later.rs): a new build is never
// served from an old cache.
import { readFile, writeFile, readdir, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('minify.mjs runs as a trunk post_build hook (TRUNK_STAGING_DIR unset)');
const listing = await readdir(dir);
const glue = listing.filter((f) => /^fencing-lab-[0-9a-f]+\.js$/.test(f));
if (glue.length !== 1) throw new Error(`expected one wasm-bindgen glue file, found ${glue.join(', ') || 'none'}`);
for (const file of [glue[0], 'workbench.js']) {
  if (!listing.includes(file.replace(/\.js$/, '_bg.wasm'))) throw new Error(`no wasm beside ${file}`);
}
const index = join(dir, 'index.html');
// Where the site is served from (`trunk build --public-url`, TRUNK_PUBLIC_URL; `/` by default): the
// module's files are named under it in the <meta>, as trunk names its own.
const base = process.env.TRUNK_PUBLIC_URL || '/';
let html = await readFile(index, 'utf8');

const page = await shrink(glue[0]);
for (const [file, bytes] of [[glue[0], page.code], [page.module, page.wasm]]) rehash(file, bytes);
await writeFile(join(dir, glue[0]), page.code);
await writeFile(join(dir, page.module), page.wasm);

const later = await shrink('workbench.js');
const hash = createHash('sha256').update(later.code).update(later.wasm).digest('hex').slice(0, 16);
const [js, wasm] = [`workbench-${hash}.js`, `workbench-${hash}_bg.wasm`];
await writeFile(join(dir, js), later.code);
await writeFile(join(dir, wasm), later.wasm);
await rm(join(dir, 'workbench.js'));
await rm(join(dir, 'workbench_bg.wasm'));
const meta = /<meta name="?fencing-lab-workbench"?[^>]*>/;
if (!meta.test(html)) throw new Error('no <meta name="fencing-lab-workbench"> in index.html');
html = html.replace(meta, `<meta name="fencing-lab-workbench" content="${base}${js} ${base}${wasm}">`);
await writeFile(index, html);

// wasm-bindgen's snippets that no glue imports any more (a file since removed from the source) stay in its
// output directory, and trunk preloads them; they are not the page's, and are neither shipped nor asked for.
for (const snippet of await files(join(dir, 'snippets'))) {
  const path = `snippets/${snippet}`;
  if (page.code.includes(path) || later.code.includes(path)) {
    // Kept: minified like the glue (its comments are for the source).
    const { code } = await minify(await readFile(join(dir, path), 'utf8'), { module: true, compress: { passes: 2 }, mangle: true });
    await writeFile(join(dir, path), code);
    rehash(path, code);
    continue;
  }
  await rm(join(dir, path));
  html = html.replace(new RegExp(`<link[^>]*/${path.replace(/[.]/g, '\\.')}[^>]*>`, 'g'), '');
}
await writeFile(index, html);

/** The preload link of `file` (a path in the output) carries the hash of its new `bytes` (attribute order and
 * quotes vary once minified). */
function rehash(file, bytes) {
  const link = new RegExp(`<link[^>]*${file.replace(/[.]/g, '\\.')}[^>]*>`);
  const tag = html.match(link)?.[0];
  const algorithm = tag?.match(/integrity="?(sha\d+)-/)?.[1];
  if (!algorithm) throw new Error(`no preload link with integrity for ${file}`);
  const sri = `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;
  html = html.replace(tag, tag.replace(/integrity="?[^"\s>]+"?/, `integrity="${sri}"`));
}

/** Every file under `at`, as paths relative to it. */
async function files(at) {
  const out = [];
  for (const e of await readdir(at, { withFileTypes: true }).catch(() => [])) {
    if (e.isDirectory()) out.push(...(await files(join(at, e.name))).map((f) => `${e.name}/${f}`));
    else out.push(e.name);
  }
  return out;
}

/** The glue `file` minified, and its wasm with short names: `{ code, module, wasm }`. */
async function shrink(file) {
  const module = file.replace(/\.js$/, '_bg.wasm');
  const source = await readFile(join(dir, file), 'utf8');
  // Module code: top-level names may be mangled, exports and object keys (the wasm imports) are kept.
  const { code: minified } = await minify(source, { module: true, compress: { passes: 2 }, mangle: true });
  const renames = new Map();
  const wasm = shortenNames(await readFile(join(dir, module)), renames);
  // Every renamed import is an object key in the glue, every renamed export a property of its `wasm`; no
  // other name of the glue is renamed.
  const code = minified.replace(/\b(?:__wb(?:g|indgen)_|wasm_bindgen__convert__closures_)\w+/g, (name) => renames.get(name) ?? name);
  for (const [long, short] of renames) {
    if (!new RegExp(`[{,.]${short}\\b`).test(code)) throw new Error(`${long} is not named in the glue of ${file}`);
  }
  return { code, module, wasm };
}

/// The module with its `__wbg_…`/`__wbindgen_…` import names and `wasm_bindgen__convert__closures_…` export
/// names replaced by short ones, recorded in `renames`.
function shortenNames(bytes, renames) {
  const leb = (at) => {
    let value = 0, shift = 0, byte;
    do { byte = bytes[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
    return [value, at];
  };
  const uleb = (n) => {
    const out = [];
    do { let b = n & 0x7f; n = Math.floor(n / 128); if (n) b |= 0x80; out.push(b); } while (n);
    return out;
  };
  const short = (i) => {
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let s = '';
    do { s = letters[i % 52] + s; i = Math.floor(i / 52) - 1; } while (i >= 0);
    return `_${s}`;
  };
  const utf8 = new TextDecoder();
  // Reads a name at `p`, appends it (renamed if `pattern` matches) to `out`, returns where it ends.
  const name = (p, out, pattern) => {
    let len;
    [len, p] = leb(p);
    let text = utf8.decode(bytes.subarray(p, p + len));
    if (pattern.test(text)) {
      if (!renames.has(text)) renames.set(text, short(renames.size));
      text = renames.get(text);
    }
    const encoded = new TextEncoder().encode(text);
    out.push(...uleb(encoded.length), ...encoded);
    return p + len;
  };
  const parts = [bytes.subarray(0, 8)];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = leb(at + 1);
    const end = body + size;
    if (id !== 2 && id !== 7) {
      parts.push(bytes.subarray(at, end));
      at = end;
      continue;
    }
    let [count, p] = leb(body);
    const out = uleb(count);
    for (let i = 0; i < count; i++) {
      const start = p;
      if (id === 2) {
        // An import: its module, its name, then a kind and a function type index, a table, a memory or a
        // global type.
        const [len, nameAt] = leb(p);
        p = nameAt + len;
        out.push(...bytes.subarray(start, p));
        p = name(p, out, /^__wb(g|indgen)_/);
        const kind = bytes[p];
        const desc = p++;
        if (kind === 0) [, p] = leb(p);
        else if (kind === 1 || kind === 2) {
          if (kind === 1) p++;
          const flags = bytes[p++];
          [, p] = leb(p);
          if (flags & 1) [, p] = leb(p);
        } else if (kind === 3) p += 2;
        else throw new Error(`import kind ${kind} unknown`);
        out.push(...bytes.subarray(desc, p));
      } else {
        // An export: its name, a kind and an index.
        p = name(p, out, /^wasm_bindgen__convert__closures_/);
        const desc = p++;
        [, p] = leb(p);
        out.push(...bytes.subarray(desc, p));
      }
    }
    if (p !== end) throw new Error(`section ${id} not read to its end`);
    parts.push(Buffer.from([id, ...uleb(out.length), ...out]));
    at = end;
  }
  return Buffer.concat(parts);
}
