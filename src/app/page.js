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
  const started = import(js).then(async (module) => {
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

/** Applies a figure part's changes (present/patch.rs, `patch`): each op is the element's index among
 * `root`'s elements, an attribute's name (none for the element's text) and the value, separated by U+0001
 * and ended by U+0002. Whether every op found its element: if not, the caller draws the part afresh. */
export function patchPart(root, ops) {
  const els = root.querySelectorAll('*');
  for (const op of ops.split('\u0002')) {
    if (!op) continue;
    const [i, name, value] = op.split('\u0001');
    const el = els[+i];
    if (!el) return false;
    if (name) el.setAttribute(name, value);
    else el.textContent = value;
  }
  return true;
}
