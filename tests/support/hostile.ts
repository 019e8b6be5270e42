import fc from "fast-check";

// Hostile values for fuzzing the API: what broke it before (NUL, lone surrogates, years 0 and
// 10000, Object.prototype names, huge numbers) and the space around them, so a new field that
// forgets the shared schema types is caught by the same arbitraries.

/** A JSON token written into a body as is: numbers JSON.stringify cannot write (1e400, -0). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A change that leaves the field out instead of setting it. */
export const REMOVE = Symbol("remove");

/** Names every plain object inherits: a key named so must be data, never the member. */
export const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__"];

export const EDGE_DATES = [
  "0000-01-01", "0001-01-01", "1969-12-31", "1970-01-01", "1970-01-02", "2000-02-29", "2027-02-29", "2027-02-30", "2027-13-01",
  "2027-00-10", "9999-12-30", "9999-12-31", "10000-01-01", "+002027-03-15", "-000001-01-01", "2027-3-5", "20270315", "2027-03-15T00:00:00Z",
];

export const EDGE_INSTANTS = [
  "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00+14:00",
  "1970-01-01T00:00:00-12:00", "9999-12-31T23:30:00Z", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59.999Z", "9999-12-31T00:00:00-14:00",
  "10000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "+275760-09-13T00:00:00.001Z", "-271821-04-20T00:00:00Z", "2027-03-15T10:00:00+99:99",
  "2027-03-15T10:00:00", "2027-03-15T24:00:00Z", "2027-03-15T10:00:60Z", "2027-03-15T10:00:00.123456789Z", "2027-03-15 10:00:00Z", "2027-03-15T10:00:00z",
];

export const EDGE_TIMES = ["00:00", "23:59", "24:00", "24:01", "23:60", "25:00", "-1:00", "9:00", "09:00:00", "0900", "12:00 PM", "٠٩:٠٠"];

export const EDGE_ZONES = [
  "UTC", "utc", "Etc/UTC", "GMT", "europe/berlin", "EUROPE/BERLIN", "Etc/GMT-14", "Etc/GMT+12", "Pacific/Kiritimati", "Pacific/Pago_Pago",
  "Pacific/Chatham", "Australia/Lord_Howe", "Asia/Kathmandu", "Antarctica/Troll", "America/Nuuk", "America/Santiago", "Africa/Casablanca",
  "EST5EDT", "Asia/Calcutta", "US/Pacific-New", "Factory", "+05:00", "Z", "Local", "Europe/Berlin\u0000", "../../etc/passwd",
];

/** What PostgreSQL refuses in text and jsonb (NUL) and what is not Unicode at all (unpaired surrogates). */
export const UNSTORABLE = ["\u0000", "\ud800", "\udfff", "\udc00\ud800", "x\u0000"];

const NASTY_CHARS = ["\u0000", "\ud800", "\udfff", "\ud800x", "\udc00\ud800", "%00", "\\u0000", " ", "\t", "\n", "\u200b", "\ufeff", "\u202e", "😀", "é", "'", '"', "\\", ";", "--"];

const HOSTILE_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\ud800", "\udfff", "\ud800x", "x\udfff", "\udfff\ud800", "%00", "%2500", "null", "undefined",
  "NaN", "-NaN", "Infinity", "-Infinity", "1e309", "-0", "0x10", "0b1", " 5 ", "5.0", "true", "[]", "{}", "[object Object]",
  ...PROTOTYPE_KEYS, "../../etc/passwd", "'; drop table users; --", "<script>alert(1)</script>", "${7*7}", "{{7*7}}",
  "a".repeat(201), "a".repeat(5001), "😀".repeat(300), "\u0000".repeat(500),
  ...EDGE_DATES.slice(0, 12), ...EDGE_INSTANTS.slice(0, 12), ...EDGE_TIMES.slice(0, 6), ...EDGE_ZONES.slice(0, 10),
];

/** Strings made to hurt: known offenders, raw UTF-16 (lone surrogates included), and long ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 5 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: fc.constantFrom(...NASTY_CHARS, "a", "0", "-", ":", "T", "Z"), maxLength: 12 }), weight: 2 },
  { arbitrary: fc.constantFrom("x".repeat(100_000), "\u0000".repeat(100_000), "x".repeat(1_100_000)), weight: 1 },
);

/** A valid-looking value with something hostile slipped in: gets past the first format check. */
export function taint(base: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.nat({ max: base.length }), fc.constantFrom(...NASTY_CHARS)).map(([i, s]) => base.slice(0, i) + s + base.slice(i)),
    fc.constantFrom(base.toUpperCase(), ` ${base} `, base + base, base.slice(0, -1), base.repeat(40)),
  );
}

const RAW_NUMBERS = ["1e400", "-1e400", "1e-400", "-0", "5.0", "5e0", "0.30000000000000004", "123456789012345678901234567890", "-9007199254740993"];

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 0.5, 4.9999, -0.000001, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 63, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...RAW_NUMBERS.map((t) => new RawJson(t))),
);

const nested = (open: string, inner: string, close: string, depth: number) => new RawJson(open.repeat(depth) + inner + close.repeat(depth));

const HOSTILE_SHAPES: unknown[] = [
  null, true, false, [], {}, [null], [[]], { "": "" }, REMOVE,
  JSON.parse('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"polluted": true}}}'),
  JSON.parse('{"toString": "x", "valueOf": 1, "hasOwnProperty": null}'),
  nested("[", "", "]", 50_000),
  nested('{"a":', "1", "}", 20_000),
  new RawJson(`[${"0,".repeat(100_000)}0]`),
  new RawJson(`{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`),
];

/** Anything a JSON field could be sent as. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 5 },
  { arbitrary: hostileNumber, weight: 3 },
  { arbitrary: fc.constantFrom(...HOSTILE_SHAPES), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

/** Keys nobody declared: Object.prototype's names, empty, NUL, lone surrogates, look-alikes. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS, "", " ", "\u0000", "\ud800", "a.b", "0", "length", "id", "userId", "hostId", "status", "isAdmin"),
  fc.string({ unit: "binary", maxLength: 12 }),
);

/** Values at the edge of what a field of this form accepts, judged by its valid example. */
export function edgeValuesLike(example: unknown): string[] | undefined {
  if (typeof example !== "string") return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(example)) return EDGE_DATES;
  if (/^\d{4}-\d{2}-\d{2}T/.test(example)) return EDGE_INSTANTS;
  if (/^\d{2}:\d{2}$/.test(example)) return EDGE_TIMES;
  if (/^[A-Z][A-Za-z_]+\/[A-Za-z_]+$|^UTC$/.test(example)) return EDGE_ZONES;
  return undefined;
}

/** JSON text of `value`, with every RawJson written as its own token. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const nonce = Math.random().toString(36).slice(2);
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `__raw_${nonce}_${raws.length - 1}__`;
    }
    return v;
  });
  return raws.length === 0 ? text : text.replace(new RegExp(`"__raw_${nonce}_(\\d+)__"`, "g"), (_, i: string) => raws[Number(i)]!);
}
