/* aids: the search box of a page (templates/search.html), written by `aids build` into each index folder.
   Pagefind's default UI (pagefind-ui.js, beside this file) in the page's language (its <html lang>); results are
   pages of this folder's publication and of the indexes the box merges (`data-indexes`), and sections of them
   (headings with an id). `?q=words` in the page's address fills the box and runs the search; the address follows
   what the reader types (without reloading), so a search can be linked. The results are those of the version
   the page is of (`<meta name="aids-version">`, a filter the reader may clear to search every version).
   From a folder on disk (file://), where Pagefind cannot fetch its index, aids-offline.js searches instead
   (docs/search.md). */
(function () {
  "use strict";
  var bundle = new URL(".", document.currentScript.src);  // .../<publication>/pagefind/
  function add(tag, attributes) {
    var element = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) { element[name] = attributes[name]; });
    document.head.appendChild(element);
    return element;
  }
  function indexes(box) {  // [{bundle: path relative to the page, filters: {name: value}}]
    try { return JSON.parse(box.dataset.indexes || "[]"); } catch (error) { return []; }
  }
  function asked() { return new URLSearchParams(location.search).get("q") || ""; }
  function follow(field) {  // the address says what is searched: ?q=words, kept with the page's #anchor
    field.addEventListener("input", function () {
      var address = new URL(location.href);
      if (field.value.trim()) { address.searchParams.set("q", field.value); } else { address.searchParams.delete("q"); }
      history.replaceState(history.state, "", address.href);
    });
  }
  function version() {
    var meta = document.querySelector("meta[name='aids-version']");
    return meta && meta.content ? {name: meta.dataset.filter, value: meta.content} : null;
  }
  function labelled(games) {  // a search across games: each result says its game, in its title (not as a tag
    return function (result) {  // under Pagefind's name of the field, "game", in English)
      var meta = result.meta || {};
      if (games && meta.game) { meta.title = meta.game + " – " + meta.title; }
      delete meta.game;
      return result;
    };
  }
  function start() {
    var box = document.querySelector(".aids-search");
    if (!box || typeof PagefindUI === "undefined") { return; }
    // bundlePath: the index's path on this server; result links are made from it (its parent folder)
    var merged = indexes(box).map(function (index) {
      var options = {bundlePath: new URL(index.bundle, location.href).pathname};
      if (index.filters) { options.mergeFilter = index.filters; }
      return options;
    });
    var ui = new PagefindUI({element: box, bundlePath: bundle.pathname, mergeIndex: merged, showSubResults: true,
                             showImages: false, mergeFilter: JSON.parse(box.dataset.filters || "{}"),
                             processResult: labelled("games" in box.dataset)});
    // the field's name, not only its title: the placeholder's words ("Search", in the page's language)
    var field = box.querySelector("input");
    if (field) { field.setAttribute("aria-label", field.placeholder || field.title); follow(field); }
    var own = version();
    if (own) { ui.triggerFilters(Object.fromEntries([[own.name, [own.value]]])); }
    if (asked()) { ui.triggerSearch(asked()); }
    box.hidden = false;
  }
  add("link", {rel: "stylesheet", href: new URL("aids-search.css", bundle).href});
  if (location.protocol === "file:") {  // Pagefind fetches its index: from a folder on disk, the offline search
    add("script", {src: new URL("aids-offline.js", bundle).href});
    return;
  }
  add("link", {rel: "stylesheet", href: new URL("pagefind-ui.css", bundle).href});
  add("script", {src: new URL("pagefind-ui.js", bundle).href, onload: start});
})();
