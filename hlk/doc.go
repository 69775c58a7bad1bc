// Package hlk is ebref's conformance harness: suites written in the
// scenario language (package hlk/scenario), and a runner that executes
// them against a user-mode driver on every hardware profile of the
// simulated GPU and reports per case.
//
// A case's expectations are bytes equal to the sequentially consistent
// reference, given bytes, hazards or their absence, validation messages by
// ID, packet and cost bounds. Run runs one parsed case on a profile.
//
// Suites loads the default set: the directories under hlk/suites (the
// spec's HLK areas, barrier rules, validation, costs) and the suites
// package hlk/gen writes (rule tables, products of operations, random
// programs); Shrink reduces a failing program to a smaller one that still
// fails. Execute runs a Config (filters, shards, jobs, a
// fault to inject) into a Report, written as a console summary, JSON or
// JUnit XML; Merge joins sharded reports; Mutation runs once per fault the
// driver offers and shows which cases catch each.
//
// The driver under test is a Driver (Reference is ebref's own, package
// umd); docs/conformance.md describes the statuses, the reports and how to
// plug in another implementation.
//
// This package imports cmdbuf, ddi, ddi/debug, ddi/legacy, hlk/driver,
// hlk/gen, hlk/scenario, hwmodel, internal/printable, resource and
// umd/translator, and nothing else of ebref: it judges a driver through hlk/driver's
// interfaces and imports none.
package hlk
