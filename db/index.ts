// The data layer's types. db/ knows nothing above it: the process's own database (chosen by the
// configuration) is opened in lib/store/database.ts.
export type { Db, Tx, Database } from "./client";
