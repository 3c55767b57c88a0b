// The game list, newest first, filtered by game, tag, event, round and status.

import { get, query } from "./api.js";
import { gameHash, listHash } from "./route.js";

const TAGS_SHOWN = ["Event", "Round", "Table"];

export class GameList {
  constructor(elements, titles) {
    this.el = elements;
    this.titles = titles; // game name -> title
    elements.form.addEventListener("submit", (event) => {
      event.preventDefault();
      location.hash = listHash(this.filters());
    });
    elements.form.addEventListener("reset", () => {
      setTimeout(() => {
        location.hash = listHash({});
      });
    });
    elements.older.addEventListener("click", () => this.more());
    elements.body.addEventListener("click", (event) => {
      const row = event.target.closest("tr[data-game]");
      if (row && !event.target.closest("a")) location.hash = gameHash(row.dataset.game);
    });
  }

  filters() {
    const form = this.el.form;
    return {
      game: form.game.value,
      event: form.event.value.trim(),
      round: form.round.value.trim(),
      status: form.status.value,
      player: form.player.value.trim(),
      tag: form.tag.value.trim(),
    };
  }

  setGameTypes(types) {
    const select = this.el.form.game;
    const options = [new Option("any game", "")];
    for (const type of types) options.push(new Option(type.title || type.name, type.name));
    select.replaceChildren(...options);
  }

  async show(params) {
    const form = this.el.form;
    for (const name of ["game", "event", "round", "status", "player"]) form[name].value = params.get(name) || "";
    form.tag.value = params.getAll("tag").join(" ");
    this.wanted = {
      game: params.get("game") || "",
      event: params.get("event") || "",
      round: params.get("round") || "",
      status: params.get("status") || "",
      player: params.get("player") || "",
      tag: params.getAll("tag").flatMap((t) => t.split(/\s+(?=[^=\s]+=)/)).filter(Boolean),
    };
    this.el.body.replaceChildren();
    this.shown = [];
    this.asked = (this.asked || 0) + 1; // an answer to an earlier list is dropped
    this.listHash = location.hash;
    await this.load("");
  }

  // The next (older) page of the same list.
  async more() {
    if (this.next) await this.load(this.next);
  }

  async load(page) {
    const asked = this.asked;
    this.el.summary.dataset.hash = ""; // says which list is shown, once it is in
    this.el.summary.textContent = "loading…";
    this.el.older.hidden = true;
    let answer;
    try {
      answer = await get(`/api/games${query({ ...this.wanted, page })}`);
    } catch (error) {
      if (asked === this.asked) this.el.summary.textContent = error.message;
      return;
    }
    // Filters changed while this page was on its way: a newer list is shown.
    if (asked !== this.asked) return;
    this.shown.push(...answer.games);
    this.next = answer.next;
    this.el.body.append(...answer.games.map((game) => this.row(game)));
    const count = this.shown.length;
    this.el.summary.textContent = count
      ? `${count} game${count === 1 ? "" : "s"}${this.next ? " so far" : ""}, newest first`
      : "no game matches";
    this.el.older.hidden = !this.next;
    this.el.summary.dataset.hash = this.listHash;
    for (const [list, tag] of [[this.el.events, "Event"], [this.el.rounds, "Round"]]) {
      const values = [...new Set(this.shown.map((g) => g.tags[tag]).filter(Boolean))].sort();
      list.replaceChildren(...values.map((v) => new Option(v)));
    }
  }

  row(game) {
    const tr = document.createElement("tr");
    tr.dataset.game = game.game_id;
    const cells = [];
    const id = document.createElement("a");
    id.href = gameHash(game.game_id);
    id.textContent = game.game_id.slice(0, 8);
    id.title = game.game_id;
    id.className = "game-id";
    cells.push(id);
    cells.push(this.titles.get(game.game) || game.game);
    cells.push(game.seats.join(", "));
    const tags = TAGS_SHOWN.filter((t) => game.tags[t]).map((t) => `${t} ${game.tags[t]}`);
    const others = Object.entries(game.tags)
      .filter(([k]) => !TAGS_SHOWN.includes(k))
      .map(([k, v]) => `${k}=${v}`);
    cells.push([...tags, ...others].join(" · "));
    cells.push(String(game.last_position));
    const status = document.createElement("span");
    status.className = `status ${game.finished ? "finished" : "running"}`;
    status.textContent = game.finished ? "finished" : "running";
    if (game.parent) status.textContent += ` · branch of ${game.parent.game_id.slice(0, 8)}`;
    cells.push(status);
    cells.push(new Date(game.created_at).toLocaleString());
    for (const cell of cells) {
      const td = document.createElement("td");
      td.append(cell);
      tr.append(td);
    }
    return tr;
  }
}
