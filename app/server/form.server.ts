import { type FormSchema, formValues, type Parsed } from "~/lib/forms";
import { badRequest, HTTP_MESSAGES, unsupportedMediaType } from "./http.server";

/** The two encodings a browser uses to send a form (`<form method="post">`, with or without a file). */
const FORM_MEDIA_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * Reads an action's form data, or stops the action before anything is written: a body of another type (JSON,
 * text/plain, XML, none declared) answers 415; no body at all, or one that does not parse as the type it
 * declares (a truncated multipart body, a missing boundary), answers 400. `request.formData()` alone throws on
 * these, and an uncaught throw would answer 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  const mediaType = (request.headers.get("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_MEDIA_TYPES.has(mediaType)) {
    if (request.body === null || request.headers.get("Content-Length") === "0") badRequest(HTTP_MESSAGES.noFormData);
    unsupportedMediaType();
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    badRequest(HTTP_MESSAGES.unreadableForm);
  }
  // A name twice is no form of ours: which value would count is a guess, and a guess is how money goes wrong.
  const names = [...form.keys()];
  if (new Set(names).size !== names.length) badRequest(HTTP_MESSAGES.duplicateField);
  return form;
}

/** Reads an action's form data and checks it with a form schema: the data, or the first refusal. */
export async function readValidForm<T, Out>(request: Request, schema: FormSchema<T, void, Out>): Promise<Parsed<Out>> {
  return schema.parse(formValues(await readForm(request)), undefined);
}
