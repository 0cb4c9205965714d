/*
 * Loader of a prerendered page (scripts/prerender/ puts it in place of the app's module script): the page
 * paints from its HTML alone, then the app module (data-app) is fetched after the `load` event and the first paint,
 * or at once on the visitor's first interaction, so that nothing competes with the first paint. With it, every chunk
 * the page needs as the app starts (data-precarga, written by scripts/prerender/ from Vite's manifest) is preloaded
 * at once, instead of each import level being discovered after the one before has arrived.
 * A tap on a button or on a link of the site before the app has hydrated is kept and replayed once the app says it is
 * ready (window event "cotizador:listo", src/app/router.tsx › APP_READY_EVENT), so no tap is lost while the app loads;
 * on a button, the chunks of the step it leads to (data-al-tocar: the form engine, that step's schemas) are preloaded
 * at once, so the next question renders as soon as the app is ready instead of waiting for them then.
 * A link is kept rather than followed because the starting app writes the browser's history (the bare root becomes the
 * entry step's address), and a history write cancels a page load still under way: the visitor's tap would be undone.
 * Links that open elsewhere (another site, a new tab, a download, a modifier key) are left to the browser.
 */
(function () {
  var me = document.currentScript;
  var src = me && me.getAttribute('data-app');
  if (!src) return;
  var loaded = false;
  var ready = false;
  var pending = null;
  function preload(list) {
    (me.getAttribute(list) || '').split(' ').forEach(function (href) {
      if (!href) return;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
  }
  function load() {
    if (loaded) return;
    loaded = true;
    preload('data-precarga');
    var s = document.createElement('script');
    s.type = 'module';
    s.crossOrigin = '';
    s.src = src;
    document.head.appendChild(s);
  }
  // after `load` and the first contentful paint (its entry comes once the frame is on screen); 1 s after `load` at most
  var painted = false;
  var loadedPage = document.readyState === 'complete';
  function maybe() {
    if (painted && loadedPage) setTimeout(load, 0);
  }
  try {
    new PerformanceObserver(function (list) {
      if (list.getEntriesByName('first-contentful-paint').length) {
        painted = true;
        maybe();
      }
    }).observe({ type: 'paint', buffered: true });
  } catch (e) {
    painted = true;
  }
  function onLoad() {
    loadedPage = true;
    maybe();
    setTimeout(load, 1000);
  }
  if (loadedPage) onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  ['pointerdown', 'keydown', 'touchstart'].forEach(function (type) {
    window.addEventListener(type, load, { once: true, capture: true, passive: true });
  });
  /** A link of this site that opens here (not a new tab, not a download, no modifier key). */
  function ownLink(e) {
    var a = e.target instanceof Element ? e.target.closest('#root a[href]') : null;
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
    if ((a.getAttribute('target') || '_self') !== '_self' || a.hasAttribute('download')) return null;
    return a.origin === window.location.origin ? a : null;
  }
  document.addEventListener(
    'click',
    function (e) {
      if (ready) return;
      var kept = e.target instanceof Element ? e.target.closest('#root button') || ownLink(e) : null;
      if (!kept) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      // a button of the step (its submit): what the next step needs is fetched now, alongside the app
      if (!pending && kept.tagName === 'BUTTON') preload('data-al-tocar');
      pending = kept;
      load();
    },
    true,
  );
  window.addEventListener('cotizador:listo', function () {
    ready = true;
    var kept = pending;
    pending = null;
    if (!kept) return;
    if (kept.isConnected) kept.click();
    // the page was rendered afresh (not hydrated): a link is still followed, by the app's own link where there is one
    else if (kept.tagName === 'A') {
      var same = document.querySelector('#root a[href="' + CSS.escape(kept.getAttribute('href')) + '"]');
      if (same) same.click();
      else window.location.assign(kept.href);
    }
  });
})();
