// One sender per phone: two tabs open on the same match must not both send the hands kept, or the
// second copy of a hand races the first. The Web Locks API queues the tabs' rounds of sending; a
// browser without it takes a lease in localStorage, which a tab renews while it sends and gives back
// after (a tab closed mid-round leaves a lease that lapses by itself).
import { newKey } from "./hands.js";

const LOCK = "scorekeeper.sender", LEASE = 15000;  // ms a lease holds without being renewed
const tab = newKey();

function lease() {
  try { return JSON.parse(window.localStorage.getItem(LOCK)) || null; } catch (err) { return null; }
}

// Take the lease when it is free, lapsed or already this tab's; whether this tab holds it now.
export function renew() {
  const held = lease();
  if (held && held.tab !== tab && held.until > Date.now()) { return false; }
  try {
    window.localStorage.setItem(LOCK, JSON.stringify({ tab: tab, until: Date.now() + LEASE }));
  } catch (err) { return true; }  // nowhere to write a lease: nothing to share the hands with either
  const now = lease();
  return !now || now.tab === tab;  // another tab that wrote at the same moment keeps it
}

function release() {
  const held = lease();
  if (held && held.tab === tab) { window.localStorage.removeItem(LOCK); }
}

// Run work (a round of sending, returning a promise) as the phone's only sender; resolves to false when
// another tab holds the lease, so that the caller tries again later.
export function alone(work) {
  if (navigator.locks && navigator.locks.request) {
    return navigator.locks.request(LOCK, () => work().then(() => true));
  }
  if (!renew()) { return Promise.resolve(false); }
  return work().then(() => { release(); return true; }, (err) => { release(); throw err; });
}

export const RETRY = LEASE;
