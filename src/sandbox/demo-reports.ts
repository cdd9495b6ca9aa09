/**
 * The demo's reports: fifteen reports in two deployments, placed on the sheets of the demo
 * workbook and of OTHER_WORKBOOK in every form and sync status the service knows (what each shows:
 * `demo.ts`, docs/sandbox.md "The demo data").
 */
import type { Report } from "../core/schema.js";
import { DAY, type DemoReportBuilder, HOUR } from "./demo-report-builder.js";
import { DEMO_WORKBOOK, OTHER_WORKBOOK } from "./demo-workbook.js";

const WB = DEMO_WORKBOOK;

/** The demo reports (a fresh copy each call), written with the given builder. */
export function demoReports({ place, report }: DemoReportBuilder): Report[] {
  return [
    report({
      id: 101,
      deploymentId: 1,
      name: "Revenue by Region",
      by: 11,
      query: {
        measures: ["orders.revenue"],
        dimensions: ["orders.region"],
        timeDimensions: [
          { dimension: "orders.created_at", granularity: "quarter", dateRange: ["2024-01-01", "2024-12-31"] },
        ],
        order: { "orders.region": "asc", "orders.created_at": "asc" },
      },
      pivot: {
        rows: ["orders.region"],
        columns: ["orders.created_at.quarter"],
        measures: ["orders.revenue"],
      },
      description: "Revenue per sales region and quarter.",
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "B2:F8",
          status: "UP_TO_DATE",
          current,
          id: "plc-101-summary",
          refreshedMinutesAgo: 12,
          by: 11,
        }),
        place({
          workbook: WB,
          sheet: "Q1 Sales",
          range: "B18:F24",
          status: "CHANGED",
          current,
          id: "plc-101-q1",
          refreshedMinutesAgo: 9 * DAY,
          by: 12,
        }),
        place({
          workbook: OTHER_WORKBOOK,
          sheet: "KPIs",
          range: "A1:E7",
          status: "UP_TO_DATE",
          current,
          id: "plc-101-board",
          refreshedMinutesAgo: 3 * HOUR,
          by: 11,
        }),
      ],
    }),
    report({
      id: 102,
      deploymentId: 1,
      name: "Monthly Active Customers",
      by: 12,
      description:
        "Customers with at least one order, and orders, per month (December 2023 to December 2024).",
      query: {
        measures: ["orders.customers", "orders.orders"],
        timeDimensions: [
          { dimension: "orders.created_at", granularity: "month", dateRange: ["2023-12-01", "2024-12-31"] },
        ],
        order: { "orders.created_at": "asc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "B12:D25",
          status: "UP_TO_DATE",
          current,
          id: "plc-102",
          refreshedMinutesAgo: 2 * HOUR,
          by: 12,
        }),
      ],
    }),
    report({
      id: 103,
      deploymentId: 1,
      name: "Top 10 Products",
      by: 13,
      description: "The ten products with the most revenue in 2024.",
      query: {
        measures: ["orders.revenue", "orders.units"],
        dimensions: ["orders.product"],
        timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
        order: { "orders.revenue": "desc" },
        limit: 10,
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "H2:J12",
          status: "CHANGED",
          current,
          id: "plc-103",
          refreshedMinutesAgo: 4 * DAY,
          by: 13,
        }),
      ],
    }),
    // Placed before placement ids and sheet ids existed: sheet name and anchor only.
    report({
      id: 104,
      deploymentId: 1,
      name: "Q1 Sales by Rep",
      by: 12,
      query: {
        measures: ["orders.revenue", "orders.orders", "orders.units"],
        dimensions: ["orders.sales_rep"],
        timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-03-31"] }],
        order: { "orders.revenue": "desc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Q1 Sales",
          range: "B2:E14",
          status: "UNKNOWN",
          current,
          refreshedMinutesAgo: 190 * DAY,
          by: 12,
          form: "no-sheet-id",
        }),
      ],
    }),
    // The oldest form: only `resultLocation` ("'Q1 Sales'!G2") and the end cell.
    report({
      id: 105,
      deploymentId: 1,
      name: "Q1 Sales by Channel",
      by: 14,
      query: {
        measures: ["orders.revenue", "orders.orders", "orders.avg_line"],
        dimensions: ["orders.channel"],
        timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-03-31"] }],
        order: { "orders.revenue": "desc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Q1 Sales",
          range: "G2:J9",
          status: "CHANGED",
          current,
          refreshedMinutesAgo: 200 * DAY,
          by: 14,
          form: "location-only",
        }),
      ],
    }),
    // On the sheet renamed "Regional" -> "Regions" after placing: stored under the old name, with the sheet's id.
    report({
      id: 106,
      deploymentId: 1,
      name: "Revenue by Country",
      by: 11,
      query: {
        measures: ["orders.revenue", "orders.orders", "orders.customers", "orders.margin_total"],
        dimensions: ["orders.country", "orders.region"],
        timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
        order: { "orders.revenue": "desc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Regions",
          range: "B2:G30",
          status: "UP_TO_DATE",
          current,
          id: "plc-106",
          refreshedMinutesAgo: 45,
          by: 11,
        }),
      ],
    }),
    report({
      id: 107,
      deploymentId: 1,
      name: "Regional Margin",
      by: 13,
      description: "Revenue, cost and margin per product category, 2024.",
      query: {
        measures: ["orders.revenue", "orders.cost_total", "orders.margin_total", "orders.units"],
        dimensions: ["orders.category"],
        timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
        order: { "orders.margin_total": "desc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Regions",
          range: "I2:M15",
          status: "CHANGED",
          current,
          refreshedMinutesAgo: 21 * DAY,
          by: 13,
        }),
      ],
    }),
    // On the sheet deleted and recreated under the same name: the stored sheet id is the old one.
    report({
      id: 108,
      deploymentId: 1,
      name: "Open Pipeline",
      by: 16,
      description: "The 19 largest open opportunities.",
      query: {
        measures: ["pipeline.amount", "pipeline.weighted_amount"],
        dimensions: ["pipeline.opportunity", "pipeline.account", "pipeline.stage", "pipeline.owner"],
        filters: [{ member: "pipeline.stage", operator: "notEquals", values: ["Closed Won", "Closed Lost"] }],
        order: { "pipeline.amount": "desc" },
        limit: 19,
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Pipeline",
          range: "A1:F20",
          status: "UNKNOWN",
          current,
          refreshedMinutesAgo: 60 * DAY,
          by: 16,
        }),
      ],
    }),
    report({
      id: 109,
      deploymentId: 1,
      name: "Win Rate by Stage",
      by: 16,
      query: {
        measures: ["pipeline.count", "pipeline.amount", "pipeline.avg_probability"],
        dimensions: ["pipeline.stage"],
        order: { "pipeline.avg_probability": "desc", "pipeline.stage": "asc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Pipeline",
          range: "H1:K8",
          status: "UP_TO_DATE",
          current,
          id: "plc-109",
          refreshedMinutesAgo: 5,
          by: 16,
        }),
      ],
    }),
    // Only the older top-level fields: no `externalWorkbookPlacements` at all.
    report({
      id: 110,
      deploymentId: 1,
      name: "Churn Watchlist",
      by: 14,
      description: "The twelve largest customers with a churn risk of 80% or more.",
      query: {
        measures: ["customers.mrr", "customers.avg_churn_risk"],
        dimensions: ["customers.name", "customers.segment"],
        filters: [{ member: "customers.churn_risk", operator: "gte", values: ["0.8"] }],
        order: { "customers.mrr": "desc" },
        limit: 12,
      },
      extra: { externalWorkbookId: WB.id, resultLocation: "Summary!B28", endResultCell: "E40" },
    }),
    // Not placed anywhere; the slow one.
    report({
      id: 111,
      deploymentId: 1,
      name: "Forecast vs Actual",
      by: 11,
      description:
        'Forecast against actual revenue per month of 2024 (a slow query: the data API answers "Continue wait" twice).',
      query: {
        measures: ["forecast.forecast", "forecast.actual"],
        timeDimensions: [
          { dimension: "forecast.month", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] },
        ],
        order: { "forecast.month": "asc" },
      },
    }),
    // Not placed anywhere; the big one: 50,000 rows of 8 columns (the data API's largest page).
    report({
      id: 113,
      deploymentId: 1,
      name: "Order Lines",
      by: 12,
      description: "Every order line, 50,000 at a time.",
      query: {
        measures: ["orders.revenue"],
        dimensions: [
          "orders.line_id",
          "orders.order_id",
          "orders.product",
          "orders.category",
          "orders.region",
          "orders.channel",
        ],
        timeDimensions: [{ dimension: "orders.created_at", granularity: "day" }],
        order: { "orders.line_id": "asc" },
        limit: 50000,
      },
    }),
    report({
      id: 112,
      deploymentId: 1,
      name: "Refund Requests",
      by: 12,
      query: {
        measures: ["refunds.count", "refunds.amount", "refunds.avg_days"],
        dimensions: ["refunds.reason"],
        order: { "refunds.count": "desc", "refunds.reason": "asc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "H14:K20",
          status: "UNKNOWN",
          current,
          id: "plc-112",
          refreshedMinutesAgo: 33 * DAY,
          by: 12,
        }),
      ],
    }),
    // Deployment 2.
    report({
      id: 201,
      deploymentId: 2,
      name: "Warehouse Stock",
      by: 13,
      query: {
        measures: ["stock.units", "stock.value"],
        dimensions: ["stock.warehouse"],
        order: { "stock.warehouse": "asc" },
      },
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Notes",
          range: "B2:D9",
          status: "UP_TO_DATE",
          current,
          id: "plc-201",
          refreshedMinutesAgo: 90,
          by: 13,
        }),
      ],
    }),
    report({
      id: 202,
      deploymentId: 2,
      name: "Support Tickets by Priority",
      by: 17,
      query: {
        measures: ["tickets.count", "tickets.avg_first_response"],
        dimensions: ["tickets.priority"],
        order: { "tickets.priority": "asc" },
      },
      extra: { source: "GOOGLE_SHEETS" },
      placements: (current) => [
        place({
          workbook: OTHER_WORKBOOK,
          sheet: "Sheet1",
          range: "A1:C6",
          status: "CHANGED",
          current,
          id: "plc-202",
          refreshedMinutesAgo: 14 * DAY,
          by: 17,
        }),
      ],
    }),
  ];
}
