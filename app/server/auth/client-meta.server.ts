/**
 * Who is asking, as far as people need it to recognise their sessions and sign-ins: the browser's User-Agent
 * and Cloudflare's coarse location (country and city of `request.cf`, absent locally). Never used to decide
 * anything.
 */
export interface ClientMeta {
  userAgent: string | null;
  country: string | null;
  city: string | null;
}

import type { AppEnv } from "../env.server";

export type CfLocation = { country?: unknown; city?: unknown } | null | undefined;

const shortText = (value: unknown, max: number) =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;

/**
 * Where the edge says the request comes from. Locally (`wrangler dev`) the runtime fills `request.cf` with a fixed
 * made-up place, which would label every local session with it: there is no location in development.
 */
export function edgeLocation(request: Request, env: Pick<AppEnv, "ENVIRONMENT">): CfLocation {
  if (env.ENVIRONMENT === "development") return null;
  return (request as { cf?: CfLocation }).cf ?? null;
}

/** `cf` is the request's location as `edgeLocation` gave it (null: none); without one, `request.cf` is read. */
export function clientMeta(request: Request, cf?: CfLocation): ClientMeta {
  const location = cf === undefined ? (request as { cf?: CfLocation }).cf : cf;
  return {
    userAgent: shortText(request.headers.get("User-Agent"), 400),
    country: shortText(location?.country, 2),
    city: shortText(location?.city, 100),
  };
}
