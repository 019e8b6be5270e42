import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { bookingHosts, bookings } from "@/db/schema";
import { GET } from "@/app/api/v1/me/bookings/route";
import { CSV_STEP } from "@/lib/services/bookings/csv";
import { hashCancelToken } from "@/lib/services/bookings/store";
import { getDb } from "@/lib/store/database";
import { api, TEST_ORIGIN } from "../support/api";
import { insertBookingRow } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { as, teamWithType } from "../support/teams";

// GET /me/bookings?format=csv (decisions §22): the list's filters, every page, read back with an
// RFC 4180 parser: quoting, line breaks inside a field, the formula guard on what guests type,
// times in UTC and in the host's zone across a DST change. Runs again under TZ=America/New_York
// (vitest.config.mts): the process's zone must change nothing in the file.

withTestDatabase();

/** RFC 4180: fields split by commas, records ended by CRLF; a quoted field may hold both, and "" is a quote. Strict: anything else throws. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      // A quoted field, to its closing quote.
      for (i += 1; ; i += 1) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] !== '"') field += text[i];
        else if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else break;
      }
      i += 1;
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r") {
        if (text[i] === '"' || text[i] === "\n") throw new Error(`a bare ${JSON.stringify(text[i])} outside quotes at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ",") i += 1;
    else if (text.startsWith("\r\n", i)) {
      records.push(record);
      record = [];
      i += 2;
    } else throw new Error(`a field ends without a comma or CRLF at ${i}`);
  }
  if (record.length > 0) throw new Error("the last record does not end with CRLF");
  return records;
}

const csvOf = (host: TestHost, query: Record<string, string> = {}) => api.get(`/me/bookings?${new URLSearchParams({ format: "csv", ...query })}`, as(host));

function table(body: string) {
  const [header, ...rows] = parseCsv(body);
  return { header: header!, rows: rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) };
}

const ZONE = "Europe/Berlin";
const local = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: ZONE }).toJSDate();

describe("GET /me/bookings?format=csv", () => {
  it("writes a header and a row per booking that a parser reads back: quoting, answers, team and hosts, times in UTC and the host's zone, the formula guard", async () => {
    const host = await createHost({ timezone: ZONE, fullName: "Ada Host" });
    const colleague = await createHost({ fullName: "Bob, the Colleague" });
    const own = await createEventType(host, {
      title: "Intro, \"short\" call",
      customQuestions: [
        { id: "company", label: "Company", type: "text", required: false },
        { id: "topics", label: "Topics", type: "checkboxes", required: false, options: ["Pricing", "Support"] },
      ],
    });
    const { team, eventType: teamType } = await teamWithType(host, [colleague], { title: "Team demo", schedulingType: "collective" });
    // Before and after the EU's change to summer time (2027-03-28): +01:00, then +02:00.
    const plain = await insertBookingRow(host.id, own.id, local("2027-03-27", "09:00"), 30, {
      guestName: 'Grace "Gee" Guest, PhD',
      guestEmail: "grace@example.com",
      customAnswers: { company: "Acme\nBerlin", topics: "Pricing\nSupport" },
    });
    const hostile = await insertBookingRow(host.id, own.id, local("2027-03-29", "10:00"), 30, {
      guestName: '=HYPERLINK("http://evil.example","click")',
      guestEmail: "@evil.example",
      customAnswers: { company: "+1+2", gone: "-2" },
      status: "cancelled",
      cancelledBy: "guest",
    });
    const collective = await insertBookingRow(host.id, teamType.id, local("2027-03-30", "23:30"), 60, { noShow: true, guestName: "Tab\tin", guestEmail: "team@example.com" });
    await (await getDb()).insert(bookingHosts).values({
      bookingId: collective.row.id,
      userId: colleague.id,
      blockedStart: collective.row.blockedStart,
      blockedEnd: collective.row.blockedEnd,
      startTime: collective.row.startTime,
      status: "confirmed",
    });

    const res = await csvOf(host, { from: "2027-03-27", to: "2027-03-31" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="bookings-2027-03-27-2027-03-31.csv"');
    const { header, rows } = table(res.body as string);
    expect(header).toEqual([
      "ID",
      "Status",
      "Start (UTC)",
      "End (UTC)",
      `Start (${ZONE})`,
      `End (${ZONE})`,
      "Event type",
      "Guest name",
      "Guest email",
      "Answers",
      "Team",
      "Hosts",
      "Cancelled by",
      "No-show",
    ]);
    expect(rows).toEqual([
      {
        ID: plain.row.id,
        Status: "confirmed",
        "Start (UTC)": "2027-03-27 08:00",
        "End (UTC)": "2027-03-27 08:30",
        [`Start (${ZONE})`]: "2027-03-27 09:00",
        [`End (${ZONE})`]: "2027-03-27 09:30",
        "Event type": 'Intro, "short" call',
        "Guest name": 'Grace "Gee" Guest, PhD',
        "Guest email": "grace@example.com",
        Answers: "Company: Acme\nBerlin\nTopics: Pricing, Support",
        Team: "",
        Hosts: "Ada Host",
        "Cancelled by": "",
        "No-show": "no",
      },
      {
        ID: hostile.row.id,
        Status: "cancelled",
        "Start (UTC)": "2027-03-29 08:00",
        "End (UTC)": "2027-03-29 08:30",
        [`Start (${ZONE})`]: "2027-03-29 10:00",
        [`End (${ZONE})`]: "2027-03-29 10:30",
        "Event type": 'Intro, "short" call',
        // What a spreadsheet would run as a formula is text: a leading '.
        "Guest name": `'=HYPERLINK("http://evil.example","click")`,
        "Guest email": "'@evil.example",
        Answers: "Company: +1+2\ngone: -2",
        Team: "",
        Hosts: "Ada Host",
        "Cancelled by": "guest",
        "No-show": "no",
      },
      {
        ID: collective.row.id,
        Status: "confirmed",
        "Start (UTC)": "2027-03-30 21:30",
        "End (UTC)": "2027-03-30 22:30",
        [`Start (${ZONE})`]: "2027-03-30 23:30",
        [`End (${ZONE})`]: "2027-03-31 00:30",
        "Event type": "Team demo",
        "Guest name": "Tab\tin",
        "Guest email": "team@example.com",
        Answers: "",
        Team: team.name,
        Hosts: "Ada Host, Bob, the Colleague",
        "Cancelled by": "",
        "No-show": "yes",
      },
    ]);
    // A cell that only has a formula character inside is left as it is; one that starts with it is guarded.
    expect((res.body as string).includes(`"'=HYPERLINK(""http://evil.example"",""click"")"`)).toBe(true);

    // The list's filters: status, event type, no-show, a guest's name; the past most recent first.
    expect(table((await csvOf(host, { status: "cancelled" })).body).rows.map((r) => r.ID)).toEqual([hostile.row.id]);
    expect(table((await csvOf(host, { eventTypeId: teamType.id })).body).rows.map((r) => r.ID)).toEqual([collective.row.id]);
    expect(table((await csvOf(host, { noShow: "true" })).body).rows.map((r) => r.ID)).toEqual([collective.row.id]);
    expect(table((await csvOf(host, { q: "grace" })).body).rows.map((r) => r.ID)).toEqual([plain.row.id]);
    expect(table((await csvOf(host, { when: "past" })).body).rows.map((r) => r.ID)).toEqual([]);
    expect(table((await csvOf(host, { from: "2027-03-28", to: "2027-03-29" })).body).rows.map((r) => r.ID)).toEqual([hostile.row.id]);
    // The colleague's file: the collective booking only, in their own zone.
    const theirs = table((await csvOf(colleague)).body);
    expect(theirs.header[4]).toBe("Start (America/New_York)");
    expect(theirs.rows.map((r) => [r.ID, r["Start (America/New_York)"]])).toEqual([[collective.row.id, "2027-03-30 17:30"]]);
    expect((await csvOf(colleague)).headers.get("content-disposition")).toBe('attachment; filename="bookings.csv"');
  });

  it("starts with a UTF-8 byte order mark (Excel reads the guests' accents right)", async () => {
    const host = await createHost({ timezone: ZONE });
    const type = await createEventType(host);
    await insertBookingRow(host.id, type.id, local("2027-05-03", "09:00"), 30, { guestName: "Zoë Ångström" });
    const res = await GET(new Request(`${TEST_ORIGIN}/api/v1/me/bookings?format=csv`, { headers: { authorization: `Bearer ${host.token}` } }), { params: Promise.resolve({}) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFFID,Status,")).toBe(true);
    expect(text).toContain(",Zoë Ångström,");
  });

  it(`has every booking across its steps of ${CSV_STEP}, each once, in the list's order`, async () => {
    const host = await createHost({ timezone: ZONE });
    const type = await createEventType(host);
    const count = 2 * CSV_STEP + 37;
    const first = Date.parse("2026-01-05T08:00:00Z");
    // A cancelled one among them, so that the statuses' filter is walked too.
    const values = Array.from({ length: count }, (_, i) => {
      const start = new Date(first + i * 3_600_000);
      const end = new Date(start.getTime() + 30 * 60_000);
      return {
        id: `bkg_csv_${String(i).padStart(5, "0")}_${randomUUID().slice(0, 8)}`,
        hostId: host.id,
        eventTypeId: type.id,
        status: i % 10 === 0 ? ("cancelled" as const) : ("confirmed" as const),
        startTime: start,
        endTime: end,
        blockedStart: start,
        blockedEnd: end,
        guestName: `Guest ${i}`,
        guestEmail: `g${i}@example.com`,
        guestTimezone: "UTC",
        cancelTokenHash: hashCancelToken(randomUUID()),
      };
    });
    await (await getDb()).insert(bookings).values(values);
    const all = table((await csvOf(host)).body).rows.map((r) => r.ID);
    expect(all).toEqual(values.map((v) => v.id));
    const past = table((await csvOf(host, { when: "past", status: "confirmed" })).body).rows.map((r) => r.ID);
    expect(past).toEqual(values.filter((v) => v.status === "confirmed").map((v) => v.id).reverse());
  });

  it("refuses a walk of changes, a page or an unknown format (400), and answers 401 without a token", async () => {
    const host = await createHost();
    const refused: Record<string, string>[] = [{ updatedSince: "2027-01-01T00:00:00Z" }, { cursor: "abc" }, { page: "2" }];
    for (const query of refused) {
      const res = await csvOf(host, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error).toBe("validation_error");
    }
    expect((await api.get("/me/bookings?format=xml", as(host))).status).toBe(400);
    expect((await api.get("/me/bookings?format=csv")).status).toBe(401);
    // The JSON list is as it was, with format=json or without.
    expect((await api.get("/me/bookings?format=json", as(host))).body.pagination).toEqual({ page: 1, limit: 20, total: 0 });
  });
});
