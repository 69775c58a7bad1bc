// Package dditrace traces the DDI entry points of a running Go process that
// links ebref, from outside it, with eBPF uprobes.
//
// The traced program is neither changed nor restarted. For each entry point
// (EntryPoints) a probe sits on the function's first instruction and one on
// every RET instruction in its body, found by decoding the machine code
// between the bounds the binary's symbol table (or, in a stripped binary,
// its pclntab) gives. Return probes of the kernel's own kind (uretprobes)
// are never used: they replace the return address on the stack, and the Go
// runtime copies stacks when they grow, which breaks a program traced that
// way.
//
// An entry and its return are paired by goroutine and frame: Go's register
// ABI keeps the running goroutine's g in R14, and the distance from the top
// of the goroutine's stack (g.stack.hi) to the stack pointer at entry is the
// same at the function's RET, even when the runtime moved the stack in
// between. The same distance also recognises the entry probe firing twice
// for one call: a function whose frame does not fit calls the runtime to
// grow the stack and then starts again from its first instruction.
//
// The BPF programs are assembled in Go with cilium/ebpf's asm package when a
// trace starts, so the build needs no C toolchain and ships no object files.
// They keep per-entry-point latency histograms (log2 buckets) in an array
// map and copy every Barrier call's barrier array out of the traced
// process's memory into a ring buffer, in chunks, while the call is being
// made.
//
// Tracing needs Linux on amd64 and the privilege to load BPF programs (root,
// or CAP_BPF with CAP_PERFMON); Check reports what is missing.
//
// This package imports ddi and nothing else of ebref: it reads the barrier
// arrays it copies out with ddi's codec.
package dditrace
