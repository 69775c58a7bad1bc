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
// This package imports cmdbuf and nothing else of ebref: it knows
// addresses, surfaces, engines, stages, caches and compression, not D3D12.
package hwmodel
