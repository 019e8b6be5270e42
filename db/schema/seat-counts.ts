import { check, integer, pgTable, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

// The seats taken of each seated start (decisions §19), by seat key (bookings.seat_key): kept by a
// trigger on bookings (migration 0028) in the writing transaction. The trigger's upsert takes this
// row's lock, so two guests taking a seat at once are counted one after the other on any number of
// instances, and a seat beyond the event type's max is refused by the database itself, whatever the
// code above it does. A row at 0 stays, so a decrement always finds its row.
export const seatCounts = pgTable(
  "seat_counts",
  {
    seatKey: text("seat_key").primaryKey(),
    taken: integer("taken").notNull(),
  },
  (t) => [check("seat_counts_taken_chk", sql`${t.taken} >= 0`)],
);
