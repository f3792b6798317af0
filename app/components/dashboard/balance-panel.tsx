import { Link } from "react-router";
import { BalanceChart } from "~/components/portfolio/balance-chart";
import type { BalancePoint } from "~/lib/portfolio";
import { Panel } from "./panels";

/** The dashboard's compact balance line: the last 30 days, with the way to the whole picture on /portfolio. */
export function BalancePanel({ points }: { points: BalancePoint[] }) {
  return (
    <Panel
      title="Balance, last 30 days"
      action={
        <Link to="/portfolio" className="text-sm font-medium text-brand hover:underline">
          Open portfolio
        </Link>
      }
    >
      <BalanceChart points={points} title="Balance at the end of each day, 30 days" compact />
    </Panel>
  );
}
