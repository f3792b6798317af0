/** The three trading plans (docs/product.md, "Constants"). Amounts in dollars; `null` maximum means unlimited. */
interface TradingPlan {
  id: string;
  name: string;
  minimumAmount: number;
  maximumAmount: number | null;
  roi: string;
}

export const TRADING_PLANS: readonly TradingPlan[] = [
  { id: "standard", name: "Standard Plan", minimumAmount: 2500, maximumAmount: 10000, roi: "3% ROI" },
  { id: "master", name: "Master Plan", minimumAmount: 11000, maximumAmount: 50000, roi: "6% ROI" },
  { id: "premium", name: "Premium Plan", minimumAmount: 51000, maximumAmount: null, roi: "10% ROI" },
];
