import { CountrySelect } from "~/components/country-select";
import { Field } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { requireUser } from "~/server/session.server";
import type { Route } from "./+types/trading-room";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Trading Room" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return null;
}

/** The form is shown, but joining is not open yet: its button stays disabled and nothing is sent. */
export default function TradingRoom() {
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Trading Room</h1>
      <form
        className="mt-6 space-y-5 rounded-xl border border-border bg-surface p-6"
        onSubmit={(event) => event.preventDefault()}
        aria-describedby="trading-room-note"
      >
        <h2 className="text-lg font-semibold">Join Trading Room</h2>
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <CountrySelect required />
        <button
          type="submit"
          disabled
          className="w-full cursor-not-allowed rounded-md bg-brand-strong px-4 py-2 font-semibold text-white opacity-60"
        >
          Join Trading Room
        </button>
        <p id="trading-room-note" className="text-xs text-ink-muted">
          The trading room is not open for new members yet.
        </p>
      </form>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
