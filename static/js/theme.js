// theme.js: the colour theme, before the page is shown (no flash). The
// system's setting, unless a person chose one (the sidebar's Theme button,
// kept in this browser): "dark" or "light" on <html>.
(function () {
  var KEY = "rms.theme";
  function choice() {
    try { return localStorage.getItem(KEY) || "system"; } catch (e) { return "system"; }
  }
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function apply() {
    var c = choice();
    var dark = c === "dark" || (c === "system" && media && media.matches);
    document.documentElement.classList.toggle("dark", dark);
    document.documentElement.dataset.theme = c;
  }
  apply();
  if (media && media.addEventListener) media.addEventListener("change", apply);
  window.rmsTheme = {
    // next moves system -> dark -> light -> system, and says which.
    next: function () {
      var order = ["system", "dark", "light"];
      var c = order[(order.indexOf(choice()) + 1) % order.length];
      try { localStorage.setItem(KEY, c); } catch (e) { /* private mode: for this page only */ }
      apply();
      if (c !== choice()) document.documentElement.classList.toggle("dark", c === "dark" || (c === "system" && media && media.matches));
      return c;
    },
    choice: choice
  };
})();
