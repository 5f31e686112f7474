// What a hand form records beyond its counts, in the page's words: each group of chips whose choice is
// recorded brings its line (data-says, "king of hearts: {choice}"), said beside Save and kept with a hand
// waiting to send.

function visible(group) { return !group.closest("[hidden]"); }

// "king of hearts: Cid", "Went out first: Bob", one line per group chosen, in the form's order.
export function chosen(form) {
  const lines = [];
  form.querySelectorAll("[data-says]").forEach((group) => {
    const input = group.querySelector("input:checked"), label = input && input.closest("label");
    if (!input || !input.value || !label || !visible(group)) { return; }
    const choice = label.textContent.replace(/\s+/g, " ").trim();
    lines.push(group.dataset.says.replace("{choice}", () => choice));
  });
  return lines;
}
