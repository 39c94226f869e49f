// Posts an operator's right/wrong verdicts with the bearer token and the reviewer's name,
// shows the new precision; keys j/k (or arrows) move between pairs, r and w give a verdict.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const section = document.getElementById("precision");
  const runId = section.dataset.runId;
  const tokenInput = document.getElementById("token");
  const reviewerInput = document.getElementById("reviewer");
  const status = document.getElementById("review-status");
  tokenInput.value = sessionStorage.getItem("parawire-token") || "";
  tokenInput.addEventListener("change", () => sessionStorage.setItem("parawire-token", tokenInput.value));
  reviewerInput.value = localStorage.getItem("parawire-reviewer") || "";
  reviewerInput.addEventListener("change", () => localStorage.setItem("parawire-reviewer", reviewerInput.value));

  const fmt = (x) => (x === null ? "—" : x.toFixed(3));
  const show = (p) => {
    document.getElementById("labeled").textContent = p.labeled;
    document.getElementById("right").textContent = p.right;
    document.getElementById("wrong").textContent = p.wrong;
    document.getElementById("estimate").textContent = fmt(p.estimate);
    document.getElementById("interval").textContent =
      p.low === null ? "—" : `[${fmt(p.low)}, ${fmt(p.high)}]`;
  };

  const items = Array.from(document.querySelectorAll("li.pair"));
  let current = -1;
  const select = (index) => {
    if (!items.length) return;
    current = Math.max(0, Math.min(items.length - 1, index));
    items.forEach((item, i) => item.classList.toggle("current", i === current));
    items[current].scrollIntoView({ block: "nearest" });
  };

  const mark = async (item, correct) => {
    const response = await fetch(`/api/runs/${runId}/labels`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokenInput.value}` },
      body: JSON.stringify({ pair_id: Number(item.dataset.pairId), correct,
                             reviewer: reviewerInput.value.trim() }),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      const detail = Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join("; ") : body.detail;
      status.textContent = `not saved (${response.status}): ${detail || response.statusText}`;
      return;
    }
    status.textContent = "saved";
    show(await response.json());
    item.classList.remove("labeled-right", "labeled-wrong");
    item.classList.add(correct ? "labeled-right" : "labeled-wrong");
    item.querySelector(".label-state").textContent = correct ? "marked right" : "marked wrong";
  };

  for (const button of document.querySelectorAll(".verdict button")) {
    button.addEventListener("click", () => {
      const item = button.closest("li.pair");
      select(items.indexOf(item));
      mark(item, button.dataset.correct === "true");
    });
  }

  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const verdicts = { r: true, w: false };
    if (event.key === "j" || event.key === "ArrowDown") select(current + 1);
    else if (event.key === "k" || event.key === "ArrowUp") select(current - 1);
    else if (event.key in verdicts && items.length) {
      if (current < 0) select(0);
      const item = items[current];
      mark(item, verdicts[event.key]);
      select(current + 1);
    } else return;
    event.preventDefault();
  });
});
