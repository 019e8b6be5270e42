import { buttonClass } from "@/components/ui/button";
import { CalendarIcon } from "@/components/ui/icons";
import { googleCalendarUrl, icsPathOf, outlookCalendarUrl } from "@/lib/guest/calendar-links";
import type { PageMessages } from "@/lib/i18n/en";

export type CalendarButtonLabels = { list: string; ics: string; google: string; outlook: string };

export const calendarLabels = (m: PageMessages): CalendarButtonLabels => ({ list: m.addToCalendar, ics: m.addIcs, google: m.addGoogle, outlook: m.addOutlook });

type Props = {
  token: string;
  title: string;
  startTime: string;
  endTime: string;
  location: string;
  /** What the calendar entry says besides its title: where to see or change the booking. */
  details: string;
  labels: CalendarButtonLabels;
};

/**
 * The booking into the guest's calendar three ways: the .ics invitation (any calendar; importing it
 * again updates the same event), or Google's and Outlook.com's own "new event" pages, filled in.
 * No hooks: the server-rendered manage page and the client confirmation share it.
 */
export function CalendarButtons({ token, title, startTime, endTime, location, details, labels }: Props) {
  const event = { title, startTime, endTime, location, details };
  const away = { target: "_blank", rel: "noopener noreferrer" };
  return (
    <ul aria-label={labels.list} className="flex flex-wrap gap-2">
      <li>
        <a href={icsPathOf(token)} download="booking.ics" className={buttonClass("secondary", "sm")}>
          <CalendarIcon className="size-4" />
          {labels.ics}
        </a>
      </li>
      <li>
        <a href={googleCalendarUrl(event)} {...away} className={buttonClass("secondary", "sm")}>
          {labels.google}
        </a>
      </li>
      <li>
        <a href={outlookCalendarUrl(event)} {...away} className={buttonClass("secondary", "sm")}>
          {labels.outlook}
        </a>
      </li>
    </ul>
  );
}
