import { z } from "zod";
import { isKnownCountry } from "~/lib/countries";

/**
 * The account forms' rules, shared by the browser (instant feedback) and the actions (the rules that
 * count). Messages are SPEC's, verbatim. Where SPEC fixes an order, the checks run in that order and
 * only the first failure is reported, as the old app did.
 */
export const MIN_PASSWORD_LENGTH = 6;

export const MESSAGES = {
  invalidEmail: "Please enter a valid email address",
  termsRequired: "You must accept the terms and conditions",
  passwordsDoNotMatch: "Passwords do not match",
  passwordTooShort: "Password must be at least 6 characters long",
  namesRequired: "First name and last name are required",
  phoneRequired: "Phone number is required",
  usernameRequired: "Username is required",
  countryRequired: "Country is required",
  emailTaken: "An account with this email already exists",
  invalidCredentials: "Invalid login credentials",
  signInRequired: "Please enter your email and password",
  tooManyAttempts: "Too many sign-in attempts. Please try again later.",
  resetEmailSent: "Password reset email sent! Please check your inbox.",
  passwordUpdatedRedirecting: "Password updated successfully! Redirecting to login...",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please request a new one.",
  newPasswordsDoNotMatch: "New passwords do not match",
  currentPasswordWrong: "Current password is incorrect",
  profileUpdated: "Profile updated successfully",
  passwordUpdated: "Password updated successfully",
} as const;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .catch("")
    .transform((value) => value.trim());
const email = z
  .string()
  .catch("")
  .transform((value) => value.trim().toLowerCase());

/** Each rule: a check and its message, in SPEC §5's order. */
function firstFailing<T>(rules: Array<[(value: T) => boolean, string]>) {
  return (value: T, ctx: z.RefinementCtx) => {
    for (const [passes, message] of rules) {
      if (!passes(value)) {
        ctx.addIssue({ code: "custom", message });
        return;
      }
    }
  };
}

const isEmail = (value: string) => z.email().safeParse(value).success;

export const registrationSchema = z
  .object({
    email,
    password: z.string().max(200).catch(""),
    confirmPassword: z.string().max(200).catch(""),
    firstName: text(100),
    lastName: text(100),
    phoneNumber: text(40),
    username: text(60),
    country: text(100),
    referralId: text(60),
    terms: z.unknown().transform((value) => value === "on" || value === true || value === "true"),
  })
  .superRefine(
    firstFailing([
      [(v) => isEmail(v.email), MESSAGES.invalidEmail],
      [(v) => v.terms, MESSAGES.termsRequired],
      [(v) => v.password === v.confirmPassword, MESSAGES.passwordsDoNotMatch],
      [(v) => v.password.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort],
      [(v) => v.firstName !== "" && v.lastName !== "", MESSAGES.namesRequired],
      [(v) => v.phoneNumber !== "", MESSAGES.phoneRequired],
      [(v) => v.username !== "", MESSAGES.usernameRequired],
      [(v) => v.country !== "" && isKnownCountry(v.country), MESSAGES.countryRequired],
    ]),
  );
export type RegistrationInput = z.output<typeof registrationSchema>;

export const signInSchema = z
  .object({ email, password: z.string().max(200).catch(""), redirectTo: z.string().max(500).catch("") })
  .superRefine(firstFailing([[(v) => v.email !== "" && v.password !== "", MESSAGES.signInRequired]]));

export const forgotPasswordSchema = z
  .object({ email })
  .superRefine(firstFailing([[(v) => isEmail(v.email), MESSAGES.invalidEmail]]));

export const resetPasswordSchema = z
  .object({
    token: z.string().max(200).catch(""),
    password: z.string().max(200).catch(""),
    confirmPassword: z.string().max(200).catch(""),
  })
  .superRefine(
    firstFailing([
      [(v) => v.password === v.confirmPassword, MESSAGES.passwordsDoNotMatch],
      [(v) => v.password.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort],
    ]),
  );

export const profileSchema = z
  .object({ firstName: text(100), lastName: text(100), phoneNumber: text(40) })
  .superRefine(firstFailing([[(v) => v.firstName !== "" && v.lastName !== "", MESSAGES.namesRequired]]));

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().max(200).catch(""),
    newPassword: z.string().max(200).catch(""),
    confirmPassword: z.string().max(200).catch(""),
  })
  .superRefine(
    firstFailing([
      [(v) => v.newPassword === v.confirmPassword, MESSAGES.newPasswordsDoNotMatch],
      [(v) => v.newPassword.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort],
    ]),
  );

/** Validates form data with one of the schemas above: the data, or the first message to show. */
export function validateForm<S extends z.ZodType>(
  schema: S,
  form: FormData | Record<string, unknown>,
): { ok: true; data: z.output<S> } | { ok: false; error: string } {
  const values = form instanceof FormData ? Object.fromEntries(form) : form;
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? "Please check the form and try again" };
}
