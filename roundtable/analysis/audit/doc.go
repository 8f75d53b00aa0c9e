// Package audit turns a table's log and its annotations (sentiment,
// stance, self-reports) into the audit of docs/protocol.md#live-audit:
// per-participant sentiment and stance trajectories, unwarranted stance
// changes of bots, the share of chats with at least one change, the
// agreement of the stance classifier with people's self-reports (Cohen's
// kappa), and cognitive-bias slopes (OLS through the origin of a
// participant's sentiment change on its peers' recent sentiment, positive
// and negative peers apart). Reports are written as CSV and SVG.
//
// The package reads annotations; it never measures. Live tables are
// annotated by the bot's auditor, stored runs by `roundtable annotate`.
package audit
