/* aids: the search box of a page opened from a folder on disk (file://), where Pagefind cannot fetch its index
   (aids-search.js loads this instead). Every file comes by a <script> tag, which a browser loads from disk:
   MiniSearch (minisearch.js, MIT, vendored), and offline.<lang>.js of this index folder and of each index the box
   merges, the sections of the pages in the page's language as Pagefind's fragments cut them (aids/write/search.py).
   As online: ?q=words fills the box and runs the search, the address follows what the reader types, the results
   are those of the page's version (a box to tick off to search every version). docs/search.md says why. */
(function () {
  "use strict";
  var here = document.currentScript.src, box = document.querySelector(".aids-search");
  if (!box) { return; }
  var lang = (document.documentElement.lang || "").toLowerCase(), bundles = [new URL(".", here)];
  try {
    JSON.parse(box.dataset.indexes || "[]").forEach(function (index) { bundles.push(new URL(index.bundle, location.href)); });
  } catch (error) { /* no other index */ }
  function load(src, then) {
    var script = document.createElement("script");
    script.src = src;
    script.onload = script.onerror = then;
    document.head.appendChild(script);
  }
  function element(tag, attributes, text) {
    var made = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    if (text) { made.textContent = text; }
    return made;
  }
  function bare(word) { return word.toLowerCase().replace(/^[^\p{L}\p{N}]+/u, ""); }  // a word as searched
  function excerpt(text, terms) {  // about 30 words around the first word searched, those words marked
    var words = text.split(" "), at = 0, found = words.findIndex(function (word) {
      return terms.some(function (term) { return bare(word).startsWith(term); });
    });
    if (found > 15) { at = found - 15; }
    var shown = element("p", {"class": "aids-offline-excerpt"});
    words.slice(at, at + 30).forEach(function (word, n) {
      var hit = terms.some(function (term) { return bare(word).startsWith(term); });
      if (n) { shown.appendChild(document.createTextNode(" ")); }
      shown.appendChild(hit ? element("mark", {}, word) : document.createTextNode(word));
    });
    return shown;
  }
  function start() {
    if (typeof MiniSearch === "undefined") { return; }
    var sections = [];
    (window.aidsOffline || []).forEach(function (part) {
      var root = new URL("../", part.src);  // the publication's folder: Pagefind's URLs are from there
      part.sections.forEach(function (section) {
        sections.push(Object.assign({}, section, {id: sections.length, href: new URL("." + section.url, root).href}));
      });
    });
    var search = new MiniSearch({fields: ["heading", "text", "title"], storeFields: ["id"],
                                 searchOptions: {prefix: true, fuzzy: 0.1, combineWith: "AND", boost: {heading: 2}}});
    search.addAll(sections);
    var meta = document.querySelector("meta[name='aids-version']");
    var field = element("input", {type: "search", "class": "aids-offline-input", "aria-label": box.dataset.label,
                                  placeholder: box.dataset.label});
    var only = element("input", {type: "checkbox", id: "aids-offline-version", checked: ""});
    var results = element("ol", {"class": "aids-offline-results", "aria-live": "polite"});
    box.appendChild(field);
    if (meta && meta.content) {
      var label = element("label", {"for": "aids-offline-version", "class": "aids-offline-version"});
      label.appendChild(only);
      label.appendChild(document.createTextNode(" " + meta.dataset.filter + " " + meta.content));
      box.appendChild(label);
    }
    box.appendChild(results);
    function run() {
      var words = field.value.trim();
      results.textContent = "";
      if (!words) { return; }
      var terms = words.toLowerCase().split(/\s+/);
      var found = search.search(words).map(function (hit) { return sections[hit.id]; }).filter(function (section) {
        var name = meta && meta.dataset.filter;
        return !(meta && meta.content && only.checked) || ((section.filters || {})[name] || []).indexOf(meta.content) >= 0;
      });
      if (!found.length) { results.appendChild(element("li", {"class": "aids-offline-none"}, box.dataset.none)); }
      found.slice(0, 20).forEach(function (section) {
        var item = element("li", {"class": "aids-offline-result"});
        var title = "games" in box.dataset && section.game ? section.game + " – " + section.title : section.title;
        var link = element("a", {href: section.href}, section.heading ? title + " – " + section.heading : title);
        item.appendChild(link);
        item.appendChild(excerpt(section.text, terms));
        results.appendChild(item);
      });
    }
    field.addEventListener("input", function () {
      run();
      var address = new URL(location.href);
      if (field.value.trim()) { address.searchParams.set("q", field.value); } else { address.searchParams.delete("q"); }
      try { history.replaceState(history.state, "", address.href); } catch (error) { /* a browser that refuses it on disk */ }
    });
    only.addEventListener("change", run);
    field.value = new URLSearchParams(location.search).get("q") || "";
    run();
    box.hidden = false;
  }
  var waiting = bundles.length + 1;
  function loaded() { waiting -= 1; if (!waiting) { start(); } }
  load(new URL("minisearch.js", here).href, loaded);
  bundles.forEach(function (bundle) { load(new URL("offline." + lang + ".js", bundle).href, loaded); });
})();
