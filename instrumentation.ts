// Runs once when the server starts (Node.js runtime only): see lib/startup.ts.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { start } = await import("./lib/startup");
    await start();
  }
}
