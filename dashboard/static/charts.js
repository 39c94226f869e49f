// Draws every chart whose data the page embeds as <script type="application/json"
// class="chart-data" data-chart="ID">{"kind": "day"|"category", "traces": [[name, {x: y}], ...]}.
// No inline script runs (CSP): the data is JSON text, read here.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const source of document.querySelectorAll("script.chart-data")) {
    const target = document.getElementById(source.dataset.chart);
    const { kind, traces } = JSON.parse(source.textContent);
    const byDay = kind === "day";
    const data = traces.map(([name, counts]) => ({
      type: byDay ? "scatter" : "bar",
      mode: "lines+markers",
      name,
      x: Object.keys(counts),
      y: Object.values(counts),
    }));
    const layout = {
      barmode: "group",
      margin: { t: 20, r: 20, b: 80, l: 60 },
      xaxis: { type: byDay ? "date" : "category" },
      yaxis: { title: { text: "count" } },
    };
    window.Plotly.newPlot(target, data, layout, { displaylogo: false, responsive: true })
      .then(() => target.classList.add("drawn"));
  }
});
