import { buttonClass } from "@/components/ui/button";
import { CalendarIcon } from "@/components/ui/icons";
import { calendarDetails, googleCalendarUrl, icsPathOf, outlookCalendarUrl } from "@/lib/guest/calendar-links";

type Props = {
  token: string;
  title: string;
  startTime: string;
  endTime: string;
  location: string;
  manageUrl: string;
};

/**
 * The booking into the guest's calendar three ways: the .ics invitation (any calendar; importing it
 * again updates the same event), or Google's and Outlook.com's own "new event" pages, filled in.
 * No hooks: the server-rendered manage page and the client confirmation share it.
 */
export function CalendarButtons({ token, title, startTime, endTime, location, manageUrl }: Props) {
  const event = { title, startTime, endTime, location, details: calendarDetails(manageUrl) };
  const away = { target: "_blank", rel: "noopener noreferrer" };
  return (
    <ul aria-label="Add to your calendar" className="flex flex-wrap gap-2">
      <li>
        <a href={icsPathOf(token)} download="booking.ics" className={buttonClass("secondary", "sm")}>
          <CalendarIcon className="size-4" />
          Add to calendar (.ics)
        </a>
      </li>
      <li>
        <a href={googleCalendarUrl(event)} {...away} className={buttonClass("secondary", "sm")}>
          Add to Google Calendar
        </a>
      </li>
      <li>
        <a href={outlookCalendarUrl(event)} {...away} className={buttonClass("secondary", "sm")}>
          Add to Outlook
        </a>
      </li>
    </ul>
  );
}
