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
    form.game.value = params.get("game") || "";
    form.event.value = params.get("event") || "";
    form.round.value = params.get("round") || "";
    form.status.value = params.get("status") || "";
    form.tag.value = params.getAll("tag").join(" ");
    const filters = {
      game: params.get("game") || "",
      event: params.get("event") || "",
      round: params.get("round") || "",
      status: params.get("status") || "",
      tag: params.getAll("tag").flatMap((t) => t.split(/\s+(?=[^=\s]+=)/)).filter(Boolean),
    };
    this.el.summary.textContent = "loading…";
    let games;
    try {
      games = await get(`/api/games${query(filters)}`);
    } catch (error) {
      this.el.summary.textContent = error.message;
      this.el.body.replaceChildren();
      return;
    }
    this.render(games);
  }

  render(games) {
    const rows = games.map((game) => this.row(game));
    this.el.body.replaceChildren(...rows);
    this.el.summary.textContent = games.length
      ? `${games.length} game${games.length === 1 ? "" : "s"}, newest first`
      : "no game matches";
    for (const [list, tag] of [[this.el.events, "Event"], [this.el.rounds, "Round"]]) {
      const values = [...new Set(games.map((g) => g.tags[tag]).filter(Boolean))].sort();
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
