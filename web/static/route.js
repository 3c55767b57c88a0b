// Where the page is, kept in the URL's fragment so a link reopens the same
// view. The fragment never reaches the front end, so a token in it is never
// logged:
//   #/games?game=panem&event=Club%20night     the game list, filtered
//   #/game/ID?at=12                           a game at position 12
//   #/game/ID?at=12&token=T                   ... as the token's viewer
//   #/tournaments, #/event?name=E             events and their tables
//   #/event?tournament=ID                     one tournament, by its id
//   #/new                                     the new-game form
//   #token=T                                  a token, then the game list

export function parseHash(hash) {
  const text = hash.replace(/^#/, "");
  let path = "";
  let search = text;
  if (text.startsWith("/")) {
    const cut = text.indexOf("?");
    path = cut < 0 ? text : text.slice(0, cut);
    search = cut < 0 ? "" : text.slice(cut + 1);
  }
  const params = new URLSearchParams(search);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "game" && parts[1]) {
    const at = params.get("at");
    return { view: "game", game: parts[1], at: /^\d+$/.test(at || "") ? Number(at) : null, params };
  }
  if (parts[0] === "tournaments") return { view: "tournaments", params };
  if (parts[0] === "new") return { view: "new", params };
  if (parts[0] === "event") return { view: "event", params };
  return { view: "games", params };
}

export function gameHash(gameId, at = null, token = null) {
  const params = new URLSearchParams();
  if (at !== null) params.set("at", String(at));
  if (token) params.set("token", token);
  const search = params.toString();
  return `#/game/${encodeURIComponent(gameId)}${search ? `?${search}` : ""}`;
}

export function listHash(filters) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    for (const one of [].concat(value)) if (one) params.append(key, one);
  }
  const search = params.toString();
  return `#/games${search ? `?${search}` : ""}`;
}

export function eventHash(name) {
  return `#/event?${new URLSearchParams({ name })}`;
}

// One tournament by its id: two events of one name stay apart.
export function tournamentHash(tournamentId) {
  return `#/event?${new URLSearchParams({ tournament: tournamentId })}`;
}
