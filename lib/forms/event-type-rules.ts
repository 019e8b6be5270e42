import type { EventTypeOwner } from "@/lib/browser/api-client/event-types";
import { CreateEventTypeBody, UpdateEventTypeBody } from "@/lib/schemas/event-type";
import { CreateTeamEventTypeBody, UpdateTeamEventTypeBody } from "@/lib/schemas/team";
import { toEventTypeBody, type EventTypeValues } from "./event-type";
import { eventTypeFieldOf, eventTypeWords } from "./event-type-issues";
import type { FormRules } from "./resolver";

// What the event-type form is checked by before anything is sent: the API's own schema of the
// owner's request, a new one's (POST) or a change's (PATCH, every field sent), over the body the
// form would send; its problems at the same fields and in the same words whoever owns it.

export type EventTypeFormMode = "create" | "change";

const SCHEMAS = {
  me: { create: CreateEventTypeBody, change: UpdateEventTypeBody },
  team: { create: CreateTeamEventTypeBody, change: UpdateTeamEventTypeBody },
};

const rulesFor = (owner: EventTypeOwner["kind"], mode: EventTypeFormMode): FormRules<EventTypeValues> => ({
  schema: SCHEMAS[owner][mode],
  toBody: (values) => toEventTypeBody(values, owner),
  fieldOf: eventTypeFieldOf,
  words: eventTypeWords,
});

// Made once: the form's resolver is kept for as long as its rules are the same object.
const RULES = {
  me: { create: rulesFor("me", "create"), change: rulesFor("me", "change") },
  team: { create: rulesFor("team", "create"), change: rulesFor("team", "change") },
};

export const eventTypeRules = (owner: EventTypeOwner["kind"], mode: EventTypeFormMode): FormRules<EventTypeValues> => RULES[owner][mode];
