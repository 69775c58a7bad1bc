//go:build !linux || !amd64

package dditrace

import (
	"context"
	"errors"
)

var errPlatform = errors.New("tracing needs Linux on amd64 (uprobes and BPF programs for Go's amd64 register ABI)")

// Check reports that this platform cannot trace.
func Check() error { return errPlatform }

// Run reports that this platform cannot trace.
func Run(context.Context, Options) (*Result, error) { return nil, errPlatform }
