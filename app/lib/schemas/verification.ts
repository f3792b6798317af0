import { isKnownCountry } from "~/lib/countries";
import { formSchema, formValues, type Parsed, type TextField, text } from "~/lib/forms";
import { MINIMUM_AGE_YEARS } from "~/lib/verification";
import { IDENTITY_DOCUMENT_TYPES, type IdentityDocumentType } from "../../../db/enums";

/**
 * The identity verification form's rules and messages (docs/product.md, "Identity verification"), shared by the
 * page and the action. Only the first failure is reported, in this order. The files are checked by the server
 * when they arrive and again when the case is sent (`VERIFICATION_FORM_MESSAGES.missingDocument`).
 */
const lowerFirst = (label: string) => `${label.charAt(0).toLowerCase()}${label.slice(1)}`;

export const VERIFICATION_FORM_MESSAGES = {
  legalNamesRequired: "Enter your legal first and last name as on your identity document",
  dateOfBirthInvalid: "Enter your date of birth",
  tooYoung: `You must be ${MINIMUM_AGE_YEARS} or older to open an account`,
  countryRequired: "Select your country of residence",
  addressRequired: "Enter your residential address",
  documentTypeRequired: "Select the type of identity document",
  documentNumberInvalid: "Enter the document number as printed (letters, digits, spaces or hyphens)",
  missingDocument: (label: string) => `Upload the ${lowerFirst(label)}`,
  newDocumentNeeded: (label: string) => `Upload a new file for the ${lowerFirst(label)}, as the review asked`,
} as const;

export const VERIFICATION_FIELDS = {
  legalFirstName: { label: "Legal first name", max: 100 },
  legalLastName: { label: "Legal last name", max: 100 },
  dateOfBirth: { label: "Date of birth", max: 10 },
  country: { label: "Country of residence", max: 100 },
  address: { label: "Residential address", max: 300 },
  documentType: { label: "Document type", max: 20 },
  documentNumber: { label: "Document number", max: 40 },
} as const satisfies Record<string, TextField>;

export interface VerificationDetails {
  legalFirstName: string;
  legalLastName: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  /** A name from the product's country list (as registration stores it). */
  country: string;
  address: string;
  documentType: IdentityDocumentType;
  documentNumber: string;
}

/** A real calendar day written YYYY-MM-DD ('2001-02-30' is not one). */
function calendarDay(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value ? null : day;
}

/** Whether someone born on `born` has had their 18th birthday by `now` (UTC days). */
export function isOfAge(born: Date, now: number): boolean {
  const comesOfAge = new Date(born);
  comesOfAge.setUTCFullYear(comesOfAge.getUTCFullYear() + MINIMUM_AGE_YEARS);
  return comesOfAge.getTime() <= now;
}

const isDocumentType = (value: string): value is IdentityDocumentType =>
  (IDENTITY_DOCUMENT_TYPES as readonly string[]).includes(value);

const verificationSchema = formSchema(
  (v, _now: number) => {
    const dateOfBirth = text(v.dateOfBirth, 10);
    return {
      legalFirstName: text(v.legalFirstName, 100),
      legalLastName: text(v.legalLastName, 100),
      dateOfBirth,
      born: calendarDay(dateOfBirth),
      country: text(v.country, 100),
      address: text(v.address, 300),
      documentType: text(v.documentType, 20),
      // Compared and stored in capitals: the same number typed in lower case is the same document.
      documentNumber: text(v.documentNumber, 40).toUpperCase(),
    };
  },
  [
    [
      (v) => v.legalFirstName !== "" && v.legalLastName !== "",
      VERIFICATION_FORM_MESSAGES.legalNamesRequired,
      (v) => (v.legalFirstName === "" ? "legalFirstName" : "legalLastName"),
    ],
    [
      (v, now) => v.born !== null && v.born.getTime() < now,
      VERIFICATION_FORM_MESSAGES.dateOfBirthInvalid,
      "dateOfBirth",
    ],
    [(v, now) => v.born !== null && isOfAge(v.born, now), VERIFICATION_FORM_MESSAGES.tooYoung, "dateOfBirth"],
    [(v) => isKnownCountry(v.country), VERIFICATION_FORM_MESSAGES.countryRequired, "country"],
    [(v) => v.address.length >= 5, VERIFICATION_FORM_MESSAGES.addressRequired, "address"],
    [(v) => isDocumentType(v.documentType), VERIFICATION_FORM_MESSAGES.documentTypeRequired, "documentType"],
    [
      (v) => /^[A-Z0-9][A-Z0-9 -]{2,39}$/.test(v.documentNumber),
      VERIFICATION_FORM_MESSAGES.documentNumberInvalid,
      "documentNumber",
    ],
  ],
  ({ born: _born, ...v }): VerificationDetails => ({
    ...v,
    documentType: v.documentType as IdentityDocumentType,
    documentNumber: v.documentNumber.replace(/\s+/g, " "),
  }),
  VERIFICATION_FIELDS,
);

/** The verification form's details, checked in the product's order against today's date (`now`). */
export function parseVerificationForm(form: FormData, now: number): Parsed<VerificationDetails> {
  return verificationSchema.parse(formValues(form), now);
}
