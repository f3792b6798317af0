import { isKnownCountry } from "~/lib/countries";
import { type FormSchema, formSchema, secret, type TextField, text } from "~/lib/forms";

/**
 * The account forms' rules, shared by the browser (instant feedback) and the actions (the rules that count).
 * The messages and the order of the checks are the product's (docs/product.md, "Messages"): the checks run in
 * that order and only the first failure is reported, with the field it is about.
 */
export const MIN_PASSWORD_LENGTH = 6;

export const MESSAGES = {
  invalidEmail: "Please enter a valid email address",
  termsRequired: "You must accept the terms and conditions",
  passwordsDoNotMatch: "Passwords do not match",
  passwordTooShort: "Password must be at least 6 characters long",
  namesRequired: "First name and last name are required",
  phoneRequired: "Phone number is required",
  phoneInvalid: "Please enter a valid phone number",
  usernameRequired: "Username is required",
  countryRequired: "Country is required",
  emailTaken: "An account with this email already exists",
  invalidCredentials: "Invalid login credentials",
  signInRequired: "Please enter your email and password",
  tooManyAttempts: "Too many sign-in attempts. Please try again later.",
  tooManyRegistrations: "Too many registration attempts. Please try again later.",
  challengeRequired: "Please complete the security check.",
  resetEmailSent: "Password reset email sent! Please check your inbox.",
  passwordUpdatedRedirecting: "Password updated successfully! Redirecting to login...",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please request a new one.",
  newPasswordsDoNotMatch: "New passwords do not match",
  currentPasswordWrong: "Current password is incorrect",
  tooManyWrongPasswords: "Too many wrong passwords. Please try again in 15 minutes.",
  profileUpdated: "Profile updated successfully",
  passwordUpdated: "Password updated successfully",
  confirmationSent: "A new confirmation link is on its way to your inbox. Links we sent before it no longer work.",
  alreadyConfirmed: "Your e-mail address is already confirmed.",
  tooManyConfirmations:
    "You have had as many confirmation links as we send in an hour. Please use the latest one, or ask again later.",
} as const;

/** The account's text fields: how messages name them, and their length limits. */
const TEXT_FIELDS = {
  email: { label: "Email", max: 320 },
  firstName: { label: "First name", max: 100 },
  lastName: { label: "Last name", max: 100 },
  phoneNumber: { label: "Phone number", max: 40 },
  username: { label: "Username", max: 60 },
  country: { label: "Country", max: 100 },
  referralId: { label: "Referral ID", max: 60 },
} satisfies Record<string, TextField>;
const { email: emailField, ...profileFields } = TEXT_FIELDS;
/** The form field the security check's widget (Cloudflare Turnstile) puts its token in. */
export const CHALLENGE_FIELD = "cf-turnstile-response";
/** The token, as the action passes it to the check (Cloudflare's tokens are at most 2048 characters). */
const challenge = (v: Record<string, unknown>) => text(v[CHALLENGE_FIELD], 2048);

const email = (value: unknown) => text(value, 320).toLowerCase();
const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value);
/**
 * A phone number as people write one: an optional leading +, then digits with spaces, dots, dashes or brackets
 * between them, 6 to 15 digits in all (the international format's most). Not "NaN", "-5" or markup.
 */
const isPhoneNumber = (value: string) =>
  /^\+?[\d\s().-]+$/.test(value) && /^\+?[\d(]/.test(value) && /^\d{6,15}$/.test(value.replace(/\D/g, ""));
/** The phone's checks, the same on registration, on "Complete your profile" and on the profile form. */
const phoneRules = <Fields extends { phoneNumber: string }>() =>
  [
    [(v: Fields) => v.phoneNumber !== "", MESSAGES.phoneRequired, "phoneNumber"],
    [(v: Fields) => isPhoneNumber(v.phoneNumber), MESSAGES.phoneInvalid, "phoneNumber"],
  ] as const;
/** "First name and last name are required" is about the first of the two that is blank. */
const blankName = (v: { firstName: string }) => (v.firstName === "" ? "firstName" : "lastName");

/** What every new client gives besides the e-mail and a password, however the e-mail is vouched for. */
const readNewClient = (v: Record<string, unknown>) => ({
  firstName: text(v.firstName, 100),
  lastName: text(v.lastName, 100),
  phoneNumber: text(v.phoneNumber, 40),
  username: text(v.username, 60),
  country: text(v.country, 100),
  referralId: text(v.referralId, 60),
  terms: v.terms === "on" || v.terms === true || v.terms === "true",
});
type NewClientFields = ReturnType<typeof readNewClient>;

const termsRule = [(v: NewClientFields) => v.terms, MESSAGES.termsRequired, "terms"] as const;
/** The registration's checks after the password's, in the product's order. */
const newClientRules = [
  [(v: NewClientFields) => v.firstName !== "" && v.lastName !== "", MESSAGES.namesRequired, blankName],
  ...phoneRules<NewClientFields>(),
  [(v: NewClientFields) => v.username !== "", MESSAGES.usernameRequired, "username"],
  [(v: NewClientFields) => v.country !== "" && isKnownCountry(v.country), MESSAGES.countryRequired, "country"],
] as const;

export const registrationSchema = formSchema(
  (v) => ({
    email: email(v.email),
    password: secret(v.password),
    confirmPassword: secret(v.confirmPassword),
    ...readNewClient(v),
    challenge: challenge(v),
  }),
  [
    [(v) => isEmail(v.email), MESSAGES.invalidEmail, "email"],
    termsRule,
    [(v) => v.password === v.confirmPassword, MESSAGES.passwordsDoNotMatch, "confirmPassword"],
    [(v) => v.password.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort, "password"],
    ...newClientRules,
  ],
  undefined,
  TEXT_FIELDS,
);

/**
 * "Complete your profile" after a sign-in provider vouched for the e-mail: the registration's fields and checks
 * without the e-mail (the provider's) and the password (there is none).
 */
export const completeProfileSchema = formSchema(
  readNewClient,
  [termsRule, ...newClientRules],
  undefined,
  profileFields,
);
export type CompleteProfileInput = NewClientFields;

/** A registration as the account service takes it (the security check is the action's business). */
export type RegistrationInput = Omit<typeof registrationSchema extends FormSchema<infer T> ? T : never, "challenge">;

export const signInSchema = formSchema(
  (v) => ({
    email: email(v.email),
    password: secret(v.password),
    redirectTo: text(v.redirectTo, 500),
    challenge: challenge(v),
  }),
  [
    [
      (v) => v.email !== "" && v.password !== "",
      MESSAGES.signInRequired,
      (v) => (v.email === "" ? "email" : "password"),
    ],
  ],
);

export const forgotPasswordSchema = formSchema(
  (v) => ({ email: email(v.email), challenge: challenge(v) }),
  [[(v) => isEmail(v.email), MESSAGES.invalidEmail, "email"]],
  undefined,
  { email: emailField },
);

export const resetPasswordSchema = formSchema(
  (v) => ({ token: text(v.token, 200), password: secret(v.password), confirmPassword: secret(v.confirmPassword) }),
  [
    [(v) => v.password === v.confirmPassword, MESSAGES.passwordsDoNotMatch, "confirmPassword"],
    [(v) => v.password.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort, "password"],
  ],
);

export const profileSchema = formSchema(
  (v) => ({ firstName: text(v.firstName, 100), lastName: text(v.lastName, 100), phoneNumber: text(v.phoneNumber, 40) }),
  [
    [(v) => v.firstName !== "" && v.lastName !== "", MESSAGES.namesRequired, blankName],
    ...phoneRules<{ firstName: string; lastName: string; phoneNumber: string }>(),
  ],
  undefined,
  { firstName: profileFields.firstName, lastName: profileFields.lastName, phoneNumber: profileFields.phoneNumber },
);

export const changePasswordSchema = formSchema(
  (v) => ({
    currentPassword: secret(v.currentPassword),
    newPassword: secret(v.newPassword),
    confirmPassword: secret(v.confirmPassword),
  }),
  [
    [(v) => v.newPassword === v.confirmPassword, MESSAGES.newPasswordsDoNotMatch, "confirmPassword"],
    [(v) => v.newPassword.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort, "newPassword"],
  ],
);
