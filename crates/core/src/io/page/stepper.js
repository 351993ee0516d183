// dipsandbox report: the trace stepper. Hand-written, no framework, no network.
// Reads the steps from the JSON block #steps-data; each step names the
// units and orders it is about, which are highlighted on the picture (class "hl").
// Position 0 is the start (nothing applied); position k shows step k (1-based).
(function () {
  "use strict";
  var errors = [];
  function note(msg) {
    errors.push(String(msg));
    var box = document.getElementById("page-errors");
    if (box) {
      box.hidden = false;
      box.textContent = errors.join("\n");
    }
  }
  window.addEventListener("error", function (e) {
    note("error: " + (e && e.message ? e.message : e));
  });

  var dataNode = document.getElementById("steps-data");
  var data = dataNode ? JSON.parse(dataNode.textContent) : { steps: [] };
  var steps = data.steps || [];
  var pos = 0;

  function el(id) {
    return document.getElementById(id);
  }
  function highlighted() {
    var out = [];
    var nodes = document.querySelectorAll(".picture .hl");
    for (var i = 0; i < nodes.length; i++) {
      out.push(nodes[i].id);
    }
    return out;
  }
  function clearHighlight() {
    var nodes = document.querySelectorAll(".picture .hl");
    for (var i = 0; i < nodes.length; i++) {
      nodes[i].classList.remove("hl");
    }
  }
  function mark(id) {
    var node = el(id);
    if (node) {
      node.classList.add("hl");
    }
  }
  function sectionsHtml(container, sections) {
    container.textContent = "";
    for (var i = 0; i < sections.length; i++) {
      var h = document.createElement("h4");
      h.textContent = sections[i].title;
      container.appendChild(h);
      var pre = document.createElement("pre");
      pre.textContent = sections[i].lines.join("\n");
      container.appendChild(pre);
    }
  }
  function show(k) {
    if (steps.length === 0) {
      return;
    }
    pos = Math.max(0, Math.min(steps.length, k));
    clearHighlight();
    var counter = el("step-count");
    var text = el("step-text");
    var state = el("step-state");
    var items = document.querySelectorAll("#step-list li");
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("current", i === pos - 1);
    }
    if (pos === 0) {
      counter.textContent = "start: 0 of " + steps.length + " steps";
      text.textContent = "Before the first step. → or the buttons step forward; ] jumps to the next landmark (a cycle, a backup rule).";
      sectionsHtml(state, []);
      return;
    }
    var s = steps[pos - 1];
    counter.textContent =
      "step " + pos + " of " + steps.length + " (event " + (s.event + 1) + ")" +
      (s.landmark ? " · " + s.landmark : "");
    text.textContent = s.text;
    text.className = "tone-" + s.tone;
    for (var u = 0; u < s.units.length; u++) {
      mark("unit-" + s.units[u]);
    }
    for (var o = 0; o < s.orders.length; o++) {
      mark("order-" + s.orders[o]);
    }
    sectionsHtml(state, s.sections);
    // Keep the current step in view inside the list, without scrolling the page.
    var current = items[pos - 1];
    var list = el("step-list");
    if (current && list) {
      var top = current.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }
  function landmark(dir) {
    for (var k = pos + dir; k >= 1 && k <= steps.length; k += dir) {
      if (steps[k - 1].landmark) {
        show(k);
        return true;
      }
    }
    return false;
  }
  var actions = {
    "step-start": function () { show(0); },
    "step-back": function () { show(pos - 1); },
    "step-fwd": function () { show(pos + 1); },
    "step-end": function () { show(steps.length); },
    "step-prev-mark": function () { landmark(-1); },
    "step-next-mark": function () { landmark(1); }
  };
  Object.keys(actions).forEach(function (id) {
    var b = el(id);
    if (b) {
      b.addEventListener("click", actions[id]);
    }
  });
  var list = el("step-list");
  if (list) {
    list.addEventListener("click", function (e) {
      var li = e.target.closest ? e.target.closest("li") : null;
      if (li && li.dataset.k) {
        show(Number(li.dataset.k));
      }
    });
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) {
      return;
    }
    var act = {
      ArrowRight: "step-fwd",
      ArrowLeft: "step-back",
      "]": "step-next-mark",
      "[": "step-prev-mark",
      Home: "step-start",
      End: "step-end"
    }[e.key];
    if (act) {
      e.preventDefault();
      actions[act]();
    }
  });

  var selftest = window.location.hash === "#selftest";
  // `#step=K` opens the page at step K (a link to share a step).
  var at = /^#step=(\d+)$/.exec(window.location.hash);
  show(at ? Number(at[1]) : 0);
  if (selftest) {
    // Press the buttons as a user would and write down what the picture highlighted.
    var record = [];
    var press = function (id) {
      var b = el(id);
      if (b) {
        b.click();
      } else {
        note("no button " + id);
      }
      record.push({ button: id, pos: pos, hl: highlighted(), text: el("step-text").textContent });
    };
    try {
      press("step-fwd");
      press("step-fwd");
      press("step-back");
      press("step-next-mark");
      press("step-end");
      press("step-start");
    } catch (e) {
      note("selftest: " + e);
    }
    // Where the picture drew each unit, in page pixels (for a screenshot's check).
    var units = [];
    var drawn = document.querySelectorAll(".picture [id^='unit-']");
    for (var d = 0; d < drawn.length; d++) {
      var r = drawn[d].getBoundingClientRect();
      units.push({ id: drawn[d].id, x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height });
    }
    var out = el("selftest-result");
    out.hidden = false;
    out.textContent = JSON.stringify({ steps: steps.length, record: record, units: units, errors: errors });
  }
})();
