/** What a handler answers, written to the socket by the server (scripts/lib/chain-simulator.ts) in one place. */
export interface Reply {
  status: number;
  type: "text/plain" | "application/json" | "application/octet-stream";
  body: string | Uint8Array;
}

export const text = (body: string, status = 200): Reply => ({ status, type: "text/plain", body });
export const json = (value: unknown, status = 200): Reply => ({
  status,
  type: "application/json",
  body: JSON.stringify(value, (_, item) => (typeof item === "bigint" ? Number(item) : item)),
});
export const binary = (body: Uint8Array): Reply => ({ status: 200, type: "application/octet-stream", body });

/** A refusal the control API explains to the person who asked. */
export class Refusal extends Error {}
