/** The spike's databases (wrangler.toml here): the read model, one database and 16 shards. */
export interface StorageEnv {
  READ_MODEL: D1Database;
  ONE: D1Database;
  [shard: `SHARD_${number}`]: D1Database;
}

export const SHARD_COUNT = 16;

export const shards = (env: StorageEnv): D1Database[] =>
  Array.from({ length: SHARD_COUNT }, (_, index) => env[`SHARD_${index}`] as D1Database);
