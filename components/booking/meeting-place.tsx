import { isWebAddress } from "@/lib/meeting-location";

/** A place as text, or a meeting link as a link (opened in a tab of its own). */
export function MeetingPlace({ location }: { location: string }) {
  if (!isWebAddress(location)) return <>{location}</>;
  return (
    <a href={location.trim()} target="_blank" rel="noopener noreferrer" className="break-all underline underline-offset-2">
      {location.trim()}
    </a>
  );
}
