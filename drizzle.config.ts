import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./db/schema.ts", "./db/chain-schema.ts", "./db/chain-payouts-schema.ts", "./db/positions-schema.ts"],
  out: "./db/migrations",
});
