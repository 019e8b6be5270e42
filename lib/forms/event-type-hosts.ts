import type { SchedulingType } from "@/lib/browser/api-client/event-types";
import type { TeamMemberDto } from "@/lib/browser/api-client/teams";

// Who hosts a team's event type and how a booking goes to them (decisions §15): the choices the
// form offers and the words the pages use for them.

export const SCHEDULING_TYPES: { value: SchedulingType; label: string; hint: string }[] = [
  { value: "round_robin", label: "Round robin", hint: "Each booking goes to whichever host is free, spread evenly." },
  { value: "collective", label: "Collective", hint: "Every host must be free, and every host attends." },
];

export const schedulingLabel = (type: SchedulingType) => SCHEDULING_TYPES.find((t) => t.value === type)?.label ?? type;

/** Who may host: the team's active members (an invited one cannot, decisions §15). */
export const possibleHosts = (members: TeamMemberDto[]) => members.filter((m) => m.status === "active");
