// The "New game" form: a game, its seats, tags, options, an undo policy and
// a clock, checked against the game's published option schema before it is
// sent; the answer is one link (and QR code) per seat.

import { post } from "./api.js";
import { h } from "./dom.js";
import { renderLinks } from "./links.js";

// What is wrong with the form's values, or the CreateGame body (pure).
export function newGameBody(type, form) {
  const seats = form.seats.split(/[\s,]+/).filter(Boolean);
  if (seats.length < type.min_players || seats.length > type.max_players) {
    return { error: `${type.title || type.name} is played by ${type.min_players} to ${type.max_players} players` };
  }
  const tags = {};
  for (const line of form.tags.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const cut = line.indexOf("=");
    if (cut <= 0) return { error: `the tag "${line}" is not Key=Value` };
    tags[line.slice(0, cut).trim()] = line.slice(cut + 1).trim();
  }
  if (form.clock) {
    if (!/^\d+(\+\d+)?$/.test(form.clock)) return { error: "a clock is seconds per seat, and + seconds a move: 300+5" };
    tags.TimeControl = form.clock;
  }
  let options = {};
  if (form.options.trim()) {
    try {
      options = JSON.parse(form.options);
    } catch {
      return { error: "the options are not JSON" };
    }
    if (!options || typeof options !== "object" || Array.isArray(options)) return { error: "the options are a JSON object" };
  }
  const schema = type.schemas?.options;
  if (schema?.properties && schema.additionalProperties === false) {
    const unknown = Object.keys(options).filter((key) => !(key in schema.properties));
    if (unknown.length) return { error: `${type.name} takes no option ${unknown.join(", ")} (it takes ${Object.keys(schema.properties).join(", ")})` };
  }
  return { body: { game: type.name, seats, tags, options, undo_policy: form.undo } };
}

export class NewGame {
  constructor(section) {
    this.section = section;
    this.types = [];
  }

  setGameTypes(types) {
    this.types = types;
  }

  show() {
    const types = this.types;
    const message = h("p", { class: "form-error", role: "alert" });
    const links = h("ol", { class: "seat-links", id: "new-links" });
    const optionsHelp = h("small", { id: "options-help" });
    const select = h("select", { name: "game", id: "new-game-type" }, types.map((t) => h("option", { value: t.name }, t.title || t.name)));
    const describeOptions = () => {
      const type = types.find((t) => t.name === select.value);
      const props = Object.keys(type?.schemas?.options?.properties || {});
      optionsHelp.textContent = props.length ? `options: ${props.join(", ")}` : "";
    };
    select.addEventListener("change", describeOptions);
    const form = h(
      "form",
      {
        class: "new-game",
        onsubmit: async (event) => {
          event.preventDefault();
          const type = types.find((t) => t.name === select.value);
          const made = newGameBody(type, {
            seats: form.seats.value,
            tags: form.tags.value,
            options: form.options.value,
            undo: form.undo.value,
            clock: form.clock.value.trim(),
          });
          if (made.error) {
            message.textContent = made.error;
            return;
          }
          message.textContent = "";
          try {
            const created = await post("/api/games", made.body);
            links.dataset.game = created.game_id;
            renderLinks(links, created.game_id, created.seat_tokens, created.arbiter_token, created.seats);
          } catch (error) {
            message.textContent = error.message;
          }
        },
      },
      h("label", { for: "new-game-type" }, "Game", select),
      h("label", {}, "Seats (names, comma-separated)", h("input", { name: "seats", required: true, placeholder: "ann, ben, cy", autocomplete: "off" })),
      h("label", {}, "Tags (Key=Value, one a line)", h("textarea", { name: "tags", rows: 2, placeholder: "Event=Club night" })),
      h("label", {}, "Options (JSON)", h("textarea", { name: "options", rows: 2, placeholder: "{}" }), optionsHelp),
      h(
        "label",
        {},
        "Take-backs",
        h(
          "select",
          { name: "undo" },
          h("option", { value: "consent" }, "with every other seat's consent"),
          h("option", { value: "free" }, "free"),
          h("option", { value: "arbiter" }, "by the arbiter only"),
          h("option", { value: "none" }, "none"),
        ),
      ),
      h("label", {}, "Clock (seconds each + a move, optional)", h("input", { name: "clock", placeholder: "300+5", autocomplete: "off" })),
      message,
      h("button", { type: "submit" }, "Create the game"),
    );
    describeOptions();
    this.section.replaceChildren(
      h("h1", {}, "New game"),
      form,
      h("h2", {}, "Seat links"),
      h("p", { class: "hint" }, "Each link holds its seat's secret token: hand it to that seat only (the QR code for a phone at the table)."),
      links,
    );
  }
}
