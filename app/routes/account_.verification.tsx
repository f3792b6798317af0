import { useState } from "react";
import { data, Form, Link } from "react-router";
import { Banner, Field, FormErrors, SelectField, SubmitButton } from "~/components/form";
import { LabelledOptions } from "~/components/labelled-options";
import { pageMeta, RouteError } from "~/components/route-error";
import { DocumentSlot } from "~/components/verification/document-slot";
import { VerificationStatusCard } from "~/components/verification/verification-status-card";
import { COUNTRIES } from "~/lib/countries";
import { refusalOf } from "~/lib/forms";
import { parseVerificationForm } from "~/lib/schemas/verification";
import {
  DOCUMENT_KIND_HINTS,
  DOCUMENT_KIND_LABELS,
  IDENTITY_DOCUMENT_TYPE_LABELS,
  isEditableByClient,
  VERIFICATION_MESSAGES,
} from "~/lib/verification";
import { summarizeVerification } from "~/lib/verification-summary";
import { readForm } from "~/server/form.server";
import { notFound } from "~/server/http.server";
import { requireClient } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";
import { submitVerification, verificationPageData } from "~/server/verification/cases.server";
import { DOCUMENT_KINDS, IDENTITY_DOCUMENT_TYPES } from "../../db/enums";
import type { Route } from "./+types/account_.verification";

const FORM_ID = "verification-details";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Identity verification" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const { state, details, files } = await verificationPageData(context.db, user.id);
  if (!state) notFound();
  const now = Date.now();
  return {
    summary: summarizeVerification(state, now, context.env.VERIFICATION_INTRODUCED_AT),
    editable: isEditableByClient(state.status),
    details,
    files: Object.fromEntries(files.map(({ kind, ...file }) => [kind, file])),
    // The date input's latest day: nobody is born tomorrow (the 18-year rule is the server's).
    today: new Date(now).toISOString().slice(0, 10),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireClient(request, context);
  const parsed = parseVerificationForm(await readForm(request), Date.now());
  if (!parsed.ok) return data(refusalOf(parsed), { status: 400 });
  const result = await submitVerification(context, user.id, parsed.data);
  if (!result.ok) return data({ error: result.error, field: result.field }, { status: result.status });
  return redirectWithToast(context.env, "/account/verification", {
    type: "success",
    description: VERIFICATION_MESSAGES.submitted,
  });
}

export default function IdentityVerification({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { summary, editable, details, files, today } = loaderData;
  const [documentType, setDocumentType] = useState(details?.documentType ?? "");
  // A passport has no back; before a type is chosen every slot shows (and without JavaScript).
  const kinds = DOCUMENT_KINDS.filter((kind) => kind !== "identity_back" || documentType !== "passport");
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <Link to="/account" className="text-sm font-medium text-brand hover:underline">
        Back to Account Settings
      </Link>
      <h1 className="text-3xl font-bold">Identity verification</h1>
      <VerificationStatusCard summary={summary} withLink={false} title="Your status" />
      {editable ? null : (
        <p className="text-sm text-ink-muted">
          {summary.status === "approved"
            ? "Your identity is verified. Nothing more is needed."
            : VERIFICATION_MESSAGES.caseLocked}
        </p>
      )}
      <FormErrors reply={reply}>
        {reply?.error ? <Banner tone="error">{reply.error}</Banner> : null}
        <Form
          id={FORM_ID}
          method="post"
          className="space-y-5 rounded-xl border border-border bg-surface p-6"
          aria-labelledby="details-title"
        >
          <h2 id="details-title" className="text-lg font-semibold">
            Your details
          </h2>
          <p className="text-sm text-ink-muted">As they are written on your identity document.</p>
          <fieldset disabled={!editable} className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Legal first name"
              name="legalFirstName"
              autoComplete="given-name"
              defaultValue={details?.legalFirstName ?? ""}
              required
            />
            <Field
              label="Legal last name"
              name="legalLastName"
              autoComplete="family-name"
              defaultValue={details?.legalLastName ?? ""}
              required
            />
            <Field
              label="Date of birth"
              name="dateOfBirth"
              type="date"
              max={today}
              autoComplete="bday"
              defaultValue={details?.dateOfBirth ?? ""}
              hint="You must be 18 or older."
              required
            />
            <SelectField
              label="Country of residence"
              name="country"
              autoComplete="country-name"
              defaultValue={details?.country ?? ""}
              required
            >
              <option value="">Select your country</option>
              {COUNTRIES.map((country) => (
                <option key={country.name} value={country.name}>
                  {country.name}
                </option>
              ))}
            </SelectField>
            <Field
              label="Residential address"
              name="address"
              autoComplete="street-address"
              defaultValue={details?.address ?? ""}
              hint="Street and number, town, postcode: where you live now."
              className="sm:col-span-2"
              required
            />
            <SelectField
              label="Document type"
              name="documentType"
              value={documentType}
              onChange={(event) => setDocumentType(event.currentTarget.value)}
              required
            >
              <option value="">Select a document</option>
              <LabelledOptions values={IDENTITY_DOCUMENT_TYPES} labels={IDENTITY_DOCUMENT_TYPE_LABELS} />
            </SelectField>
            <Field
              label="Document number"
              name="documentNumber"
              autoComplete="off"
              spellCheck={false}
              defaultValue={details?.documentNumber ?? ""}
              required
            />
          </fieldset>
        </Form>
        <section className="space-y-4 rounded-xl border border-border bg-surface p-6" aria-labelledby="files-title">
          <h2 id="files-title" className="text-lg font-semibold">
            Your documents
          </h2>
          {editable ? (
            <p className="text-sm text-ink-muted">
              Each file is sent as soon as you choose it. You can replace a file until it is reviewed.
            </p>
          ) : null}
          {kinds.map((kind) => (
            <DocumentSlot
              key={kind}
              kind={kind}
              label={DOCUMENT_KIND_LABELS[kind]}
              hint={DOCUMENT_KIND_HINTS[kind]}
              action={`/account/verification/documents/${kind}`}
              file={files[kind] ?? null}
              editable={editable}
            />
          ))}
        </section>
        {editable ? (
          <SubmitButton form={FORM_ID} pendingText="Sending..." className="w-full">
            Send for review
          </SubmitButton>
        ) : null}
      </FormErrors>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
