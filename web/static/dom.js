// One small helper for building the page's elements:
//   h("button", { class: "choice", dataset: { move: "{}" }, onclick: f }, "label")
// Attributes by name; `class`, `dataset`, `style` (an object) and `on…`
// handlers are understood; children are nodes, strings or arrays of them
// (null and false are skipped). Text is always set as text, never as markup.

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style") Object.assign(element.style, value);
    else if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name in element && typeof value !== "string") element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

// An SVG icon from a path, drawn in the text's colour (a glyph such as ⑂
// renders as a box where the system font lacks it).
export function icon(path, label = "") {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "icon");
  if (label) svg.setAttribute("aria-label", label);
  else svg.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS("http://www.w3.org/2000/svg", "path");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

export const BRANCH_ICON =
  "M4 1.5a2 2 0 0 1 1 3.73V7c.8-.6 1.8-.9 3-.9 1.6 0 2.6-.7 2.9-1.9A2 2 0 1 1 12.4 4.3C12 6.4 10.3 7.6 8 7.6c-1.7 0-2.7.7-3 2v1.17a2 2 0 1 1-1.5 0V5.23A2 2 0 0 1 4 1.5z";
