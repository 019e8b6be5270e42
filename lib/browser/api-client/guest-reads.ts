import { ReadCache } from "./read-cache";
import type { SlotRange } from "./public";

// The guest pages' read cache (one per browser tab) and its keys.

export const guestReads = new ReadCache();

/** Every kept slot list of one event type, whatever the range and zone: what a taken slot refreshes. */
export const slotsPrefix = (username: string, slug: string) => `slots|${username}|${slug}|`;

export const slotsKey = (username: string, slug: string, range: SlotRange) => `${slotsPrefix(username, slug)}${range.from}|${range.to}|${range.timezone}`;
