// Package scenario is ebref's scenario language (.ebs files,
// docs/scenarios.md): its lexer, its syntax tree, its parser and its
// formatter. A file declares heaps, resources, queues and fences, records
// command lists of work and barriers, submits them and states
// expectations; Parse turns it into Scenarios (sections, includes and
// parameters make one file several cases), Format prints a case back as
// text that parses to it (Diff compares two), and FormatBarrier prints a
// DDI record back as the line that writes it.
//
// The package says what a file means, never what running it does: the
// runner in package hlk executes a Scenario against a driver and judges
// it, and bench builds and prints frames in it. Features and Metrics are
// the words `require` and `expect cost` may use, with what each means on a
// profile's machine.
//
// Every way a file can be wrong is a *ParseError carrying its file, line
// and column, and a hostile file costs bounded time and memory (the
// limits are docs/conformance.md's "Limits").
//
// This package imports cmdbuf, ddi, ddi/debug, ddi/legacy, hlk/driver,
// hwmodel and resource, and nothing else of ebref.
package scenario
