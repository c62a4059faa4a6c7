// Trunk post-build hook: makes index.html load fast under a strict Content-Security-Policy. Reads
// TRUNK_STAGING_DIR.
//
// - Trunk's inline loader <script> moves into a file of its own (trunk issue #288), wrapped so that a module
//   that cannot start marks the page (`app-failed`) and the page says what it needs.
// - The boot script (assets/boot.js) and the style sheet go inline, each allowed by its sha256 hash in the
//   policy: the page built at build time is drawn from the HTML alone, without waiting a round trip for either.
//   The style sheet's file is then left out of dist/: nothing else asks for it. The later panels' sheet
//   (style/later.css) is not linked at all: the second module's <meta> names it, and it comes with the module.
// No inline script or style is allowed but these two, by their hashes; no 'unsafe-inline'.
import { readFile, writeFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('csp.mjs runs as a trunk post_build hook (TRUNK_STAGING_DIR unset)');
const file = join(dir, 'index.html');
// Where the site is served from (`trunk build --public-url`, given to hooks as TRUNK_PUBLIC_URL; `/` by
// default): the files this hook names are under it, as trunk's own links are.
const base = process.env.TRUNK_PUBLIC_URL || '/';
let html = await readFile(file, 'utf8');
const sha256 = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

// Any <script> without src (minified or not: attribute quotes may be gone).
const inline = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;
const loaders = [];
html = html.replace(inline, (_, body) => {
  // Trunk's loader is a module script; keep it one.
  const name = `loader-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;
  // Its static import becomes a dynamic one, so that a module that cannot be fetched is caught too.
  const imported = /import init, \* as bindings from (['"][^'"]+['"]);/;
  if (!imported.test(body)) throw new Error(`trunk's loader no longer reads as expected:\n${body}`);
  const code = body.trim().replace(imported, 'const bindings = await import($1);\nconst init = bindings.default;');
  const guarded = `try {\n${code}\n} catch (e) {\n  document.documentElement.classList.add('app-failed');\n  throw e;\n}\n`;
  loaders.push([name, guarded]);
  return `<script type="module" src="${base}${name}"></script>`;
});
if (loaders.length !== 1) throw new Error(`expected trunk's one inline loader script, found ${loaders.length}`);
for (const [name, body] of loaders) await writeFile(join(dir, name), body);

const boot = (await minify(await readFile(new URL('../assets/boot.js', import.meta.url), 'utf8'))).code;
// Each sheet's file, as named under the public URL (trunk's links start with it).
const under = (href) => (href?.startsWith(base) ? href.slice(base.length) : href?.replace(/^\//, ''));
const sheets = [...html.matchAll(/<link[^>]*rel="?stylesheet"?[^>]*>/g)].map(([tag]) => [tag, under(tag.match(/href="?([^"\s>]+)/)?.[1])]);
const [sheet, href] = sheets.find(([, h]) => /^main-/.test(h ?? '')) ?? [];
if (!href) throw new Error('no link to the main style sheet in index.html');
const css = (await readFile(join(dir, href), 'utf8')).trim();
html = html.replace(sheet, `<style>${css}</style>`);
await rm(join(dir, href));
// The later panels' sheet is not the page's: its link goes, and the second module's <meta> names it (after
// the module's two files) for src/app/page.js to load with the module.
const [laterSheet, laterHref] = sheets.find(([, h]) => /^later-/.test(h ?? '')) ?? [];
const workbench = html.match(/<meta name="?fencing-lab-workbench"? content="([^"]*)">/);
if (!laterHref || !workbench) throw new Error('no link to the later panels\' style sheet, or no <meta name="fencing-lab-workbench">');
html = html.replace(laterSheet, '').replace(workbench[0], workbench[0].replace(workbench[1], `${workbench[1]} ${base}${laterHref}`));
// First in the head (right after the charset; the minifier leaves out <head> itself), so the classes it sets
// are there before anything is drawn.
const charset = html.match(/<meta charset[^>]*>/i)?.[0];
if (!charset) throw new Error('no <meta charset> in index.html');
html = html.replace(charset, `${charset}<script>${boot}</script>`);

// The policy's <meta> (the minifier may put its content before its http-equiv, and drop quotes).
const meta = html.match(/<meta[^>]*http-equiv="?Content-Security-Policy[^>]*>/i)?.[0];
const csp = meta?.match(/content="([^"]*)"/)?.[1];
if (!csp) throw new Error('no Content-Security-Policy in index.html');
const strict = csp
  .replace(/script-src 'self'/, `script-src 'self' ${sha256(boot)}`)
  .replace(/style-src 'self'/, `style-src 'self' ${sha256(css)}`);
if (strict === csp || !strict.includes(sha256(boot)) || !strict.includes(sha256(css))) {
  throw new Error(`the policy does not name script-src 'self' and style-src 'self': ${csp}`);
}
html = html.replace(meta, meta.replace(`content="${csp}"`, `content="${strict}"`));
const left = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)];
if (left.length !== 1 || left[0][1] !== boot) throw new Error('an inline script other than the boot script is left');
await writeFile(file, html);
