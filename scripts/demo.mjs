// `npm run demo`: with `npm start` running, creates (idempotently) a demo host with a bio, availability,
// event types (a group workshop with seats and a weekly coaching among them, and a paid coaching
// session where payments are set up) and a few bookings
// (two seats of one workshop and a 4-session coaching series too), a week away next month and Berlin's public holidays, a second host, and a team of the two with a round-robin
// and a collective event type and a team booking, through the running service's own API, then
// prints the logins, the public URLs and an API key (bookings:read) for the README's script. The API is the honest path: it is what any client uses, and an
// embedded PGlite database admits one process only.
//
//   DEMO_URL   the running service (default APP_URL, else http://localhost:$PORT or :3000)
import { randomUUID } from "node:crypto";

const base = (process.env.DEMO_URL ?? process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
const api = `${base}/api/v1`;

const HOST = {
  email: "demo@example.com",
  password: "demo-password-123",
  fullName: "Ada Demo",
  username: "ada-demo",
  timezone: "Europe/Berlin",
};
// What guests read under Ada's name on her page (and the team's under its name).
const HOST_BIO = "Product consultant in Berlin. I help small teams plan their launches, in English or German.";
const TEAM_BIO = "Ada and Grace show you around the product and answer your questions, from Berlin and New York.";

// A colleague in New York, and the team they share (decisions §15).
const COLLEAGUE = { email: "grace-demo@example.com", password: "demo-password-123", fullName: "Grace Demo", username: "grace-demo", timezone: "America/New_York" };
const TEAM = { slug: "demo-sales", name: "Demo Sales" };
const TEAM_EVENT_TYPES = [
  { slug: "book-a-demo", title: "Book a demo", durationMinutes: 30, schedulingType: "round_robin", location: "Video call", description: "Whoever of us is free shows you around." },
  { slug: "panel", title: "Panel interview", durationMinutes: 60, schedulingType: "collective", location: "Video call", description: "Both of us, together." },
];

const EVENT_TYPES = [
  { slug: "intro", title: "Intro call", durationMinutes: 15, location: "Phone", description: "A quick hello to see how we can work together.", color: "#2563eb" },
  {
    slug: "consultation",
    title: "Consultation",
    durationMinutes: 45,
    bufferBeforeMinutes: 10,
    bufferAfterMinutes: 10,
    // A meeting link per booking (decisions §17): Meet or Teams from Ada's calendar once she
    // connects one, else from VIDEO_URL_TEMPLATE, else "the host will send the meeting link".
    location: "video",
    description: "A focused session on your project.",
    color: "#7c3aed",
    customQuestions: [
      { id: "topic", label: "What would you like to talk about?", required: true, type: "text" },
      { id: "company", label: "Company", required: false, type: "text" },
    ],
    // A reminder the day before to the guest, and one an hour before to both.
    reminders: [
      { minutesBefore: 1440, to: "guest" },
      { minutesBefore: 60, to: "both" },
    ],
  },
  { slug: "workshop", title: "Workshop", durationMinutes: 90, slotIntervalMinutes: 30, location: "Office, Main Street 1", color: "#059669" },
  {
    slug: "mentoring",
    title: "Mentoring session",
    durationMinutes: 60,
    location: "Video call",
    description: "An hour on your questions. Ada confirms each request herself.",
    color: "#d97706",
    requiresConfirmation: true,
    limits: { perWeek: 3 },
  },
  // A group session (decisions §19): up to 8 guests per start, each with a seat of their own.
  {
    slug: "group-workshop",
    title: "Group workshop",
    durationMinutes: 60,
    location: "Video call",
    description: "A hands-on hour with a small group. Up to 8 guests.",
    color: "#db2777",
    seats: { max: 8, showRemaining: true },
  },
  // Regular sessions: a guest books up to 8 weekly ones at once.
  {
    slug: "weekly-coaching",
    title: "Weekly coaching",
    durationMinutes: 45,
    location: "Video call",
    description: "The same time every week, for as many weeks as you need (up to 8).",
    color: "#4f46e5",
    recurrence: { everyWeeks: 1, maxOccurrences: 8 },
  },
  // Offered on the "Evenings" schedule (made below), not the working hours.
  { slug: "evening-call", title: "Evening call", durationMinutes: 30, location: "Phone", color: "#0f766e", schedule: "Evenings", limits: { perDay: 2 } },
];

// A paid session (decisions §20), made only where payments are set up (the operator's Stripe
// keys): elsewhere a price is refused, and the demo says how to switch payments on instead.
const PAID_EVENT_TYPE = {
  slug: "coaching-session",
  title: "Coaching session",
  durationMinutes: 60,
  location: "Video call",
  description: "An hour of one-to-one coaching, paid when you book. Cancel up to 24 hours before for a full refund.",
  color: "#0891b2",
  price: { amount: 6000, currency: "eur", refundableUntilHours: 24 },
};

/** The paid event type when payments are set up; the line the demo prints about payments either way. */
async function seedPaidEventType(token, bySlug) {
  const payments = await call("GET", "/me/payments", { token });
  if (payments.status !== 200) fail("payments", payments);
  if (!payments.body.configured) {
    return `  Payments    off: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (docs/payments.md), restart, and run the demo again for a paid "${PAID_EVENT_TYPE.title}"`;
  }
  if (!bySlug.has(PAID_EVENT_TYPE.slug)) {
    const created = await call("POST", "/me/event-types", { token, body: PAID_EVENT_TYPE });
    if (created.status !== 201) fail(`event type ${PAID_EVENT_TYPE.slug}`, created);
    bySlug.set(PAID_EVENT_TYPE.slug, created.body);
  }
  return `  Paid        ${base}/${HOST.username}/${PAID_EVENT_TYPE.slug}  (€60.00; guests pay through Stripe Checkout)`;
}

// A second schedule of Ada's (decisions §16): weekday evenings, for the evening call.
const EVENINGS = {
  name: "Evenings",
  timezone: "Europe/Berlin",
  weeklyRules: [1, 2, 3, 4].map((dayOfWeek) => ({ dayOfWeek, startTime: "18:00", endTime: "20:00" })),
  dateOverrides: [],
};

async function call(method, path, { body, token, headers = {} } = {}) {
  let res;
  try {
    res = await fetch(`${api}${path}`, {
      method,
      headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new Error(`Cannot reach ${base} (${error.cause?.code ?? error.message}). Start the service first: npm run build && npm start`);
  }
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function fail(what, res) {
  throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Registers (once) and logs in: the account's bearer token. */
async function signIn(account) {
  const registered = await call("POST", "/auth/register", { body: account });
  if (registered.status !== 201 && registered.status !== 409) fail("register", registered);
  const login = await call("POST", "/auth/login", { body: { email: account.email, password: account.password } });
  if (login.status !== 200) fail(`login (does another account hold ${account.email}?)`, login);
  return login.body.accessToken;
}

/** The demo team of both hosts, its event types and one booking of its round-robin type. */
async function seedTeam(token) {
  const colleague = await signIn(COLLEAGUE);
  const hours = [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" }));
  const availability = await call("PUT", "/me/availability", { token: colleague, body: { minNoticeHours: 2, maxAdvanceDays: 60, weeklyRules: hours, dateOverrides: [] } });
  if (availability.status !== 200) fail("the colleague's availability", availability);
  const teams = await call("GET", "/me/teams", { token });
  let team = teams.body.data.find((t) => t.slug === TEAM.slug);
  if (!team) {
    const created = await call("POST", "/me/teams", { token, body: TEAM });
    if (created.status !== 201) fail("team (is demo-sales taken?)", created);
    team = created.body;
  }
  const described = await call("PATCH", `/me/teams/${team.id}`, { token, body: { bio: TEAM_BIO } });
  if (described.status !== 200) fail("the team's bio", described);
  if (!team.members.some((m) => m.username === COLLEAGUE.username)) {
    const invited = await call("POST", `/me/teams/${team.id}/members`, { token, body: { username: COLLEAGUE.username } });
    if (invited.status !== 201) fail("invitation", invited);
  }
  if (!team.members.some((m) => m.username === COLLEAGUE.username && m.status === "active")) {
    const accepted = await call("POST", `/me/teams/${team.id}/accept`, { token: colleague });
    if (accepted.status !== 200) fail("acceptance", accepted);
  }
  const existing = await call("GET", `/me/teams/${team.id}/event-types`, { token });
  for (const eventType of TEAM_EVENT_TYPES) {
    if (existing.body.data.some((e) => e.slug === eventType.slug)) continue;
    const created = await call("POST", `/me/teams/${team.id}/event-types`, { token, body: eventType });
    if (created.status !== 201) fail(`team event type ${eventType.slug}`, created);
  }
  // Either host holding an upcoming team booking means an earlier run made them.
  for (const who of [token, colleague]) {
    const theirs = await call("GET", "/me/bookings?status=confirmed&limit=100", { token: who });
    if (theirs.body.data.some((b) => b.team?.slug === TEAM.slug && Date.parse(b.startTime) > Date.now())) return 0;
  }
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const slotsOf = async (slug) => {
    const slots = await call("GET", `/public/teams/${TEAM.slug}/${slug}/slots?from=${from}&to=${to}&timezone=Europe/Paris`);
    if (slots.status !== 200) fail(`team slots of ${slug}`, slots);
    return slots.body.slots;
  };
  // Two bookings at one time: round robin gives each host one. So the time must be one where
  // both are free, which the collective panel's times are (whatever day the demo is run on).
  const bothFree = new Set((await slotsOf("panel")).map((s) => s.startTime));
  const shared = (await slotsOf("book-a-demo")).filter((s) => bothFree.has(s.startTime));
  let made = 0;
  const slot = shared[Math.min(shared.length - 1, 7)];
  for (const [guestName, guestEmail] of [["Marie Curie", "marie@example.com"], ["Pierre Curie", "pierre@example.com"]]) {
    if (!slot) break;
    const booked = await call("POST", `/public/teams/${TEAM.slug}/book-a-demo/bookings`, {
      headers: { "idempotency-key": randomUUID() },
      body: { startTime: slot.startTime, guestName, guestEmail, guestTimezone: "Europe/Paris", customAnswers: {} },
    });
    if (booked.status === 201) made += 1;
    else if (booked.status !== 409 && booked.status !== 429) fail("team booking", booked);
  }
  return made;
}

/** Books the open times of `slug` from the `index`th on until one is taken: the booking's answer, or undefined. */
async function bookFirstOpen(slug, index, body) {
  const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const slots = await call("GET", `/public/${HOST.username}/${slug}/slots?from=${from}&to=${to}&timezone=${encodeURIComponent(body.guestTimezone)}`);
  if (slots.status !== 200) fail(`slots of ${slug}`, slots);
  for (const slot of slots.body.slots.slice(index, index + 10)) {
    const booked = await call("POST", `/public/${HOST.username}/${slug}/bookings`, { headers: { "idempotency-key": randomUUID() }, body: { ...body, startTime: slot.startTime } });
    if (booked.status === 201) return booked.body;
    // A series is all or nothing: a later week taken is a 409, and the next time is tried.
    if (booked.status !== 409 && booked.status !== 429) fail(`booking ${slug}`, booked);
  }
  return undefined;
}

/**
 * A couple of seats of one group workshop and a 4-session coaching series (decisions §19),
 * unless an earlier run booked them: the new bookings.
 */
async function seedSeatsAndSeries(token, bySlug) {
  const mine = await call("GET", "/me/bookings?status=confirmed&limit=100", { token });
  const upcomingOf = (slug) => mine.body.data.filter((b) => b.eventType.id === bySlug.get(slug)?.id && Date.parse(b.startTime) > Date.now());
  let made = 0;
  if (upcomingOf("group-workshop").length === 0) {
    const first = await bookFirstOpen("group-workshop", 3, { guestName: "Lise Meitner", guestEmail: "lise@example.com", guestTimezone: "Europe/Vienna", customAnswers: {} });
    if (first) {
      made += 1;
      // The second seat of the same start.
      const second = await call("POST", `/public/${HOST.username}/group-workshop/bookings`, {
        headers: { "idempotency-key": randomUUID() },
        body: { startTime: first.startTime, guestName: "Emmy Noether", guestEmail: "emmy@example.com", guestTimezone: "Europe/Berlin", customAnswers: {} },
      });
      if (second.status === 201) made += 1;
      else if (second.status !== 409 && second.status !== 429) fail("a second seat", second);
    }
  }
  if (upcomingOf("weekly-coaching").length === 0) {
    const series = await bookFirstOpen("weekly-coaching", 8, { guestName: "Dorothy Vaughan", guestEmail: "dorothy@example.com", guestTimezone: "America/New_York", customAnswers: {}, occurrences: 4 });
    if (series) made += series.series?.occurrences.length ?? 1;
  }
  return made;
}

const DEMO_KEY_NAME = "Demo script";

// Ada's days off (decisions §21): Berlin's public holidays, and a week away next month during
// which her pages send guests to Grace. After the bookings, so none of theirs falls on them.
const TIME_OFF_NOTE = "At a conference in Lisbon";

/** The first Monday of next month (a date in Ada's zone, near enough from UTC) to the Sunday after. */
function nextMonthsWeek() {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const monday = new Date(first.getTime() + ((8 - first.getUTCDay()) % 7) * 86_400_000);
  const day = (d) => d.toISOString().slice(0, 10);
  return { startDate: day(monday), endDate: day(new Date(monday.getTime() + 6 * 86_400_000)) };
}

async function seedTimeOff(token) {
  const holidays = await call("PUT", "/me/holidays", { token, body: { country: "DE", region: "BE", workingOn: [] } });
  if (holidays.status !== 200) fail("the public holidays", holidays);
  const periods = await call("GET", "/me/out-of-office", { token });
  if (periods.status !== 200) fail("time off", periods);
  const week = nextMonthsWeek();
  if (!periods.body.data.some((p) => p.note === TIME_OFF_NOTE)) {
    const made = await call("POST", "/me/out-of-office", { token, body: { ...week, note: TIME_OFF_NOTE, redirectUsername: COLLEAGUE.username } });
    // 409: the host has time off of their own on those days already; theirs stays.
    if (made.status !== 201 && made.status !== 409) fail("time off", made);
  }
  return week;
}

async function main() {
  const token = await signIn(HOST);
  const profile = await call("PATCH", "/me", { token, body: { bio: HOST_BIO } });
  if (profile.status !== 200) fail("the bio", profile);

  // Weekdays 09:00–12:00 and 13:00–17:00, Saturday mornings; notice 2 h, 60 days ahead.
  const weeklyRules = [1, 2, 3, 4, 5].flatMap((dayOfWeek) => [
    { dayOfWeek, startTime: "09:00", endTime: "12:00" },
    { dayOfWeek, startTime: "13:00", endTime: "17:00" },
  ]);
  weeklyRules.push({ dayOfWeek: 6, startTime: "10:00", endTime: "13:00" });
  const availability = await call("PUT", "/me/availability", { token, body: { minNoticeHours: 2, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] } });
  if (availability.status !== 200) fail("availability", availability);

  const existing = await call("GET", "/me/event-types", { token });
  // A new account starts with a "30 minute meeting"; the demo shows its own instead.
  for (const starter of existing.body.data.filter((e) => e.slug === "30min" && !EVENT_TYPES.some((t) => t.slug === e.slug))) {
    const removed = await call("DELETE", `/me/event-types/${starter.id}`, { token });
    if (removed.status !== 204 && removed.status !== 200) fail("remove the starter event type", removed);
  }
  const schedules = await call("GET", "/me/schedules", { token });
  let evenings = schedules.body.data.find((x) => x.name === EVENINGS.name);
  if (!evenings) {
    const made = await call("POST", "/me/schedules", { token, body: EVENINGS });
    if (made.status !== 201) fail("the Evenings schedule", made);
    evenings = made.body;
  }
  const bySlug = new Map(existing.body.data.filter((e) => e.slug !== "30min").map((e) => [e.slug, e]));
  for (const { schedule, ...eventType } of EVENT_TYPES) {
    if (bySlug.has(eventType.slug)) continue;
    const body = schedule ? { ...eventType, scheduleId: evenings.id } : eventType;
    const created = await call("POST", "/me/event-types", { token, body });
    if (created.status !== 201) fail(`event type ${eventType.slug}`, created);
    bySlug.set(eventType.slug, created.body);
  }

  const paymentsLine = await seedPaidEventType(token, bySlug);

  // A few upcoming bookings, unless the demo host has some already.
  const upcoming = await call("GET", "/me/bookings?status=confirmed&limit=100", { token });
  const future = upcoming.body.data.filter((b) => Date.parse(b.startTime) > Date.now());
  let made = 0;
  if (future.length < 3) {
    const guests = [
      ["Grace Hopper", "grace@example.com", "America/New_York", "consultation", { topic: "Compilers" }],
      ["Alan Turing", "alan@example.com", "Europe/London", "intro", {}],
      ["Katherine Johnson", "katherine@example.com", "America/Los_Angeles", "workshop", {}],
    ];
    for (const [guestName, guestEmail, guestTimezone, slug, customAnswers] of guests) {
      const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
      const slots = await call("GET", `/public/${HOST.username}/${slug}/slots?from=${from}&to=${to}&timezone=${encodeURIComponent(guestTimezone)}`);
      if (slots.status !== 200) fail(`slots of ${slug}`, slots);
      // Spread them out: the (made+1)·5th open time.
      const slot = slots.body.slots[Math.min(slots.body.slots.length - 1, (made + 1) * 5)];
      if (!slot) continue;
      const booked = await call("POST", `/public/${HOST.username}/${slug}/bookings`, {
        headers: { "idempotency-key": randomUUID() },
        body: { startTime: slot.startTime, guestName, guestEmail, guestTimezone, customAnswers },
      });
      if (booked.status === 201) made += 1;
      else if (booked.status !== 409 && booked.status !== 429) fail(`booking ${slug}`, booked);
    }
  }

  made += await seedSeatsAndSeries(token, bySlug);
  made += await seedTeam(token);
  const away = await seedTimeOff(token);

  // An API key for the README's script (decisions §18): bookings:read only. A key is shown once,
  // so a second run says where to make a new one rather than printing nothing useful.
  const keys = await call("GET", "/me/api-keys", { token });
  if (keys.status !== 200) fail("API keys", keys);
  let apiKeyLine = `  API key     "${DEMO_KEY_NAME}" exists (shown once); make another in Settings → API keys`;
  if (!keys.body.data.some((k) => k.name === DEMO_KEY_NAME)) {
    const key = await call("POST", "/me/api-keys", { token, body: { name: DEMO_KEY_NAME, scopes: ["bookings:read"], expiresInDays: 30 } });
    if (key.status !== 201) fail("an API key", key);
    apiKeyLine = `  API key     ${key.body.key}  (bookings:read, 30 days; shown this once)\n              curl -H "Authorization: Bearer ${key.body.key}" ${api}/me/bookings`;
  }

  // A one-time link of the Intro call (decisions §21), unless one is still unused: its address is
  // shown once, so a later run says where to make another.
  let linkLine = `  One-time    an unused link of the Intro call exists (shown once); make another on its page`;
  const intro = bySlug.get("intro");
  if (intro) {
    const links = await call("GET", `/me/event-types/${intro.id}/one-time-links`, { token });
    if (links.status !== 200) fail("one-time links", links);
    if (links.body.data.length === 0) {
      const link = await call("POST", `/me/event-types/${intro.id}/one-time-links`, { token, body: { expiresInDays: 30 } });
      if (link.status !== 201) fail("a one-time link", link);
      linkLine = `  One-time    ${link.body.url}  (Intro call, once, 30 days; shown this once)`;
    }
  }

  const lines = [
    "",
    "Demo ready.",
    "",
    `  Dashboard   ${base}/login`,
    `              email ${HOST.email}  password ${HOST.password}`,
    `  Host page   ${base}/${HOST.username}`,
    ...EVENT_TYPES.map((e) => `  Book        ${base}/${HOST.username}/${e.slug}`),
    paymentsLine,
    `  Colleague   email ${COLLEAGUE.email}  password ${COLLEAGUE.password}`,
    `  Time off    ${away.startDate} to ${away.endDate} (guests are sent to ${COLLEAGUE.fullName}); Berlin's public holidays are days off`,
    `  Team page   ${base}/team/${TEAM.slug}`,
    `  Insights    ${insightsLink(base)}  (the next 30 days: the demo's bookings are ahead)`,
    apiKeyLine,
    linkLine,
    ...TEAM_EVENT_TYPES.map((e) => `  Book team   ${base}/team/${TEAM.slug}/${e.slug}`),
    "",
    `  ${made} new booking(s); ${future.length + made} upcoming in all.`,
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** The dashboard's Insights page over the host's next 30 days (its figures count meetings by their start, decisions §22). */
function insightsLink(base) {
  const dayIn = (days) => new Intl.DateTimeFormat("en-CA", { timeZone: HOST.timezone }).format(new Date(Date.now() + days * 86_400_000));
  return `${base}/dashboard/insights?from=${dayIn(0)}&to=${dayIn(29)}`;
}

main().catch((error) => {
  process.stderr.write(`demo: ${error.message}\n`);
  process.exit(1);
});
