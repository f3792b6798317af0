import { Link } from "react-router";
import { Moment } from "~/components/moment";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import type { IntentReply } from "~/lib/intent-reply";
import { AlertDecisions } from "./alert-decisions";

/** An alert as the page's loader hands it over (app/server/monitoring/alert-reads.server.ts). */
export interface AlertRowData {
  id: number;
  createdAt: number;
  client: { id: string; name: string; present: boolean };
  ruleName: string;
  words: string;
  transactions: Array<{ id: number; reference: string }>;
  status: string;
  decidedBy: string | null;
  decidedAt: number | null;
  note: string | null;
  reportReference: string | null;
}

const DECIDED_WORDS: Record<string, string> = {
  dismissed: "Dismissed",
  escalated: "Escalated",
  reported: "Report filed",
};

function Decision({ alert }: { alert: AlertRowData }) {
  return (
    <div className="text-sm">
      <p className="font-medium">{DECIDED_WORDS[alert.status] ?? alert.status}</p>
      <p className="text-ink-muted">
        {alert.decidedBy ?? "Unknown admin"}
        {alert.decidedAt ? (
          <>
            {", "}
            <Moment at={alert.decidedAt} />
          </>
        ) : null}
      </p>
      {alert.note ? <p className="break-words">{alert.note}</p> : null}
      {alert.reportReference ? <p className="break-words">Reference: {alert.reportReference}</p> : null}
    </div>
  );
}

/**
 * The queue's rows: when, the rule and its words, the client (to their page), the requests involved (each to its
 * row on the client's page, by reference), and the decision: the forms while open, who decided what once decided.
 */
export function AlertsTable({ alerts, reply }: { alerts: AlertRowData[]; reply: IntentReply | null | undefined }) {
  return (
    <StackedTable
      columns={["When", "Rule", "Client", "Transactions", "Decision"]}
      caption="Monitoring alerts"
      className="w-full text-left text-sm sm:min-w-[56rem]"
      bodyClassName={LIST_ROWS}
      testId="alerts"
    >
      {alerts.map((alert) => (
        <tr key={alert.id} data-alert={alert.id}>
          <td className="whitespace-nowrap">
            <Moment at={alert.createdAt} />
          </td>
          <td>
            <p className="font-medium">{alert.ruleName}</p>
            <p className="text-ink-muted">{alert.words}</p>
          </td>
          <td>
            {alert.client.present ? (
              <Link to={`/user/${alert.client.id}`} className="font-medium text-brand hover:underline">
                {alert.client.name}
              </Link>
            ) : (
              alert.client.name
            )}
          </td>
          <td>
            <ul className="flex flex-wrap gap-x-3 gap-y-1">
              {alert.transactions.map((tx) => (
                <li key={tx.id}>
                  {alert.client.present ? (
                    <Link
                      to={`/user/${alert.client.id}?reference=${tx.reference}`}
                      className="inline-block py-0.5 font-mono text-brand hover:underline"
                    >
                      {tx.reference}
                    </Link>
                  ) : (
                    <span className="font-mono">{tx.reference}</span>
                  )}
                </li>
              ))}
            </ul>
          </td>
          <td className="sm:min-w-[18rem]">
            {alert.status === "open" ? (
              <AlertDecisions alertId={alert.id} listed={alert.transactions.length} reply={reply} />
            ) : (
              <Decision alert={alert} />
            )}
          </td>
        </tr>
      ))}
    </StackedTable>
  );
}
