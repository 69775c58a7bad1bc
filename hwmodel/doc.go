// Package hwmodel is ebref's simulated GPU, the judge of every translation:
// a byte-accurate, adversarial machine executing cmdbuf packets, checked in
// lock step against a sequentially consistent reference. docs/hardware.md
// describes its rules, profiles, costs and hazard kinds.
//
// Memory is a sparse GPU virtual address space of real bytes. Engines run
// their packet streams in order; work occupies a stage for its duration and
// is ordered after earlier work only through WAIT, EVENT and FENCE packets.
// The model is adversarial: an op not ordered after a write sees the bytes
// as they were before it; writes stay in the writer's cache until a flush;
// read caches keep stale lines until an invalidate; compressed surfaces read
// wrong to clients that cannot decode them; metadata nobody initialised
// reads as garbage. Every time it serves data a correct program could not
// have seen, it records a Hazard that names the op, the earlier op it
// conflicts with and the packet that would have prevented it. Every packet
// has a cost in cycles (Counters).
//
// The files follow the machine's parts: level.go a cache level's lines
// and blocks; effects.go the in-flight effects an op leaves on lines and
// how they are undone for a reader not ordered after it; paths.go the
// views and paths a read or write takes through the levels; scratch.go
// the buffers reused across reads; accesslog.go the access log behind the
// write-after-read and write-after-write checks; merge.go the merging of
// effects no reader can tell apart; engine.go the engines and their
// timelines; exec.go what each packet does (WAIT's drain and hold
// beside it); compress.go compression; reference.go the sequentially
// consistent reference; hazard.go the hazards; cost.go the costs;
// memory.go the sparse memory; hostmem.go the host-memory budget;
// machine.go the machine that holds them.
//
// This package imports cmdbuf and nothing else of ebref: it knows
// addresses, surfaces, engines, stages, caches and compression, not D3D12.
package hwmodel
