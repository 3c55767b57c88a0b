// The move list: one line per stored record in the game's notation, as the
// viewer may see it; the current one highlighted, a click jumps to it.

import { BRANCH_ICON, h, icon } from "./dom.js";

export class MoveList {
  constructor(list, onJump) {
    this.list = list;
    this.items = [];
    this.current = null;
    this.scrollFrame = 0;
    list.addEventListener("click", (event) => {
      if (event.target.closest("a")) return; // a branch link opens the branch
      const item = event.target.closest("li[data-position]");
      if (item) onJump(Number(item.dataset.position));
    });
  }

  reset(records) {
    this.items = [];
    this.current = null;
    const fragment = document.createDocumentFragment();
    for (const record of records) fragment.append(this.item(record));
    this.list.replaceChildren(fragment);
    if (this.inherited?.length) this.inherit(this.inherited, this.base);
  }

  // A fork's list: the parent line's moves up to the branch point, marked
  // as the parent's, then its own, numbered on from the parent's.
  inherit(inherited, base) {
    for (const old of this.list.querySelectorAll("li.inherited")) old.remove();
    this.base = base;
    this.inherited = inherited;
    for (const li of this.items) {
      if (li) li.querySelector(".pos").textContent = base + Number(li.dataset.position);
    }
    const fragment = document.createDocumentFragment();
    for (const { record, number, game } of inherited) {
      const li = h(
        "li",
        { class: `inherited kind-${record.kind}`, title: `the parent line (game ${game.slice(0, 8)})` },
        h("span", { class: "pos" }, number),
        h("span", { class: "line" }, record.notation),
        h("span", { class: "from" }, "parent"),
      );
      fragment.append(li);
    }
    this.list.prepend(fragment);
  }

  append(record) {
    this.list.append(this.item(record));
  }

  item(record) {
    const li = document.createElement("li");
    li.dataset.position = record.position;
    li.className = `kind-${record.kind}`;
    const number = document.createElement("span");
    number.className = "pos";
    number.textContent = (this.base || 0) + record.position;
    const note = document.createElement("span");
    note.className = "line";
    note.textContent = record.notation;
    if (record.time) li.title = new Date(record.time).toLocaleString();
    li.append(number, note);
    this.items[record.position] = li;
    return li;
  }

  // Mark the positions where branches leave this game.
  branches(children) {
    for (const item of this.list.querySelectorAll("a.branch")) item.remove();
    for (const child of children) {
      const li = this.items[child.parent_position];
      if (!li) continue;
      li.append(
        h(
          "a",
          { class: "branch", href: `#/game/${encodeURIComponent(child.game_id)}`, title: `a branch starts here: ${child.game_id}` },
          icon(BRANCH_ICON),
          " branch",
        ),
      );
    }
  }

  highlight(position) {
    const item = this.items[position] || null;
    if (item === this.current) return;
    if (this.current) {
      this.current.classList.remove("current");
      this.current.removeAttribute("aria-current");
    }
    this.current = item;
    if (!item) return;
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    // Keep it in sight without moving the page: scroll the list alone, once
    // the board is drawn (reading a layout now would make the browser lay
    // out the page twice for one step).
    cancelAnimationFrame(this.scrollFrame);
    this.scrollFrame = requestAnimationFrame(() => {
      const list = this.list;
      const top = item.offsetTop; // the list is positioned: counted from its top
      if (top < list.scrollTop) list.scrollTop = top - 8;
      else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top + item.offsetHeight - list.clientHeight + 8;
      }
    });
  }
}
