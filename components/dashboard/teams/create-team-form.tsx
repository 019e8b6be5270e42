"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { createTeam, teamKeys, type TeamDto } from "@/lib/browser/api-client/teams";
import { newTeamRules, TEAM_FIELDS, type TeamValues } from "@/lib/forms/team";
import { TeamFields } from "./team-fields";

/** A new team (POST /me/teams): the caller becomes its owner; then its page, to invite and add event types. */
export function CreateTeamForm({ appUrl }: { appUrl: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { form, formRef, onSubmit, showServerIssues, showServerError } = useApiForm<TeamValues>({ rules: newTeamRules, defaultValues: { name: "", slug: "", bio: "" } });
  const [failure, setFailure] = useState<string | null>(null);
  const create = useMutation<TeamDto, ApiError, TeamValues>({ mutationFn: (v) => createTeam({ slug: v.slug.trim(), name: v.name }) });

  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      try {
        const team = await create.mutateAsync(values);
        queryClient.setQueryData<TeamDto>(teamKeys.team(team.id), team);
        void queryClient.invalidateQueries({ queryKey: teamKeys.all });
        router.push(`/dashboard/teams/${team.id}`);
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        if (error.status === 401) return; // the dashboard is taking the person to /login
        if (error.code === "conflict" && error.details.field === "slug") return showServerError("slug", "Another team has this link. Choose another.");
        const unplaced = showServerIssues(error.issues, (path) => (TEAM_FIELDS.includes(path) ? path : undefined));
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => setFailure(null),
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="create-team-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="create-team-heading" className="text-lg font-semibold">
        Create a team
      </h2>
      <p className="text-sm text-slate-600">You become its owner. Then invite people by their username and give the team event types that any or all of you host.</p>
      <TeamFields form={form} appUrl={appUrl} followName />
      {failure && <Alert tone="error">{failure}</Alert>}
      <Button type="submit" disabled={create.isPending} className="self-start">
        {create.isPending ? "Creating…" : "Create team"}
      </Button>
    </form>
  );
}
