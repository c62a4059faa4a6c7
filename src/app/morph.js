// Brings an element's children in line with new markup, changing only what differs: an attribute that
// moved, a text that changed, a node added or dropped at the end. A drag redraws the timeline every frame,
// and rewriting its markup whole made the browser restyle, lay out and paint every node again (two to three
// frames late on a slow phone); in place, only what moved is touched. Positional, not keyed: the figure's
// markup keeps its order (axis, then each lane's parts in time order), so a small change of the run is a
// small change here. Plain DOM, in JS: one call from the wasm instead of one per node and attribute.

const parser = document.createElement('template');

/** The nodes of `html` parsed as the children of an SVG element (`svg`) or of an HTML one. */
function parse(html, svg) {
  parser.innerHTML = svg ? `<svg>${html}</svg>` : html;
  return svg ? parser.content.firstChild : parser.content;
}

function attributes(live, next) {
  for (const a of next.attributes) {
    if (live.getAttribute(a.name) !== a.value) live.setAttribute(a.name, a.value);
  }
  for (let i = live.attributes.length - 1; i >= 0; i--) {
    const name = live.attributes[i].name;
    if (!next.hasAttribute(name)) live.removeAttribute(name);
  }
}

function children(live, next) {
  let l = live.firstChild;
  let n = next.firstChild;
  while (n) {
    const after = n.nextSibling;
    if (!l) {
      live.appendChild(n);
    } else if (l.nodeType === n.nodeType && l.nodeName === n.nodeName) {
      if (l.nodeType !== Node.ELEMENT_NODE) {
        if (l.nodeValue !== n.nodeValue) l.nodeValue = n.nodeValue;
      } else if (!l.isEqualNode(n)) {
        // (A subtree that did not change, most of them in a drag, is compared natively and left alone.)
        attributes(l, n);
        children(l, n);
      }
      l = l.nextSibling;
    } else {
      const stale = l;
      l = l.nextSibling;
      live.replaceChild(n, stale);
    }
    n = after;
  }
  while (l) {
    const stale = l;
    l = l.nextSibling;
    live.removeChild(stale);
  }
}

/** Makes `el`'s children those of `html` (SVG children if `svg`), touching only what differs. */
export function morph(el, html, svg) {
  children(el, parse(html, svg));
  parser.innerHTML = '';
}
