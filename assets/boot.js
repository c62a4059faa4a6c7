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
    var keepFrame = function (records) {
      for (var r = 0; r < records.length; r++) {
        var added = records[r].addedNodes;
        for (var n = 0; n < added.length; n++) {
          var node = added[n];
          if (node.nodeType !== 1 || !node.closest('.prerendered')) continue;
          var parent = node.parentNode;
          if (parent && parent.matches && parent.matches('.prerendered figure.lab')) {
            parent.removeChild(node);
            continue;
          }
          var stated = 'figure.lab, [aria-current], .picker-current';
          var strip = node.matches(stated) ? [node] : [];
          strip.push.apply(strip, node.querySelectorAll(stated));
          for (var s = 0; s < strip.length; s++) {
            var el = strip[s];
            if (el.matches('.picker-current')) el.textContent = '';
            ['data-outcome', 'data-double-grant', 'data-scenario', 'aria-current'].forEach(function (a) {
              el.removeAttribute(a);
            });
          }
        }
      }
    };
    var watch = new MutationObserver(keepFrame);
    watch.observe(root, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', function () {
      keepFrame(watch.takeRecords());
      watch.disconnect();
    });
  }
})();
