// Tournaments: the events found in the games' tags, each with its rounds
// and tables; standings once the service offers them.

import { get } from "./api.js";
import { eventHash, gameHash, tournamentHash } from "./route.js";

function element(tag, text = "", className = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function resultWords(result) {
  if (!result) return "";
  const ranking = result.ranking || [];
  const scores = result.scores || {};
  const first = ranking[0] || [];
  const score = (seat) => (seat in scores ? ` ${scores[seat]}` : "");
  return `won by ${first.map((s) => `${s}${score(s)}`).join(" and ")}`;
}

export async function showEvents(container) {
  container.replaceChildren(element("p", "loading…", "muted"));
  let found;
  try {
    found = await get("/api/events");
  } catch (error) {
    container.replaceChildren(element("p", error.message, "error"));
    return;
  }
  const note = element("p", found.note, "note");
  const byId = tournamentList(found.tournaments || []);
  if (!found.events.length) {
    container.replaceChildren(
      ...byId,
      note,
      element("p", "No game carries an Event tag yet (gamelog new … --tag Event=…).", "muted"),
    );
    return;
  }
  const list = element("ul", "", "events");
  for (const event of found.events) {
    const li = element("li");
    const link = element("a", event.name);
    link.href = eventHash(event.name);
    const rounds = event.rounds.length ? ` · rounds ${event.rounds.join(", ")}` : "";
    li.append(link, element("span", ` ${event.games} games, ${event.running} running${rounds}`, "meta"));
    list.append(li);
  }
  container.replaceChildren(...byId, note, list);
}

// gamelog's tournaments, newest first, each by its id (two of one name stay two).
function tournamentList(tournaments) {
  if (!tournaments.length) return [];
  const list = element("ul", "", "events tournaments-by-id");
  for (const t of tournaments) {
    const li = element("li");
    const link = element("a", t.name);
    link.href = tournamentHash(t.tournament_id);
    const where = [t.site, t.dates].filter(Boolean).join(", ");
    const words = ` ${t.tournament_id.slice(0, 8)} · ${t.game}${where ? ` · ${where}` : ""} · ${t.finished ? "finished" : "running"}`;
    li.append(link, element("span", words, "meta"));
    list.append(li);
  }
  return [element("h3", "Tournaments"), list];
}

export async function showEvent(container, name, tournament = "") {
  container.replaceChildren(element("p", "loading…", "muted"));
  let found;
  try {
    const query = tournament ? { tournament } : { name };
    found = await get(`/api/event?${new URLSearchParams(query)}`);
  } catch (error) {
    container.replaceChildren(element("p", error.message, "error"));
    return;
  }
  const parts = [element("h1", found.name)];
  const standings = element("section", "", "standings");
  standings.append(element("h3", "Standings"));
  if (!found.standings) standings.append(element("p", found.note, "note"));
  for (const tournament of found.standings || []) {
    standings.append(standingsTable(tournament), sheetLinks(tournament));
  }
  parts.push(standings);
  for (const round of found.rounds) {
    const section = element("section", "", "round");
    section.append(element("h3", round.round ? `Round ${round.round}` : "Without a round"));
    const table = element("table", "", "tables");
    const head = element("tr");
    for (const title of ["Table", "Game", "Players", "Result"]) head.append(element("th", title));
    table.append(head);
    for (const t of round.tables) {
      const tr = element("tr");
      const link = element("a", t.table ? `Table ${t.table}` : t.game_id.slice(0, 8));
      link.href = gameHash(t.game_id);
      const cell = element("td");
      cell.append(link);
      tr.append(
        cell,
        element("td", t.game),
        element("td", t.seats.join(", ")),
        element("td", t.finished ? resultWords(t.result) || "finished" : "running"),
      );
      table.append(tr);
    }
    section.append(table);
    parts.push(section);
  }
  container.replaceChildren(...parts);
}

// Each paired round on paper: the pairing list for the wall and the result slips.
function sheetLinks(tournament) {
  const line = element("p", "", "sheets");
  if (!tournament.rounds) return line;
  line.append(element("span", "Print "));
  const base = `/tournaments/${encodeURIComponent(tournament.tournament_id)}/rounds`;
  for (let r = 1; r <= tournament.rounds; r += 1) {
    if (r > 1) line.append(document.createTextNode(" · "));
    line.append(document.createTextNode(`round ${r}: `));
    for (const [sheet, words] of [["pairings", "pairings"], ["slips", "result slips"]]) {
      const link = element("a", words);
      link.href = `${base}/${r}/${sheet}`;
      link.target = "_blank";
      line.append(link);
      if (sheet === "pairings") line.append(document.createTextNode(", "));
    }
  }
  return line;
}

// One tournament's standings: place, player, points, the tie-breaks, points by round.
function standingsTable(tournament) {
  if (tournament.error) return element("p", tournament.error, "error");
  const table = element("table", "", "tables standings-table");
  const rounds = tournament.rows.length ? tournament.rows[0].by_round.length : 0;
  const head = element("tr");
  const titles = ["Place", "Player", "Points", ...tournament.tiebreaks];
  for (let r = 1; r <= rounds; r += 1) titles.push(`R${r}`);
  titles.push("Rating");
  for (const title of titles) head.append(element("th", title));
  table.append(head);
  for (const row of tournament.rows) {
    const tr = element("tr");
    tr.dataset.player = row.player;
    // Points come as decimal numbers (6.5); a round without a result is null.
    for (const cell of [row.place, row.name, row.points, ...row.tiebreaks, ...row.by_round]) {
      tr.append(element("td", cell === null ? "–" : String(cell)));
    }
    // The rating across events; the player's page draws its history.
    const rating = element("td");
    if (row.rating !== null && row.rating !== undefined) {
      const link = element("a", row.rating.toFixed(2));
      link.href = `/players/${encodeURIComponent(row.player)}`;
      rating.append(link);
    } else {
      rating.textContent = "–";
    }
    tr.append(rating);
    table.append(tr);
  }
  const caption = element("caption", `${tournament.name}${tournament.finished ? " (final)" : ""}`);
  table.prepend(caption);
  return table;
}
