/* aids: the search box of a page (templates/search.html), written by `aids build` into each index folder.
   Pagefind's default UI (pagefind-ui.js, beside this file) in the page's language (its <html lang>);
   results are pages of this folder's publication, and sections of them (headings with an id). */
(function () {
  "use strict";
  var bundle = new URL(".", document.currentScript.src);  // .../<publication>/pagefind/
  function add(tag, attributes) {
    var element = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) { element[name] = attributes[name]; });
    document.head.appendChild(element);
    return element;
  }
  function start() {
    var box = document.querySelector(".aids-search");
    if (!box || typeof PagefindUI === "undefined") { return; }
    // bundlePath: the index's path on this server; result links are made from it (its parent folder)
    // other indexes searched with this one (a game's page: every edition), relative to the page
    var merged = (box.dataset.merge || "").split(" ").filter(Boolean).map(function (path) {
      return {bundlePath: new URL(path, location.href).pathname};
    });
    new PagefindUI({element: box, bundlePath: bundle.pathname, mergeIndex: merged, showSubResults: true,
                    showImages: false});
    // the field's name, not only its title: the placeholder's words ("Search", in the page's language)
    var field = box.querySelector("input");
    if (field) { field.setAttribute("aria-label", field.placeholder || field.title); }
    box.hidden = false;
  }
  if (location.protocol === "file:") { return; }  // the index is fetched: it needs a web server, not a folder on disk
  add("link", {rel: "stylesheet", href: new URL("pagefind-ui.css", bundle).href});
  add("link", {rel: "stylesheet", href: new URL("aids-search.css", bundle).href});
  add("script", {src: new URL("pagefind-ui.js", bundle).href, onload: start});
})();
