// Package docs holds roundtable's documentation (the Markdown pages beside
// this file) and the code that keeps it true: Parse finds the fenced code
// blocks of a page with their docs-test directives, and Anchors and Links
// read a page's anchors and relative links.
//
// Its tests run every shell block of README.md and docs/*.md against a
// freshly built binary (TestDocsCommands) and check that every relative
// link and every docs/protocol.md anchor cited in the code exists
// (TestDocsLinks). A block is marked with an HTML comment on the line
// before its fence:
//
//	<!-- docs-test: skip: REASON -->    not run; reported as skipped with REASON
//	<!-- docs-test: serve -->           run until its page answers HTTP 200, then interrupted
//	<!-- docs-test: serve with ARGS --> the same, with ARGS appended to its command
//	<!-- docs-test: repo -->            run in the repository's root instead of a scratch directory
package docs
