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
  tooManyRegistrations: "Too many registration attempts. Please try again later.",
  resetEmailSent: "Password reset email sent! Please check your inbox.",
  passwordUpdatedRedirecting: "Password updated successfully! Redirecting to login...",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please request a new one.",
  newPasswordsDoNotMatch: "New passwords do not match",
  currentPasswordWrong: "Current password is incorrect",
  profileUpdated: "Profile updated successfully",
  passwordUpdated: "Password updated successfully",
} as const;

/**
 * A form schema: reads raw form values into typed, trimmed data, then checks the rules in order and reports
 * only the first failure. Plain functions rather than a validation library: these forms run in the browser
 * too, and the rules are simple ordered checks.
 */
export interface FormSchema<T> {
  parse(values: Record<string, unknown>): { ok: true; data: T } | { ok: false; error: string };
}

type Rule<T> = [passes: (value: T) => boolean, message: string];

function formSchema<T>(read: (values: Record<string, unknown>) => T, rules: Array<Rule<T>>): FormSchema<T> {
  return {
    parse(values) {
      const data = read(values);
      for (const [passes, message] of rules) if (!passes(data)) return { ok: false, error: message };
      return { ok: true, data };
    },
  };
}

/** A trimmed text field, at most `max` characters (longer input is refused by the rules as blank). */
const text = (value: unknown, max = 200) => (typeof value === "string" && value.length <= max ? value.trim() : "");
/** A password: never trimmed, at most 200 characters. */
const secret = (value: unknown) => (typeof value === "string" && value.length <= 200 ? value : "");
const email = (value: unknown) => text(value, 320).toLowerCase();
const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value);

export const registrationSchema = formSchema(
  (v) => ({
    email: email(v.email),
    password: secret(v.password),
    confirmPassword: secret(v.confirmPassword),
    firstName: text(v.firstName, 100),
    lastName: text(v.lastName, 100),
    phoneNumber: text(v.phoneNumber, 40),
    username: text(v.username, 60),
    country: text(v.country, 100),
    referralId: text(v.referralId, 60),
    terms: v.terms === "on" || v.terms === true || v.terms === "true",
  }),
  [
    [(v) => isEmail(v.email), MESSAGES.invalidEmail],
    [(v) => v.terms, MESSAGES.termsRequired],
    [(v) => v.password === v.confirmPassword, MESSAGES.passwordsDoNotMatch],
    [(v) => v.password.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort],
    [(v) => v.firstName !== "" && v.lastName !== "", MESSAGES.namesRequired],
    [(v) => v.phoneNumber !== "", MESSAGES.phoneRequired],
    [(v) => v.username !== "", MESSAGES.usernameRequired],
    [(v) => v.country !== "" && isKnownCountry(v.country), MESSAGES.countryRequired],
  ],
);
export type RegistrationInput = typeof registrationSchema extends FormSchema<infer T> ? T : never;

export const signInSchema = formSchema(
  (v) => ({ email: email(v.email), password: secret(v.password), redirectTo: text(v.redirectTo, 500) }),
  [[(v) => v.email !== "" && v.password !== "", MESSAGES.signInRequired]],
);

export const forgotPasswordSchema = formSchema(
  (v) => ({ email: email(v.email) }),
  [[(v) => isEmail(v.email), MESSAGES.invalidEmail]],
);

export const resetPasswordSchema = formSchema(
  (v) => ({ token: text(v.token), password: secret(v.password), confirmPassword: secret(v.confirmPassword) }),
  [
    [(v) => v.password === v.confirmPassword, MESSAGES.passwordsDoNotMatch],
    [(v) => v.password.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort],
  ],
);

export const profileSchema = formSchema(
  (v) => ({ firstName: text(v.firstName, 100), lastName: text(v.lastName, 100), phoneNumber: text(v.phoneNumber, 40) }),
  [[(v) => v.firstName !== "" && v.lastName !== "", MESSAGES.namesRequired]],
);

export const changePasswordSchema = formSchema(
  (v) => ({
    currentPassword: secret(v.currentPassword),
    newPassword: secret(v.newPassword),
    confirmPassword: secret(v.confirmPassword),
  }),
  [
    [(v) => v.newPassword === v.confirmPassword, MESSAGES.newPasswordsDoNotMatch],
    [(v) => v.newPassword.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort],
  ],
);

/** Validates form data with one of the schemas above: the data, or the first message to show. */
export function validateForm<T>(
  schema: FormSchema<T>,
  form: FormData | Record<string, unknown>,
): { ok: true; data: T } | { ok: false; error: string } {
  return schema.parse(form instanceof FormData ? Object.fromEntries(form) : form);
}
