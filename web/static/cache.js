// Positions already fetched, so a step back or forth redraws at once.
// Least recently used first out, within a budget of characters (a Hadara
// table is some 70 kB of SVG; a freeform one under 1 kB).

export class PositionCache {
  constructor(limitChars = 48 * 1024 * 1024) {
    this.limit = limitChars;
    this.entries = new Map();
    this.size = 0;
  }

  get(key) {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  has(key) {
    return this.entries.has(key);
  }

  set(key, entry) {
    this.delete(key);
    const size = (entry.svg?.length || 0) + (entry.text?.length || 0) + 256;
    this.entries.set(key, { ...entry, size });
    this.size += size;
    for (const [oldest, old] of this.entries) {
      if (this.size <= this.limit) break;
      this.entries.delete(oldest);
      this.size -= old.size;
    }
  }

  delete(key) {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.size -= entry.size;
    }
  }

  // Forget every position of one game (its records changed what a viewer sees).
  forget(prefix) {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }
}
