"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { AvailabilityForm } from "@/components/dashboard/availability/availability-form";
import { SchedulePicker } from "@/components/dashboard/availability/schedule-picker";
import { availabilityQuery, schedulesQuery } from "@/lib/browser/api-client/availability";

export function AvailabilityClient() {
  const availability = useQuery(availabilityQuery());
  const schedules = useQuery(schedulesQuery());
  const [chosen, setChosen] = useState<string | undefined>();
  if (availability.isPending || schedules.isPending) return <Loading>Loading your availability…</Loading>;
  if (availability.isError) return <LoadError what="your availability" error={availability.error} onRetry={() => void availability.refetch()} />;
  if (schedules.isError) return <LoadError what="your schedules" error={schedules.error} onRetry={() => void schedules.refetch()} />;
  const list = schedules.data;
  const selected = list.find((s) => s.id === chosen) ?? list.find((s) => s.isDefault) ?? list[0];
  // The default schedule is /me/availability (with the host's notice and window); another one is
  // edited as a schedule. The hours come from the schedule either way (the list is what a change
  // of default refreshes first). Keyed by schedule: the form keeps its own draft, and a
  // background refetch never overwrites what is being edited.
  const initial = selected
    ? { ...availability.data, timezone: selected.timezone, weeklyRules: selected.weeklyRules, dateOverrides: selected.dateOverrides }
    : availability.data;
  return (
    <>
      {selected && <SchedulePicker schedules={list} selected={selected} onSelect={setChosen} />}
      <AvailabilityForm
        key={selected && !selected.isDefault ? selected.id : `default-${selected?.id ?? ""}`}
        initial={initial}
        schedule={selected && !selected.isDefault ? { id: selected.id, name: selected.name } : undefined}
      />
    </>
  );
}
