#include "report/html_assets.hpp"

namespace syncstress::report {

const std::string_view kPageStyle = R"css(
:root{--fg:#1d2330;--muted:#5b6475;--line:#d5d9e0;--bg:#fff;--soft:#f4f6f9;--pass:#1f7a3a;
--fail:#b3261e;--measured:#3d5a80;--inconclusive:#9a6700;--interrupted:#6f42c1;--error:#7a1712}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
background:var(--bg);margin:0 auto;padding:16px 24px 48px;max-width:1400px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}
h3{font-size:15px;margin:16px 0 6px}h4{font-size:14px;margin:12px 0 4px}
code,pre,.mono{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
pre{background:var(--soft);padding:8px 10px;border-radius:4px;overflow-x:auto;white-space:pre-wrap;
overflow-wrap:anywhere;margin:4px 0}
.message{overflow-wrap:anywhere}
[hidden]{display:none!important}
.muted{color:var(--muted)}
dl.context{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}
dl.context dt{color:var(--muted)}dl.context dd{margin:0;word-break:break-all}
.badge{display:inline-block;padding:0 7px;border-radius:9px;color:#fff;font-size:12px;font-weight:600}
.v-pass{background:var(--pass)}.v-fail{background:var(--fail)}.v-measured{background:var(--measured)}
.v-inconclusive{background:var(--inconclusive)}.v-interrupted{background:var(--interrupted)}
.v-error{background:var(--error)}.v-unknown{background:var(--muted)}
.summary .badge{margin-right:6px}
.controls{margin:8px 0;display:flex;flex-wrap:wrap;gap:14px;align-items:center}
.controls label{white-space:nowrap}
table{border-collapse:collapse}
table.cells{width:100%}
table.cells th,table.cells td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;
vertical-align:top}
table.cells th{background:var(--soft);position:sticky;top:0;white-space:nowrap}
table.cells th.sortable{cursor:pointer}
table.cells th[aria-sort=ascending]::after{content:" \25B2"}
table.cells th[aria-sort=descending]::after{content:" \25BC"}
table.cells td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.cells td.first{max-width:560px;overflow-wrap:anywhere;font-size:13px}
table.cells td.name{white-space:nowrap}
details.cell{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:0 12px}
details.cell>summary{cursor:pointer;padding:8px 0;font-weight:600}
details.cell[open]>summary{border-bottom:1px solid var(--line);margin-bottom:8px}
.tiles{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.tile{background:var(--soft);border-radius:6px;padding:4px 10px;min-width:110px}
.tile b{display:block;font-size:16px}.tile span{color:var(--muted);font-size:12px}
.charts{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
figure.chart{margin:4px 0;border:1px solid var(--line);border-radius:6px;padding:6px 8px}
figure.chart figcaption{font-size:12.5px;font-weight:600;margin-bottom:4px}
figure.chart .scale{font-weight:400;color:var(--muted)}
svg text{font-size:11px;fill:var(--fg)}svg .bar{fill:#4a78b5}svg .axis{stroke:var(--muted)}
table.metrics td{padding:1px 10px 1px 0;vertical-align:top}
table.metrics td:first-child{color:var(--muted)}
section.violation{border-left:4px solid var(--fail);padding:2px 0 8px 12px;margin:14px 0}
.message{white-space:pre-wrap}
.command{display:flex;gap:8px;align-items:flex-start}
.command pre{flex:1;margin:0}.command .label{font-weight:600;padding-top:6px}
button{font:inherit;font-size:12.5px;padding:2px 10px;border:1px solid var(--line);
border-radius:4px;background:#fff;cursor:pointer}
button:hover{background:var(--soft)}
.lanes{overflow-x:auto;margin-top:8px}
table.swimlane{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}
table.swimlane th,table.swimlane td{padding:1px 8px;border-right:1px solid var(--line);
white-space:nowrap;vertical-align:top}
table.swimlane th{background:var(--soft);position:sticky;top:0}
table.swimlane td.n{text-align:right;color:var(--muted)}
table.swimlane td.lane:nth-child(even){background:#fafbfc}
table.swimlane td.where{color:var(--muted)}
table.swimlane tr.switch td{border-top:2px solid #9fb3d1}
table.swimlane tr.harness{display:none;color:var(--muted)}
table.swimlane tr.folded td,table.swimlane tr.repeat td{color:var(--muted);font-style:italic}
.show-harness:checked~table.swimlane tr.harness{display:table-row}
.show-harness:checked~table.swimlane tr.folded{display:none}
table.swimlane tbody.breach td{background:#fde2e0}
table.swimlane tbody.breach tr.step td{font-weight:700}
table.swimlane tbody.breach:target tr.step td{outline:2px solid var(--fail)}
table.swimlane td.breach-message{color:var(--fail);white-space:pre-wrap;font-weight:600}
.legend{font-size:12px;color:var(--muted)}
footer{margin-top:32px;color:var(--muted);font-size:12px}
)css";

const std::string_view kPageScript = R"js(
(function () {
  'use strict';
  var table = document.getElementById('cells');
  if (table) {
    var heads = table.tHead.rows[0].cells;
    var sortBy = function (index, th) {
      var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir);
      var numeric = th.getAttribute('data-type') === 'number';
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var key = function (row) {
        var c = row.cells[index];
        var v = c.getAttribute('data-sort');
        if (v === null) v = c.textContent.trim();
        return numeric ? parseFloat(v) || 0 : v.toLowerCase();
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var r = x < y ? -1 : x > y ? 1 : 0;
        return dir === 'ascending' ? r : -r;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    };
    Array.prototype.forEach.call(heads, function (th, index) {
      th.classList.add('sortable');
      th.tabIndex = 0;
      th.title = 'Sort by ' + th.textContent;
      th.addEventListener('click', function () { sortBy(index, th); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(index, th); }
      });
    });
  }
  var filter = document.getElementById('verdict-filter');
  if (filter) {
    filter.hidden = false;
    filter.addEventListener('change', function () {
      var shown = {};
      filter.querySelectorAll('input[type=checkbox]').forEach(function (box) {
        shown[box.value] = box.checked;
      });
      document.querySelectorAll('.filterable').forEach(function (el) {
        el.hidden = !shown[el.getAttribute('data-verdict')];
      });
    });
  }
  var fold = document.getElementById('fold-controls');
  if (fold) {
    fold.hidden = false;
    fold.querySelectorAll('button').forEach(function (b) {
      b.addEventListener('click', function () {
        var open = b.getAttribute('data-fold') === 'open';
        document.querySelectorAll('details.cell').forEach(function (d) { d.open = open; });
      });
    });
  }
  document.querySelectorAll('button.copy').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      var source = document.getElementById(b.getAttribute('data-copy'));
      var done = function () {
        b.textContent = 'Copied';
        setTimeout(function () { b.textContent = 'Copy'; }, 1500);
      };
      var select = function () {
        var range = document.createRange();
        range.selectNodeContents(source);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        try {
          if (document.execCommand('copy')) { done(); return; }
        } catch (e) { /* selected: the user copies it */ }
        b.textContent = 'Selected';
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(source.textContent).then(done, select);
      } else {
        select();
      }
    });
  });
  var reveal = function () {
    if (!location.hash) return;
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { /* not percent-encoded: as it is */ }
    var target = document.getElementById(id);
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === 'DETAILS') el.open = true;
    }
    if (target) target.scrollIntoView();
  };
  window.addEventListener('hashchange', reveal);
  reveal();
})();
)js";

}  // namespace syncstress::report
