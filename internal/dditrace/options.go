package dditrace

import (
	"errors"
	"io"
	"os"
	"time"
)

// ErrPermission wraps the failure to load BPF programs for want of
// privilege.
var ErrPermission = errors.New("loading BPF programs needs root, or CAP_BPF with CAP_PERFMON")

// Options says what to trace.
type Options struct {
	// PID is a running process to trace; or Command (a program and its
	// arguments) is started, traced from its first instruction, and
	// waited for.
	PID     int
	Command []string
	// Duration, if positive, bounds the trace, counted from when the
	// probes are in.
	Duration time.Duration
	// The command's standard streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Attached, if set, is called with the traced process's pid once
	// the probes are in.
	Attached func(pid int)
	// OnCall, if set, receives each Barrier call once all of its records
	// have arrived. An error from it stops the trace.
	OnCall func(*Call) error
	// RingBytes sizes the ring buffer the records cross (a power of two
	// of at least a page); 0 means 64 MiB.
	RingBytes int
}

// Result is a finished trace: the report, and for a started command how
// it ended.
type Result struct {
	Report *Report
	// Command is the started command's end (nil with PID).
	Command *os.ProcessState
}
