// Branches as variations: the game's tree (tree.js), a fork's inherited
// line (the parent's moves up to the branch point, numbered as the parent
// numbers them), and forking from the position on show.

import { get, post } from "./api.js";
import { renderLinks } from "./links.js";
import { gameHash } from "./route.js";
import { renderTree } from "./tree.js";

// The games from the root down to `gameId`, each with the position its child
// leaves it at (pure: the tree as /api/games/{id}/tree gives it).
export function ancestry(tree, gameId) {
  const byId = new Map(tree.nodes.map((n) => [n.game_id, n]));
  const chain = [];
  let node = byId.get(gameId);
  while (node && node.parent && byId.has(node.parent)) {
    chain.unshift({ game: node.parent, until: node.parent_position });
    node = byId.get(node.parent);
  }
  return chain;
}

export class Branches {
  constructor(elements, keyring, replay, say) {
    this.el = elements; // tree, forkButton, forkNote, dialog, forkId, forkAt, forkLinks
    this.keyring = keyring;
    this.replay = replay;
    this.say = say;
    elements.forkButton.addEventListener("click", () => this.fork());
    elements.dialog.addEventListener("close", () => this.closed());
  }

  async load() {
    const gameId = this.replay.gameId;
    let tree;
    try {
      tree = await get(`/api/games/${encodeURIComponent(gameId)}/tree`);
    } catch (error) {
      this.el.tree.textContent = error.message;
      return;
    }
    if (this.replay.gameId !== gameId) return;
    // The index may lag a running game by a few records: the page knows better.
    for (const node of tree.nodes) {
      if (node.game_id === gameId) node.last_position = Math.max(node.last_position, this.replay.last);
    }
    const children = renderTree(this.el.tree, tree, gameId);
    this.replay.moves.branches(children);
    await this.inherit(tree, gameId);
  }

  // A fork's move list begins with its ancestors' moves up to the branch points.
  async inherit(tree, gameId) {
    const chain = ancestry(tree, gameId);
    if (!chain.length) return;
    const inherited = [];
    let base = 0;
    for (const { game, until } of chain) {
      let records;
      try {
        records = await get(`/api/games/${encodeURIComponent(game)}/records`);
      } catch {
        return; // a parent this viewer may not read: the fork's own list stands alone
      }
      for (const record of records) {
        if (record.position === 0 || record.position > until) continue;
        inherited.push({ record, number: base + record.position, game });
      }
      base += until;
    }
    if (this.replay.gameId === gameId) this.replay.setBase(base, inherited);
  }

  update(entry) {
    const button = this.el.forkButton;
    const arbiter = entry.viewer === "#arbiter";
    const allowed = (this.replay.finished || arbiter) && !entry.finished;
    button.disabled = !allowed;
    button.textContent = `Fork from position ${this.replay.base + entry.position}`;
    let note = "";
    if (entry.finished) note = "The game is over at this position: step back to fork.";
    else if (!this.replay.finished && !arbiter) note = "A running game is forked by its arbiter: use the arbiter's token.";
    this.el.forkNote.textContent = note;
  }

  async fork() {
    const at = this.replay.position;
    const gameId = this.replay.gameId;
    let created;
    try {
      created = await post(`/api/games/${encodeURIComponent(gameId)}/fork`, { at }, this.keyring.token);
    } catch (error) {
      this.say(error.message);
      return;
    }
    const el = this.el;
    el.forkId.textContent = created.game_id;
    el.forkAt.textContent = at;
    renderLinks(el.forkLinks, created.game_id, created.seat_tokens, created.arbiter_token, created.seats);
    el.dialog.dataset.game = created.game_id;
    el.dialog.dataset.token = created.arbiter_token;
    el.dialog.showModal();
    this.load();
  }

  closed() {
    const dialog = this.el.dialog;
    const gameId = dialog.dataset.game;
    const token = dialog.dataset.token;
    delete dialog.dataset.token;
    this.el.forkLinks.replaceChildren(); // the tokens leave the page with the dialog
    if (dialog.returnValue === "open" && gameId) {
      this.keyring.use(this.keyring.add(token));
      location.hash = gameHash(gameId);
    }
  }
}
