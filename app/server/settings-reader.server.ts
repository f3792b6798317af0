import type { z } from "zod";

/**
 * A reader of one group of settings from the Worker's bindings (any object, so that no module of settings imports
 * another): validated by `schema` and shaped by `shape` once per bindings object (once per isolate), a bad value
 * failing with every field's message.
 */
export function settingsReader<Schema extends z.ZodType, Settings>(
  schema: Schema,
  shape: (data: z.infer<Schema>) => Settings,
): (bindings: object) => Settings {
  const parsed = new WeakMap<object, Settings>();
  return (bindings) => {
    const cached = parsed.get(bindings);
    if (cached) return cached;
    const result = schema.safeParse(bindings);
    if (!result.success) {
      const fields = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
      throw new Error(`Invalid configuration: ${fields}`);
    }
    const settings = shape(result.data);
    parsed.set(bindings, settings);
    return settings;
  };
}
