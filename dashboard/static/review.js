// Posts an operator's right/wrong verdicts with the bearer token and shows the new precision.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const section = document.getElementById("precision");
  const runId = section.dataset.runId;
  const tokenInput = document.getElementById("token");
  const status = document.getElementById("review-status");
  tokenInput.value = sessionStorage.getItem("parawire-token") || "";
  tokenInput.addEventListener("change", () => sessionStorage.setItem("parawire-token", tokenInput.value));

  const fmt = (x) => (x === null ? "—" : x.toFixed(3));
  const show = (p) => {
    document.getElementById("labeled").textContent = p.labeled;
    document.getElementById("right").textContent = p.right;
    document.getElementById("wrong").textContent = p.wrong;
    document.getElementById("estimate").textContent = fmt(p.estimate);
    document.getElementById("interval").textContent =
      p.low === null ? "—" : `[${fmt(p.low)}, ${fmt(p.high)}]`;
  };

  for (const button of document.querySelectorAll(".verdict button")) {
    button.addEventListener("click", async () => {
      const correct = button.dataset.correct === "true";
      const item = button.closest("li.pair");
      const response = await fetch(`/api/runs/${runId}/labels`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokenInput.value}` },
        body: JSON.stringify({ pair_id: Number(button.dataset.pairId), correct }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        status.textContent = `not saved (${response.status}): ${body.detail || response.statusText}`;
        return;
      }
      status.textContent = "saved";
      show(await response.json());
      item.classList.remove("labeled-right", "labeled-wrong");
      item.classList.add(correct ? "labeled-right" : "labeled-wrong");
      item.querySelector(".label-state").textContent = correct ? "marked right" : "marked wrong";
    });
  }
});
