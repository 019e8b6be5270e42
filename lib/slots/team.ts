import { computeSlots, slotsValidUntil, type Slot, type SlotInput } from "./index";

// Team event types (decisions §15): each host's free starts come from the same engine with that
// host's own hours, zone, notice, window and busy time; round robin offers a start when at least
// one host could take it alone (the union), collective when every host could (the intersection).
// Pure like the rest of lib/slots: no clock, no database; `now` and the hosts' data are inputs.

export type SchedulingType = "round_robin" | "collective";

/** A team slot, with the hosts free for it (by id, in the order the hosts were given). */
export type TeamSlot = Slot & { hostIds: string[] };

export type TeamHostInput = { hostId: string; input: SlotInput };

/** Combines each host's slots by start instant: the union (round robin) or the intersection (collective). */
export function combineHostSlots(type: SchedulingType, perHost: { hostId: string; slots: Slot[] }[]): TeamSlot[] {
  if (perHost.length === 0) return [];
  const byStart = new Map<number, TeamSlot>();
  for (const { hostId, slots } of perHost) {
    for (const slot of slots) {
      const seen = byStart.get(slot.start);
      if (!seen) byStart.set(slot.start, { ...slot, hostIds: [hostId] });
      else {
        seen.hostIds.push(hostId);
        // A collective seated start's seats are the same bookings on every host: the fewest left is what is left.
        if (slot.seatsRemaining !== undefined) seen.seatsRemaining = Math.min(seen.seatsRemaining ?? Infinity, slot.seatsRemaining);
      }
    }
  }
  const all = [...byStart.values()].sort((a, b) => a.start - b.start);
  return type === "collective" ? all.filter((s) => s.hostIds.length === perHost.length) : all;
}

/** The team's slots over the range each host's input names (the same range and event type for all). */
export function computeTeamSlots(type: SchedulingType, hosts: TeamHostInput[]): TeamSlot[] {
  return combineHostSlots(
    type,
    hosts.map(({ hostId, input }) => ({ hostId, slots: computeSlots(input) })),
  );
}

/**
 * The open starts of an event type's hosts, and until when the answer holds for a later `now`: the
 * soonest instant any host's own slots could change (slotsValidUntil of each host). The one slot
 * function of the public lists: a personal event type is a team of one (issue 38), and for one
 * host this is the engine's own answer, untouched (the union and the intersection of one list
 * are that list; a property test holds the two paths equal).
 */
export function computeTeamSlotsUntil(type: SchedulingType, hosts: TeamHostInput[]): { slots: Slot[]; validUntil: number } {
  if (hosts.length === 1) return soleHostSlotsUntil(hosts[0]!.input);
  const perHost = hosts.map(({ hostId, input }) => ({ hostId, input, slots: computeSlots(input) }));
  return {
    slots: combineHostSlots(type, perHost),
    validUntil: Math.min(...perHost.map(({ input, slots }) => slotsValidUntil(input, slots))),
  };
}

/** One host's slots as the engine gives them: no per-start host list, no copy, no sort. */
function soleHostSlotsUntil(input: SlotInput): { slots: Slot[]; validUntil: number } {
  const slots = computeSlots(input);
  return { slots, validUntil: slotsValidUntil(input, slots) };
}

export type RoundRobinCandidate = {
  userId: string;
  /** Non-cancelled bookings of this event type starting in the 30 days before the chosen start. */
  recentBookings: number;
  /** When this host was last booked for this event type (epoch ms), undefined if never. */
  lastBookedAt: number | undefined;
};

/**
 * The round-robin host for a start, among the hosts free at it (decisions §15): the fewest recent
 * bookings of this event type, then the least recently booked (never booked first), then the
 * lowest userId. Undefined when no host is free.
 */
export function pickRoundRobinHost(candidates: RoundRobinCandidate[]): string | undefined {
  const order = (a: RoundRobinCandidate, b: RoundRobinCandidate) =>
    a.recentBookings - b.recentBookings ||
    (a.lastBookedAt ?? -Infinity) - (b.lastBookedAt ?? -Infinity) ||
    (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);
  return [...candidates].sort(order)[0]?.userId;
}
