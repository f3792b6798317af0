import { ChainPaymentsTable } from "~/components/admin/chain-payments-table";
import { AdminPageHeader } from "~/components/admin/page-header";
import { pageMeta, RouteError } from "~/components/route-error";
import { adminPageTitle } from "~/lib/navigation";
import { deskChainPayments } from "~/server/chain/desk-payments.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.chain-payments";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Chain payments") }]);

/** Read only: the watcher decides these payments, the desk looks (docs/product.md, "Deposits on chain"). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "readChainPayments");
  return deskChainPayments(context.db);
}

const SECTIONS = [
  {
    key: "waiting",
    title: "Waiting to be credited",
    note: "Confirmed payments not credited yet, tried again every minute: a USD rate older than five minutes is never used.",
    empty: "No payment is waiting.",
    since: "Waiting since",
  },
  {
    key: "setAside",
    title: "Set aside",
    note: "Not credited and not tried again: less than one cent, or more than the ledger takes.",
    empty: "No payment is set aside.",
    since: "Since",
  },
  {
    key: "reorganisedOut",
    title: "Left the chain after reaching the ledger",
    note: "Credited or held payments whose block a reorganisation took out. The money was not taken back: check each transaction on chain.",
    empty: "No payment in the ledger has left the chain.",
    since: "Found",
  },
] as const;

export default function ChainPayments({ loaderData }: Route.ComponentProps) {
  return (
    <section className="space-y-6">
      <AdminPageHeader title="Chain payments">
        Payments to clients' own deposit addresses that the watcher has not credited, or that left the chain after it
        did, oldest first.
      </AdminPageHeader>
      {SECTIONS.map((section) => {
        const payments = loaderData[section.key];
        return (
          <article
            key={section.key}
            aria-labelledby={`chain-${section.key}`}
            className="rounded-xl border border-border bg-surface p-4"
          >
            <h2 id={`chain-${section.key}`} className="text-lg font-semibold">
              {section.title} ({payments.length})
            </h2>
            <p className="mt-1 text-sm text-ink-muted">{section.note}</p>
            {payments.length === 0 ? (
              <p className="mt-3 text-sm text-ink-muted">{section.empty}</p>
            ) : (
              <div className="mt-3 overflow-x-auto">
                <ChainPaymentsTable
                  caption={section.title}
                  payments={payments}
                  sinceLabel={section.since}
                  testId={`chain-${section.key}`}
                />
              </div>
            )}
          </article>
        );
      })}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
