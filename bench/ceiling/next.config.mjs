// The framework ceiling (see bench/run.ts): a separate, minimal Next.js app that only the
// benchmark builds and starts. It is not part of the service and is never deployed.
/** @type {import("next").NextConfig} */
const nextConfig = { poweredByHeader: false };

export default nextConfig;
