// Package umd is ebref's reference user-mode driver for D3D12 Enhanced
// Barriers: the device and resource DDIs, command lists and queues, and the
// Barrier DDIs (PFND3D12DDI_BARRIER_0094 and _0088) validated and
// translated into the packets of package cmdbuf, which the simulated GPU of
// package hwmodel executes and judges.
//
// It is the only package where D3D12 meets the hardware. A driver author
// finds each rule where its name says:
//
//	barrier.go      the Barrier entry points: one call is one unit,
//	                validated, tracked, requested, translated, emitted
//	validate.go     every MUST of the spec, one check per rule, each failure a Message
//	seam.go         the call's translator.Request, and the reply checked and recorded
//	pipeline.go     a list's calls queued for a translator in another process, recorded at Close
//	reference.go    Reference, the translation behind the seam (every call's by default)
//	translate.go    the plan of a call and the packets it becomes
//	compression.go  which layouts keep a texture compressed, what a transition costs
//	hardware.go     sync -> stages, access -> clients, list type -> engine
//	work.go         draws, dispatches, copies (synchronous unless extended-async), clears
//	queue.go        ExecuteCommandLists and the debug layer's layout checks
//	crosslist.go    the debug layer's checks across lists and submissions
//	create.go, resource.go, destroy.go   heaps and resources, their lifetime
//	funcs.go        the function-table view, with each function's slot
//	faults.go       the faults conformance runs inject
//
// docs/translation.md is the map of the translation with generated tables
// and examples; docs/errata.md records what ebref decided where the spec is
// wrong or silent. A Device is safe for concurrent use; a CommandList is
// recorded, closed or reset by one goroutine at a time, and not while an
// ExecuteCommandLists reads it: a call that overlaps another gets an error,
// never a data race (errata E-LIST-GUARD).
//
// The functions every DDI goes through, whichever face of the driver is
// called, are marked //go:noinline: `ebref trace` puts uprobes on them in a
// running program, and an inlined copy would run unprobed
// (internal/dditrace.EntryPoints lists them; a test keeps the marks).
//
// This package imports caps, cmdbuf, ddi, ddi/debug, hlk/driver, hwmodel,
// internal/ortable, resource and umd/translator, and nothing else of ebref;
// never ddi/legacy, which sits beside it.
package umd
