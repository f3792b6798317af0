/**
 * A form checked in the page before it is posted, with the same schema the action uses: the server checks
 * everything again; this only spares a round trip for the obvious mistakes.
 */
import { type FormEvent, useState } from "react";
import { type FormRefusal, type FormReply, type FormSchema, refusalOf, validateForm } from "./forms";

/** The refusal to show (the page's own check, else the action's) and the form's `onSubmit` that makes the check. */
export function useFormCheck<T, Out>(schema: FormSchema<T, void, Out>, serverReply: FormReply) {
  const [pageRefusal, setPageRefusal] = useState<FormRefusal | null>(null);
  function checkBeforeSubmit(event: FormEvent<HTMLFormElement>) {
    const result = validateForm(schema, new FormData(event.currentTarget));
    setPageRefusal(result.ok ? null : refusalOf(result));
    if (!result.ok) event.preventDefault();
  }
  return { refusal: pageRefusal ?? serverReply, checkBeforeSubmit };
}
