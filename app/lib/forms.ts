/**
 * The one way a form is checked and its refusal reported, on the page (instant feedback) and in the action
 * (the check that counts). A form schema reads the raw values into typed, trimmed data, then runs its rules
 * in the product's order and reports only the first failure: its message, for the form's banner, and the
 * field it is about, so the page can also show it next to that field. Browser-safe: no server imports.
 *
 * Plain functions rather than a validation library: see docs/decisions/0006 and 0010.
 */

/** A refused form: the one message to show, and the name of the field it belongs to (none for the whole form). */
export interface FormRefusal {
  error: string;
  field?: string;
}

export type Parsed<T> = { ok: true; data: T } | ({ ok: false } & FormRefusal);

/** What a page reads back from its action to show a refusal: the action's data, or nothing. */
export type FormReply = { error?: string | null; field?: string | null } | null | undefined;

/** The raw values of a form: the first value of each name, as `FormData.get` reads it. */
type FormValues = Record<string, unknown>;

/**
 * One rule: a check on the read data, the message when it fails, and the name of the form field it is about.
 * The message and the field may depend on the data ("First name and last name are required" is about
 * whichever of the two is blank).
 */
type Rule<T, C> = readonly [
  passes: (data: T, context: C) => boolean,
  message: string | ((data: T) => string),
  field?: string | ((data: T) => string),
];

/** A text field's name as the messages say it, and its length limit. */
export interface TextField {
  label: string;
  max: number;
}

export const FORM_MESSAGES = {
  forbiddenCharacters: (label: string) => `${label} contains characters that are not allowed`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
} as const;

/**
 * Control characters (NUL, escapes, line breaks), the marks that reverse how text is shown (U+061C, U+200E/F,
 * U+202A–U+202E, U+2066–U+2069) and the invisible ones (soft hyphen, zero-width spaces and joiners, word joiner,
 * line and paragraph separators, the byte order mark, the Mongolian vowel separator): a name or an e-mail carrying
 * them shows one thing and stores another ("client\u200b@example.com" looks like "client@example.com").
 */
const FORBIDDEN_CHARACTER_CLASS =
  "[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]";
const FORBIDDEN_CHARACTERS = new RegExp(FORBIDDEN_CHARACTER_CLASS);

/**
 * Whether a text carries a character the forms refuse; `lineBreaks` lets a multi-line text (a client note) keep its
 * line feeds, and only them.
 */
export const hasForbiddenCharacters = (text: string, { lineBreaks = false } = {}) =>
  FORBIDDEN_CHARACTERS.test(lineBreaks ? text.replaceAll("\n", " ") : text);

/** Removes every character the forms refuse (for text that is cleaned rather than refused, such as a file's name). */
export const withoutForbiddenCharacters = (text: string) =>
  text.replace(new RegExp(FORBIDDEN_CHARACTER_CLASS, "g"), "");
/**
 * Fields this check leaves alone: passwords are taken as typed (any character may be part of one), and the
 * sign-in form's hidden `redirectTo` falls back to a safe default whatever it holds (safeRedirect).
 */
const UNCHECKED_FIELD = /password|^redirectTo$/i;

export interface FormSchema<T, C = void, Out = T> {
  parse(values: FormValues, context: C): Parsed<Out>;
}

/**
 * A form schema: `read` turns raw values into data, `rules` run in order and the first failure is the answer,
 * `output` (optional) shapes the accepted data (for example, drops the fields a choice made irrelevant).
 * Before the rules, every value but a password is refused if it carries control or text-direction characters,
 * and each of `fields` if it is longer than its limit, each with a message naming the field.
 */
export function formSchema<T, C = void, Out = T>(
  read: (values: FormValues, context: C) => T,
  rules: ReadonlyArray<Rule<T, C>>,
  output?: (data: T) => Out,
  fields: Record<string, TextField> = {},
): FormSchema<T, C, Out> {
  return {
    parse(values, context) {
      for (const [name, value] of Object.entries(values)) {
        if (typeof value !== "string" || UNCHECKED_FIELD.test(name) || !FORBIDDEN_CHARACTERS.test(value)) continue;
        return refuse(FORM_MESSAGES.forbiddenCharacters(fields[name]?.label ?? "This field"), name);
      }
      for (const [name, { label, max }] of Object.entries(fields)) {
        const value = values[name];
        if (typeof value === "string" && value.trim().length > max)
          return refuse(FORM_MESSAGES.tooLong(label, max), name);
      }
      const data = read(values, context);
      for (const [passes, message, field] of rules) {
        if (passes(data, context)) continue;
        const name = typeof field === "function" ? field(data) : field;
        return refuse(typeof message === "function" ? message(data) : message, name);
      }
      return { ok: true, data: output ? output(data) : (data as unknown as Out) };
    },
  };
}

/** A refusal, with its field when it has one. */
export function refuse(error: string, field?: string): { ok: false } & FormRefusal {
  return field ? { ok: false, error, field } : { ok: false, error };
}

/** The refusal as an action sends it back to its page: `{ error, field }`, without the `ok` flag. */
export function refusalOf(result: FormRefusal): FormRefusal {
  return result.field ? { error: result.error, field: result.field } : { error: result.error };
}

/** The raw values of submitted form data (the first value of each name). */
export function formValues(form: FormData): FormValues {
  const values: FormValues = {};
  for (const name of form.keys()) if (!(name in values)) values[name] = form.get(name);
  return values;
}

/** Checks form data (or already-read values) with a schema: the data, or the first refusal. */
export function validateForm<T, Out>(schema: FormSchema<T, void, Out>, form: FormData | FormValues): Parsed<Out> {
  return schema.parse(form instanceof FormData ? formValues(form) : form, undefined);
}

/** The message for one field of a reply, when the reply's error belongs to that field. */
export function errorFor(reply: FormReply, name: string): string | undefined {
  return reply?.error && reply.field === name ? reply.error : undefined;
}

/**
 * A trimmed text value; not a string, or longer than `max` once trimmed, reads as blank (a schema's declared
 * limits refuse an over-long value with its own message before this).
 */
export function text(value: unknown, max = Number.POSITIVE_INFINITY): string {
  const trimmed = typeof value === "string" ? value.trim() : "";
  return trimmed.length <= max ? trimmed : "";
}

/** A password: never trimmed, at most 200 characters. */
export const secret = (value: unknown) => (typeof value === "string" && value.length <= 200 ? value : "");
