"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { useController, type Control } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { changeRole, inviteMember, removeMember, teamKeys, type TeamDto, type TeamMemberDto, type TeamRole } from "@/lib/browser/api-client/teams";
import { inviteBody, inviteRules, type InviteValues } from "@/lib/forms/team";
import { InvitedBadge, RoleBadge } from "./badges";

const selectClass = "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm";

/** The team as the API now has it, in the list every teams page reads. */
function useRefreshTeams() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: teamKeys.all });
}

function RoleSelect({ team, member }: { team: TeamDto; member: TeamMemberDto }) {
  const refresh = useRefreshTeams();
  const change = useMutation<unknown, ApiError, TeamRole>({ mutationFn: (role) => changeRole(team.id, member.userId, role), onSuccess: () => void refresh() });
  const role = change.isPending && change.variables ? change.variables : member.role;
  return (
    <div className="flex flex-col gap-1">
      <select
        aria-label={`Role of ${member.fullName}`}
        value={role}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.target.value as TeamRole)}
        className={selectClass}
      >
        <option value="owner">Owner</option>
        <option value="member">Member</option>
      </select>
      {change.isError && <p className="text-sm text-red-700">{change.error.message}</p>}
    </div>
  );
}

/** Remove a member (owner), or leave (oneself): the last owner cannot leave, and the API says so. */
function RemoveMember({ team, member, isSelf }: { team: TeamDto; member: TeamMemberDto; isSelf: boolean }) {
  const router = useRouter();
  const refresh = useRefreshTeams();
  const [open, setOpen] = useState(false);
  const remove = useMutation<undefined, ApiError>({
    mutationFn: () => removeMember(team.id, member.userId),
    onSuccess: async () => {
      setOpen(false);
      if (isSelf) router.push("/dashboard/teams");
      await refresh();
    },
  });
  const invited = member.status === "invited";
  const label = isSelf ? "Leave team" : invited ? "Withdraw invitation" : "Remove";
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={isSelf ? `Leave ${team.name}` : `${label}: ${member.fullName}`}>
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        title={isSelf ? `Leave ${team.name}?` : invited ? `Withdraw the invitation to ${member.fullName}?` : `Remove ${member.fullName} from ${team.name}?`}
        confirmLabel={isSelf ? "Leave team" : invited ? "Withdraw" : "Remove"}
        cancelLabel={isSelf ? "Stay" : "Keep"}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => {
          setOpen(false);
          remove.reset();
        }}
      >
        <p>
          {isSelf
            ? "You stop hosting the team's event types. Bookings you already have stay as they are."
            : invited
              ? `${member.fullName} will no longer see the invitation.`
              : `${member.fullName} stops hosting the team's event types. Bookings they already have stay as they are.`}
        </p>
        {remove.isError && (
          <Alert tone="error" className="mt-3">
            {remove.error.message}
          </Alert>
        )}
      </ConfirmDialog>
    </>
  );
}

function MemberRow({ team, member, myUserId, owner }: { team: TeamDto; member: TeamMemberDto; myUserId: string; owner: boolean }) {
  const isSelf = member.userId === myUserId;
  // One's own invitation is declined where it is accepted (the page's invitation box).
  const canRemove = owner || (isSelf && member.status === "active");
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{member.fullName}</span>
          {isSelf && <span className="text-sm text-slate-500">(you)</span>}
          {member.status === "invited" && <InvitedBadge />}
          {!owner && <RoleBadge role={member.role} />}
        </p>
        <p className="truncate text-sm text-slate-600">@{member.username}</p>
      </div>
      {canRemove && (
        <div className="flex flex-wrap items-start gap-2">
          {owner && <RoleSelect team={team} member={member} />}
          <RemoveMember team={team} member={member} isSelf={isSelf} />
        </div>
      )}
    </li>
  );
}

function RoleField({ control }: { control: Control<InviteValues, undefined, InviteValues> }) {
  const id = useId();
  const {
    field: { ref, ...field },
  } = useController({ control, name: "role" });
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Role
      </label>
      <select id={id} ref={ref} name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} className={`${selectClass} py-2`}>
        <option value="member">Member: hosts and sees the team</option>
        <option value="owner">Owner: also changes the team</option>
      </select>
    </div>
  );
}

/** Invite by username (owner): the person sees the invitation on their Teams page and accepts it there. */
function InviteForm({ team }: { team: TeamDto }) {
  const refresh = useRefreshTeams();
  const { form, formRef, onSubmit, showServerIssues, showServerError } = useApiForm<InviteValues>({ rules: inviteRules, defaultValues: { username: "", role: "member" } });
  const [failure, setFailure] = useState<string | null>(null);
  const [invited, setInvited] = useState<string | null>(null);
  const invite = useMutation<TeamMemberDto, ApiError, InviteValues>({
    mutationFn: (v) => inviteMember(team.id, inviteBody(v)),
  });

  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      setInvited(null);
      try {
        const member = await invite.mutateAsync(values);
        form.reset({ username: "", role: values.role });
        setInvited(member.fullName);
        await refresh();
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        if (error.status === 401) return;
        if (error.status === 404) return showServerError("username", "No one has this username. Check the spelling.");
        // Past a cap on invitations waiting for an answer (the inviter's or the person's): the API's words.
        if (error.code === "conflict" && error.details.limit) return showServerError("username", error.message);
        if (error.code === "conflict") return showServerError("username", "This person is already a member or invited.");
        const unplaced = showServerIssues(error.issues, (path) => (path === "username" || path === "role" ? path : undefined));
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => setInvited(null),
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="invite-heading" className="flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id="invite-heading" className="font-semibold">
        Invite someone
      </h3>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
        <TextField
          control={form.control}
          name="username"
          label="Username"
          required
          hint="Their username on this site, as in their booking link. They accept on their Teams page."
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          maxLength={41}
        />
        <RoleField control={form.control} />
      </div>
      <div aria-live="polite">
        {invited && <Alert tone="success">{invited} is invited. They can host once they accept.</Alert>}
        {failure && <Alert tone="error">{failure}</Alert>}
      </div>
      <Button type="submit" disabled={invite.isPending} className="self-start">
        {invite.isPending ? "Inviting…" : "Send invitation"}
      </Button>
    </form>
  );
}

/** The team's members, their role and whether they accepted; owners invite, change roles and remove. */
export function TeamMembers({ team, myUserId, owner }: { team: TeamDto; myUserId: string; owner: boolean }) {
  // Owners first, then members; the invited after the active of each; by name within.
  const members = [...team.members].sort(
    (a, b) => Number(a.role !== "owner") - Number(b.role !== "owner") || Number(a.status === "invited") - Number(b.status === "invited") || a.fullName.localeCompare(b.fullName),
  );
  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="members-heading" className="text-lg font-semibold">
        Members
      </h2>
      <ul className="flex flex-col divide-y divide-slate-100">
        {members.map((m) => (
          <MemberRow key={m.userId} team={team} member={m} myUserId={myUserId} owner={owner} />
        ))}
      </ul>
      {owner && <InviteForm team={team} />}
    </section>
  );
}
