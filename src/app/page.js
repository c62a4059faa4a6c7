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

/** Sets the text of the element under `root` that `selector` finds, unless it already says that. */
export function sayText(root, selector, text) {
  const el = root.querySelector(selector);
  if (el && el.textContent !== text) el.textContent = text;
}

/** Sets attribute `name` of `el` to `value`, unless it already is that. (Not named `set`: trunk's JS
 * minifier stops at a function of that name.) */
export function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Sets the values of the figure's part `root` that a drag's step changed: `changes` lists them as the wasm
 * computed them (present/svg.rs), index, name and value one after another, separated by U+001F; the index
 * is the element's among the part's elements in document order, the name '' sets its text. False, and
 * nothing set, if the part has not those elements. */
export function setValues(root, changes) {
  const els = root.querySelectorAll('*'), v = changes.split('\x1f');
  for (let i = 0; i < v.length; i += 3) if (!els[+v[i]]) return false;
  for (let i = 0; i < v.length; i += 3) {
    const el = els[+v[i]];
    if (v[i + 1]) el.setAttribute(v[i + 1], v[i + 2]);
    else el.textContent = v[i + 2];
  }
  return true;
}
