// The tree of branches a game belongs to: each game forked from a position
// of its parent, like variations in a chess study.

function short(id) {
  return id.slice(0, 8);
}

export function renderTree(container, tree, currentId) {
  const children = new Map();
  for (const node of tree.nodes) {
    if (node.parent) {
      if (!children.has(node.parent)) children.set(node.parent, []);
      children.get(node.parent).push(node);
    }
  }
  const byId = new Map(tree.nodes.map((n) => [n.game_id, n]));

  const branch = (node) => {
    const li = document.createElement("li");
    li.dataset.game = node.game_id;
    const link = document.createElement("a");
    link.href = `#/game/${encodeURIComponent(node.game_id)}`;
    link.textContent = short(node.game_id);
    link.title = node.game_id;
    const meta = document.createElement("span");
    meta.className = "meta";
    const parts = [];
    if (node.parent) parts.push(`from position ${node.parent_position}`);
    else parts.push("the root");
    parts.push(`${node.last_position} positions`);
    parts.push(node.finished ? "finished" : "running");
    meta.textContent = parts.join(" · ");
    li.append(link, meta);
    if (node.game_id === currentId) {
      li.classList.add("current");
      link.setAttribute("aria-current", "page");
    }
    const below = children.get(node.game_id) || [];
    if (below.length) {
      const ul = document.createElement("ul");
      for (const child of below) ul.append(branch(child));
      li.append(ul);
    }
    return li;
  };

  const root = byId.get(tree.root) || tree.nodes[0];
  const ul = document.createElement("ul");
  ul.className = "tree";
  if (root) ul.append(branch(root));
  container.replaceChildren(ul);
  return children.get(currentId) || [];
}
