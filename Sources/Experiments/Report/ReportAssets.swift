/// The style sheet and the script inlined in `report.html`: the page needs nothing but
/// itself and the files beside it (plots/, plans/), so a zipped run directory reads offline.
enum ReportAssets {
    static let style = """
        body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1400px; padding: 0 1em; color: #1d1d1f; }
        h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
        nav a { margin-right: 1em; } pre { background: #f6f6f6; padding: .6em; overflow-x: auto; font-size: 12px; }
        table { border-collapse: collapse; font-size: 13px; margin: .5em 0; }
        th, td { border: 1px solid #d8d8d8; padding: 3px 7px; text-align: left; white-space: nowrap; }
        th { background: #eef1f5; cursor: pointer; user-select: none; position: sticky; top: 0; }
        th[aria-sort=ascending]::after { content: " ▲"; } th[aria-sort=descending]::after { content: " ▼"; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        tbody tr:nth-child(even) { background: #fafafa; }
        .verdict { padding: .5em .8em; border-radius: 4px; display: inline-block; }
        .ok { background: #e3f6e5; } .bad { background: #fde2e1; } .note { background: #fff6d8; padding: .4em .8em; }
        .plots img { max-width: 100%; border: 1px solid #eee; margin: .3em 0; }
        .plans { display: grid; grid-template-columns: 7em 1fr 1fr; gap: .5em; align-items: start; }
        .plans img { max-width: 100%; border: 1px solid #eee; background: white; }
        .plans .stage { font-weight: 600; padding-top: .5em; }
        .tablewrap { max-height: 70vh; overflow: auto; }
        """

    /// Sorting: a click on a header sorts the body by that column (numbers by `data-sort`,
    /// text otherwise), ascending first, then descending. Plans: the two selects pick the
    /// flag sets shown side by side for the chosen query and size.
    static let script = """
        (function () {
          "use strict";
          function key(cell) {
            var v = cell.getAttribute("data-sort");
            return v === null ? null : parseFloat(v);
          }
          function sortBy(th) {
            var table = th.closest("table"), body = table.tBodies[0], column = +th.getAttribute("data-column");
            var ascending = th.getAttribute("aria-sort") !== "ascending";
            Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
            th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
            var rows = Array.prototype.slice.call(body.rows);
            rows.sort(function (a, b) {
              var x = a.cells[column], y = b.cells[column], kx = key(x), ky = key(y), order;
              if (kx !== null && ky !== null) order = kx - ky;
              else if (kx !== null) order = -1;
              else if (ky !== null) order = 1;
              else order = x.textContent.localeCompare(y.textContent);
              return ascending ? order : -order;
            });
            rows.forEach(function (r) { body.appendChild(r); });
          }
          document.querySelectorAll("table.sortable th").forEach(function (th) {
            th.addEventListener("click", function () { sortBy(th); });
            th.addEventListener("keydown", function (e) { if (e.key === "Enter") sortBy(th); });
          });

          var data = document.getElementById("plan-data");
          if (!data) return;
          var plans = JSON.parse(data.textContent);
          var cell = document.getElementById("plan-cell"), left = document.getElementById("plan-left"),
              right = document.getElementById("plan-right");
          function show() {
            var chosen = plans.cells[+cell.value];
            [["left", left], ["right", right]].forEach(function (side) {
              var flagset = side[1].value;
              plans.stages.forEach(function (stage) {
                var img = document.getElementById("plan-" + side[0] + "-" + stage);
                var file = (chosen.files[flagset] || {})[stage];
                var missing = document.getElementById("plan-" + side[0] + "-" + stage + "-missing");
                if (file) { img.src = file; img.alt = stage + " graph, " + flagset; img.hidden = false; missing.hidden = true; }
                else { img.removeAttribute("src"); img.hidden = true; missing.hidden = false; }
              });
            });
          }
          [cell, left, right].forEach(function (s) { s.addEventListener("change", show); });
          show();
        })();
        """
}
