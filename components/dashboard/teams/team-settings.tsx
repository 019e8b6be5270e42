"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { deleteTeam, teamKeys, updateTeam, type TeamDto } from "@/lib/browser/api-client/teams";
import { TextAreaField } from "@/components/ui/form-field";
import { TEAM_FIELDS, teamChangeBody, teamChangeRules, type TeamValues } from "@/lib/forms/team";
import { BIO_MAX } from "@/lib/schemas/common";
import { TeamFields } from "./team-fields";

function RenameTeam({ team, appUrl }: { team: TeamDto; appUrl: string }) {
  const queryClient = useQueryClient();
  const { form, formRef, onSubmit, showServerIssues, showServerError } = useApiForm<TeamValues>({
    rules: teamChangeRules,
    defaultValues: { name: team.name, slug: team.slug, bio: team.bio ?? "" },
  });
  const [slug, bio] = useWatch({ control: form.control, name: ["slug", "bio"] });
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation<TeamDto, ApiError, TeamValues>({ mutationFn: (v) => updateTeam(team.id, teamChangeBody(v)) });
  useEffect(() => form.subscribe({ formState: { values: true }, callback: () => setSaved(false) }), [form]);

  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      try {
        const stored = await save.mutateAsync(values);
        queryClient.setQueryData<TeamDto>(teamKeys.team(stored.id), stored);
        void queryClient.invalidateQueries({ queryKey: teamKeys.all });
        form.reset({ name: stored.name, slug: stored.slug, bio: stored.bio ?? "" });
        setSaved(true);
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        if (error.status === 401) return;
        if (error.code === "conflict" && error.details.field === "slug") return showServerError("slug", "Another team has this link. Choose another.");
        const unplaced = showServerIssues(error.issues, (path) => (TEAM_FIELDS.includes(path) ? path : undefined));
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => setSaved(false),
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="rename-heading" className="flex flex-col gap-4">
      <h3 id="rename-heading" className="font-semibold">
        Name, link and bio
      </h3>
      <TeamFields form={form} appUrl={appUrl} followName={false} />
      <TextAreaField
        control={form.control}
        name="bio"
        label="Bio"
        hint={`A few words guests read on the team's page, under its name. ${bio.trim().length} of ${BIO_MAX} characters.`}
        rows={3}
      />
      {slug.trim() !== team.slug && (
        <Alert tone="warning">Changing the link moves the team&apos;s pages: links with {team.slug} (shared, bookmarked, embedded) stop working.</Alert>
      )}
      <div aria-live="polite">
        {saved && <Alert tone="success">Saved.</Alert>}
        {failure && <Alert tone="error">{failure}</Alert>}
      </div>
      <Button type="submit" disabled={save.isPending} className="self-start">
        {save.isPending ? "Saving…" : "Save"}
      </Button>
    </form>
  );
}

/** Delete the team: refused (409) while it has bookings, with the API's words for why. */
function DeleteTeam({ team }: { team: TeamDto }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation<undefined, ApiError>({
    mutationFn: () => deleteTeam(team.id),
    onSuccess: () => {
      setOpen(false);
      queryClient.removeQueries({ queryKey: teamKeys.team(team.id) });
      router.push("/dashboard/teams");
      void queryClient.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
  return (
    <div className="flex flex-col items-start gap-2 border-t border-slate-200 pt-4">
      <h3 className="font-semibold">Delete the team</h3>
      <p className="text-sm text-slate-600">Its page and event types go for good. A team with bookings cannot be deleted.</p>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Delete team
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete ${team.name}?`}
        confirmLabel="Delete team"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => {
          setOpen(false);
          remove.reset();
        }}
      >
        <p>Its page, its event types and its members&apos; places in it are removed. Guests can no longer book it.</p>
        {remove.isError && (
          <Alert tone="error" className="mt-3">
            {remove.error.message}
          </Alert>
        )}
      </ConfirmDialog>
    </div>
  );
}

/** The owner's settings of the team: its name and link, and deleting it. */
export function TeamSettings({ team, appUrl }: { team: TeamDto; appUrl: string }) {
  return (
    <section aria-labelledby="settings-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="settings-heading" className="text-lg font-semibold">
        Team settings
      </h2>
      <RenameTeam team={team} appUrl={appUrl} />
      <DeleteTeam team={team} />
    </section>
  );
}
