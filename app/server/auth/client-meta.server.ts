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

type CfLocation = { country?: unknown; city?: unknown } | null | undefined;

const shortText = (value: unknown, max: number) =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;

export function clientMeta(request: Request, cf?: CfLocation): ClientMeta {
  const location = cf ?? (request as { cf?: CfLocation }).cf;
  return {
    userAgent: shortText(request.headers.get("User-Agent"), 400),
    country: shortText(location?.country, 2),
    city: shortText(location?.city, 100),
  };
}
