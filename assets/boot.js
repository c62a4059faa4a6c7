// Before the page is first drawn (scripts/csp.mjs inlines this into index.html's head; the page's
// Content-Security-Policy allows it by its hash): tells the style sheet whether the page built at build time
// (present::page: the source's own question, in English) is what this visit will see, or only its frame
// until the app has drawn the state the link asks for; which language the reading is in; and whether the
// app can start at all. The same rules as the app's own reading of the link (present::params) and of the
// browser's languages (app::url), kept small; tests/e2e/handover.test.mjs holds the two together.
(function () {
  var root = document.documentElement;
  var classes = root.classList;
  var built = true;
  var lang = null;
  classes.add('js');
  new URLSearchParams(location.search).forEach(function (value, key) {
    var v = value.trim().toLowerCase();
    if (key === 'lang') lang = v;
    else if (key === 'embed' && (v === '1' || v === 'on' || v === 'true')) classes.add('embed');
    else if (!(key === 'embed' && (v === '0' || v === 'off' || v === 'false'))) built = false;
  });
  if (lang === null) {
    var tags = navigator.languages || [navigator.language || ''];
    for (var i = 0; i < tags.length && lang === null; i++) {
      var primary = String(tags[i]).split(/[-_]/)[0].toLowerCase();
      if (primary === 'en' || primary === 'ja') lang = primary;
    }
  }
  if (lang === 'ja') root.lang = 'ja';
  // Japanese, or a language the page does not speak (the app says so in a notice): not the page as built.
  if (lang !== null && lang !== 'en') built = false;
  try {
    if (sessionStorage.getItem('fencing-lab:skip-prediction')) built = false;
  } catch (e) {
    // No storage here (an opaque origin): nothing was skipped.
  }
  // Sandboxed without the same origin, the module cannot load: the page stays as built, and says so.
  if (window.origin === 'null') classes.add('no-app');
  else if (!built) {
    classes.add('pending');
    // The page as built states a run (the built figure's outcome, scenario and inputs, in its attributes
    // and words) that is not the one this link asks for. As the parser inserts it, keep only the frame: the
    // figure's box, empty, and the masthead and picker with nothing marked current. Mutation callbacks run
    // before any other task, so nothing else ever reads the built run's state here.
    // (The parser inserts one node at a time, each before its children.)
    var keepFrame = function (records) {
      records.forEach(function (r) {
        r.addedNodes.forEach(function (node) {
          var parent = node.parentNode;
          if (!parent || !parent.closest || !parent.closest('.prerendered')) return;
          if (parent.matches('.lab, .picker-current')) parent.removeChild(node);
          else if (node.removeAttribute) {
            ['data-outcome', 'data-double-grant', 'data-scenario', 'aria-current'].forEach(node.removeAttribute, node);
          }
        });
      });
    };
    var watch = new MutationObserver(keepFrame);
    watch.observe(root, { childList: true, subtree: true });
    // Parsed, and every record delivered (after the parser's last task): the app's own edits are its own.
    document.addEventListener('DOMContentLoaded', function () {
      watch.disconnect();
    });
  }
})();
