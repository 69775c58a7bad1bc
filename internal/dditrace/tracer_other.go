//go:build !linux || !amd64

package dditrace

import (
	"context"
	"errors"
)

// ErrPermission wraps the failure to load BPF programs for want of
// privilege.
var ErrPermission = errors.New("loading BPF programs needs root, or CAP_BPF with CAP_PERFMON")

var errPlatform = errors.New("tracing needs Linux on amd64 (uprobes and BPF programs for Go's amd64 register ABI)")

// Check reports that this platform cannot trace.
func Check() error { return errPlatform }

// Run reports that this platform cannot trace.
func Run(context.Context, Options) (*Result, error) { return nil, errPlatform }
