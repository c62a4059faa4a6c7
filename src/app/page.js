// The page's own JavaScript, for what is cheaper done here than across the boundary.

// Loads a module of the page's own origin and starts its WebAssembly, with the style sheet of what it draws:
// the later panels (app/later.rs; `files` names the three, space-separated). The promise gives the module's
// exports once the sheet applies too, or fails if any of the three could not be fetched or started.
export async function load(files) {
  const [js, wasm, css] = files.split(' ');
  const sheet = new Promise((loaded, failed) => {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: css });
    link.onload = loaded;
    link.onerror = () => failed(new Error(`${css} could not be loaded`));
    document.head.append(link);
  });
  // The names are the document's (a site under a path names them under it), not this file's: import()
  // alone would resolve them against this script's address.
  const started = import(new URL(js, document.baseURI)).then(async (module) => {
    await module.default({ module_or_path: wasm });
    return module;
  });
  // Both awaited at once: whichever fails first fails the load, and the other's failure is not left unheard.
  const [, module] = await Promise.all([sheet, started]);
  return module;
}

// The effects that fill in the figure run on every step of a drag and every key typed in a script, and
// most of what they write is unchanged: these compare and write in one call from the wasm, where reading
// the value back first would be three calls and a string copied out (app/mod.rs: say, set).

/** Sets the text of the element under `root` that `selector` finds, unless it already says that; whether it changed. */
export function sayText(root, selector, text) {
  const el = root.querySelector(selector);
  if (!el || el.textContent === text) return false;
  el.textContent = text;
  return true;
}

/** Sets attribute `name` of `el` to `value`, unless it already is that. (Not named `set`: trunk's JS
 * minifier stops at a function of that name.) */
export function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/**
 * The changes that turn a figure part's markup `old` into `markup`, as [element, attribute, value]: the
 * element's index among the part's elements in document order (as `querySelectorAll('*')` lists them), the
 * attribute's name ('' for the element's text). Or null when more changed than values (an element or an
 * attribute came or went) or a changed value is escaped (`&amp;`, …), which would have to be unescaped.
 *
 * Reads only the markup the figure writes (present/figure.rs): values double-quoted, texts escaped, nothing
 * between elements. Both are cut at their quotes: the odd pieces are attribute values, the even ones tags
 * and texts.
 */
export function changes(old, markup) {
  const a = old.split('"'), b = markup.split('"');
  if (a.length !== b.length) return null;
  // The start tags in `s` (a loop: this runs for every piece of every step of a drag).
  const starts = (s) => {
    let n = 0;
    for (let at = s.indexOf('<'); at >= 0; at = s.indexOf('<', at + 1)) if (s[at + 1] !== '/') n++;
    return n;
  };
  const out = [];
  // The elements begun so far, and the attribute the next value is of.
  let els = 0, attr = '';
  for (let i = 0; i < b.length; i++) {
    const x = a[i], y = b[i];
    if (i % 2) {
      if (x !== y) {
        if (y.includes('&')) return null;
        out.push([els - 1, attr, y]);
      }
      continue;
    }
    if (x !== y) {
      // Only the text that is an element's whole content may differ: `…<text …>33</text>…`. It runs from
      // the end of the tag before it (in this piece: a text follows a tag's `>`) to the next tag.
      let same = 0;
      while (x[same] === y[same]) same++;
      const from = y.lastIndexOf('>', same - 1) + 1;
      const xTo = x.indexOf('<', from), yTo = y.indexOf('<', from);
      // The tag before is a start tag: neither `</…>` nor `<…/>` (one begun in an earlier piece had attributes).
      const tag = y.lastIndexOf('<', from - 1);
      const opened = from > 0 && from <= same && y[from - 2] !== '/' && y[tag + 1] !== '/';
      const text = y.slice(from, yTo);
      if (!opened || xTo < 0 || yTo < 0 || !y.startsWith('</', yTo) || x.slice(xTo) !== y.slice(yTo) || text.includes('&')) {
        return null;
      }
      out.push([els + starts(y.slice(0, from)) - 1, '', text]);
    }
    els += starts(y);
    attr = y.endsWith('=') ? y.slice(y.lastIndexOf(' ') + 1, -1) : '';
  }
  return out;
}

/** Brings the figure's part `root` from markup `old` to `markup`: sets the values that changed if only values
 * did (a drag step mostly moves and stretches what is there), else sets the markup afresh. */
export function drawPart(root, old, markup) {
  const ops = changes(old, markup);
  const els = ops && root.querySelectorAll('*');
  if (!ops || ops.some(([i]) => !els[i])) {
    root.innerHTML = markup;
    return;
  }
  for (const [i, name, value] of ops) {
    if (name) els[i].setAttribute(name, value);
    else els[i].textContent = value;
  }
}
