// dipsandbox report: the folder page's script. Hand-written, no framework, no network.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) {
    errors.push(String(e && e.message ? e.message : e));
    var box = document.getElementById("page-errors");
    box.hidden = false;
    box.textContent = errors.join("\n");
  });
  if (window.location.hash !== "#selftest") {
    return;
  }
  function report() {
    var imgs = document.querySelectorAll(".pictures img");
    var drawn = 0;
    for (var i = 0; i < imgs.length; i++) {
      if (imgs[i].complete && imgs[i].naturalWidth > 0) {
        drawn++;
      }
    }
    var out = document.getElementById("selftest-result");
    out.hidden = false;
    out.textContent = JSON.stringify({
      cards: document.querySelectorAll(".card").length,
      pictures: imgs.length,
      drawn: drawn,
      errors: errors
    });
  }
  report();
  window.addEventListener("load", report);
})();
