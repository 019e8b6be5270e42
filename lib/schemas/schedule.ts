import { z } from "zod";
import { checkHours, DateOverrides, DateOverridesOut, WeeklyRules, WeeklyRulesOut } from "./availability";
import { PathSegment, Text, TimeZone } from "./common";

// Schedules (decisions §16): a host's named sets of hours, in the shape of /me/availability.

const Name = Text.trim().min(1, "A schedule needs a name").max(100);
const IsDefault = z.boolean().meta({ description: "true makes this the default schedule (the one /me/availability shows); the default cannot be unmarked, only replaced" });
const Zone = TimeZone.meta({
  description: "The zone the schedule's hours are read in. The default schedule's zone is the host's timezone: changing it here changes the host's",
});

export const CreateScheduleBody = z
  .strictObject({
    name: Name,
    timezone: Zone.optional().meta({ description: "Default: the host's timezone" }),
    weeklyRules: WeeklyRules.default([]),
    dateOverrides: DateOverrides.default([]),
    isDefault: IsDefault.default(false),
  })
  .superRefine(checkHours, { when: () => true });

export const UpdateScheduleBody = z
  .strictObject({
    name: Name,
    timezone: Zone.optional().meta({ description: "Left out: unchanged" }),
    weeklyRules: WeeklyRules,
    dateOverrides: DateOverrides,
    isDefault: IsDefault.optional(),
  })
  .superRefine(checkHours, { when: () => true });

export const ScheduleParams = z.object({ scheduleId: PathSegment });

export const Schedule = z
  .object({
    id: z.string(),
    name: z.string(),
    timezone: z.string(),
    weeklyRules: WeeklyRulesOut,
    dateOverrides: DateOverridesOut,
    isDefault: z.boolean(),
  })
  .meta({ id: "Schedule" });

export const ScheduleList = z.object({ data: z.array(Schedule) });
