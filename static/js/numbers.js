// The numbers the page hands its modules: in fields, attributes and choices.

// A whole number from a field, an attribute or a choice; NaN for anything else ("" is 0).
export function whole(text) {
  const n = Number(text);
  return Number.isInteger(n) ? n : NaN;
}
