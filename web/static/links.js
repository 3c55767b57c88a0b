// Seat links: one per seat and the arbiter, each opening the game's table as
// that seat, with the token in the URL's fragment (never sent to a server),
// and each as a QR code a phone at the table can scan.

import { post } from "./api.js";
import { h } from "./dom.js";
import { gameHash } from "./route.js";

export function seatLink(gameId, token, base = `${location.origin}${location.pathname}`) {
  return `${base}${gameHash(gameId, null, token)}`;
}

// Who gets a link, in seat order (`seats`, as the game lists them; a token
// map alone has no order a player would recognise), then the arbiter.
export function linkRows(seatTokens, arbiterToken, seats = []) {
  const ordered = seats.filter((seat) => seat in seatTokens);
  const rest = Object.keys(seatTokens)
    .filter((seat) => !ordered.includes(seat))
    .sort();
  return [...[...ordered, ...rest].map((seat) => [seat, seatTokens[seat]]), ["arbiter", arbiterToken]];
}

// The links as a list; each QR code comes from the front end (segno), the
// link in the request's body, never in its URL.
export function renderLinks(container, gameId, seatTokens, arbiterToken, seats = []) {
  const rows = linkRows(seatTokens, arbiterToken, seats);
  container.replaceChildren(
    ...rows.map(([who, token]) => {
      const link = seatLink(gameId, token);
      const qr = h("div", { class: "qr", role: "img", "aria-label": `QR code of ${who}'s link` });
      post("/api/qr", { text: link }).then(
        (answer) => (qr.innerHTML = answer.svg),
        () => (qr.textContent = "no QR code"),
      );
      return h(
        "li",
        { class: "seat-link", dataset: { seat: who } },
        qr,
        h(
          "div",
          {},
          h("b", {}, who),
          h("a", { href: link, class: "link" }, link),
          h("button", { type: "button", class: "quiet", onclick: () => navigator.clipboard?.writeText(link) }, "Copy"),
        ),
      );
    }),
  );
}
