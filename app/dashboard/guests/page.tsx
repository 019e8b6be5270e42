import type { Metadata } from "next";
import { GuestsPage } from "@/components/dashboard/guests/guests-page";
import { Prefetched } from "@/app/dashboard/prefetched";

export const metadata: Metadata = { title: "Guests" };

export default function DashboardGuestsPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Guests</h1>
      <Prefetched resources={["me"]}>
        <GuestsPage />
      </Prefetched>
    </>
  );
}
