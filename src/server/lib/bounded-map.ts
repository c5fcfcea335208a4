// Per-client memories (the argon2id pool's use, refusals and until when a client was told to
// wait) must not grow without end under a flood of new addresses: each is a Map kept in
// insertion order, where the oldest entry goes first.

/** Stores `value` under `key` as the newest entry; past `maxEntries`, the oldest entry is forgotten. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  map.delete(key); // re-inserted last: the map's order is oldest first
  map.set(key, value);
  if (map.size > maxEntries) map.delete(map.keys().next().value as K);
}
