// The ceiling starts nothing of its own. Without this file Next.js, building bench/ceiling from the
// repository's root, takes the service's instrumentation.ts for the ceiling's (checked: the built
// ceiling opened the embedded database, ran the migrations and started the job worker), and
// "Next.js alone" carried the service's startup, memory and background work.
export function register() {}
