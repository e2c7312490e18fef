// Small DOM helpers: build elements declaratively and replace a container's children.

/** The children worth adding: nested lists flattened, null / undefined / false left out. */
function present(children) {
  return children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false);
}

/** An element: el("div", {class: "seat", dataset: {testid: "seat"}, onclick: f}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  node.append(...present(children));
  return node;
}

/** Replace every child of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren(...present(children));
  return node;
}
