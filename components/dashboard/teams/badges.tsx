import type { TeamRole } from "@/lib/browser/api-client/teams";

const badge = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium";

export function RoleBadge({ role }: { role: TeamRole }) {
  return <span className={`${badge} ${role === "owner" ? "bg-blue-100 text-blue-900" : "bg-slate-100 text-slate-700"}`}>{role === "owner" ? "Owner" : "Member"}</span>;
}

/** An invited member has not accepted yet, and cannot host until they do. */
export function InvitedBadge() {
  return <span className={`${badge} bg-amber-100 text-amber-900`}>Invited</span>;
}
