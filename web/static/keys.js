// The tokens this page was given, and which one it looks through.
// They live in this page's memory only (and in the URL's fragment when they
// came that way): never in storage, never sent anywhere but in a header.

export class Keyring {
  constructor(select) {
    this.select = select;
    this.entries = [];
    this.active = null; // null: a spectator
    this.gameId = null;
  }

  // The token's entry, added once; the first one gets number 1.
  add(token, fromFragment = false) {
    let entry = this.entries.find((e) => e.token === token);
    if (!entry) {
      entry = { id: this.entries.length + 1, token, fromFragment, labels: new Map() };
      this.entries.push(entry);
    }
    entry.fromFragment ||= fromFragment;
    return entry;
  }

  use(entry) {
    this.active = entry;
    this.render();
  }

  get token() {
    return this.active ? this.active.token : null;
  }

  // A key for caches: what this viewer sees differs from what another sees.
  get viewerKey() {
    return this.active ? `k${this.active.id}` : "spectator";
  }

  // What the service said this token is in the current game.
  learn(entry, viewer) {
    if (entry && this.gameId) entry.labels.set(this.gameId, viewer);
    this.render();
  }

  label(entry) {
    const viewer = entry.labels.get(this.gameId);
    if (viewer === "#arbiter") return `arbiter (token ${entry.id})`;
    if (viewer) return `${viewer} (token ${entry.id})`;
    return `token ${entry.id} …${entry.token.slice(-4)}`;
  }

  render() {
    const options = [new Option("spectator", "")];
    for (const entry of this.entries) options.push(new Option(this.label(entry), String(entry.id)));
    this.select.replaceChildren(...options);
    this.select.value = this.active ? String(this.active.id) : "";
  }

  byId(id) {
    return this.entries.find((e) => String(e.id) === String(id)) || null;
  }
}
