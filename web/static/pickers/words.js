// Small wording helpers the pickers share (pure).

// "everdeen_house-2" -> "Everdeen house 2"; "food-1-03" stays a card id.
export function placeName(id) {
  const text = String(id).replace(/_/g, " ").replace(/-(\d+)$/, " $1");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function andList(items) {
  const words = items.map(String);
  if (!words.length) return "nothing";
  if (words.length === 1) return words[0];
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

// The other seats of the game, as the view names them.
export function otherSeats(view, me) {
  return (view?.seats || []).filter((seat) => seat !== me);
}
