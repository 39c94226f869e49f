// Posts an operator's verdicts with the bearer token and the reviewer's name, shows the new
// precision. A verdict is a grade (0-5; grade 3 with its direction: a, the input covers the
// target, or b, the reverse; = alone is grade 4, equivalent) or a bare right/wrong.
// Keys j/k (or arrows) move between pairs; a verdict moves on to the next.
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
    const body = document.querySelector("#grade-precision tbody");
    body.replaceChildren(...p.per_grade.map((g) => {
      const row = document.createElement("tr");
      row.dataset.grade = g.grade === null ? "" : String(g.grade);
      for (const text of [g.grade === null ? "none" : g.grade, g.right + g.wrong, g.right,
                          fmt(g.estimate), `[${fmt(g.low)}, ${fmt(g.high)}]`]) {
        row.appendChild(document.createElement("td")).textContent = text;
      }
      return row;
    }));
  };

  const items = Array.from(document.querySelectorAll("li.pair"));
  let current = -1;
  let pendingGrade = null; // grade 3 given, its direction not yet
  const select = (index) => {
    if (!items.length) return;
    current = Math.max(0, Math.min(items.length - 1, index));
    pendingGrade = null;
    items.forEach((item, i) => item.classList.toggle("current", i === current));
    items[current].scrollIntoView({ block: "nearest" });
  };

  const describe = (verdict) => {
    if (verdict.grade === undefined) return verdict.correct ? "marked right" : "marked wrong";
    const way = { a_covers_b: ", input covers target", b_covers_a: ", target covers input" };
    return `graded ${verdict.grade}${way[verdict.direction] || ""}`;
  };

  // Posts the verdict: {correct} or {grade, direction}; true once stored.
  const mark = async (item, verdict) => {
    const response = await fetch(`/api/runs/${runId}/labels`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokenInput.value}` },
      body: JSON.stringify({ pair_id: Number(item.dataset.pairId), ...verdict,
                             reviewer: reviewerInput.value.trim() }),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      const detail = Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join("; ") : body.detail;
      status.textContent = `not saved (${response.status}): ${detail || response.statusText}`;
      return false;
    }
    const precision = await response.json();
    status.textContent = "saved";
    show(precision);
    const right = verdict.grade === undefined ? verdict.correct
      : verdict.grade >= 4 || (verdict.grade === 3 && verdict.direction === "a_covers_b");
    item.classList.remove("labeled-right", "labeled-wrong");
    item.classList.add(right ? "labeled-right" : "labeled-wrong");
    item.querySelector(".label-state").textContent = describe(verdict);
    return true;
  };

  // A grade key or button: grade 3 waits for its direction; the others are sent at once.
  const grade = (index, value) => {
    if (value === 3) {
      pendingGrade = 3;
      items[index].querySelector(".label-state").textContent = "grade 3: a (input covers) or b (target covers)?";
      return false;
    }
    mark(items[index], { grade: value });
    return true;
  };
  const direction = (index, value) => {
    if (pendingGrade !== 3) {
      if (value !== "equivalent") return false;
      mark(items[index], { grade: 4 });
      return true;
    }
    mark(items[index], { grade: 3, direction: value });
    return true;
  };

  for (const button of document.querySelectorAll(".verdict button")) {
    button.addEventListener("click", () => {
      const index = items.indexOf(button.closest("li.pair"));
      if (index !== current) select(index);
      if (button.dataset.correct !== undefined) mark(items[index], { correct: button.dataset.correct === "true" });
      else if (button.dataset.grade !== undefined) grade(index, Number(button.dataset.grade));
      else direction(index, button.dataset.direction);
    });
  }

  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const verdicts = { r: true, w: false };
    const directions = { a: "a_covers_b", b: "b_covers_a", "=": "equivalent" };
    if (event.key === "j" || event.key === "ArrowDown") select(current + 1);
    else if (event.key === "k" || event.key === "ArrowUp") select(current - 1);
    else if (!items.length) return;
    else {
      if (current < 0) select(0);
      let done;
      if (event.key in verdicts) done = (mark(items[current], { correct: verdicts[event.key] }), true);
      else if (/^[0-5]$/.test(event.key)) done = grade(current, Number(event.key));
      else if (event.key in directions) done = direction(current, directions[event.key]);
      else return;
      if (done) select(current + 1);
    }
    event.preventDefault();
  });
});
