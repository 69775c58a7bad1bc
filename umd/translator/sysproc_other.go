//go:build !linux

package translator

import (
	"os"
	"os/exec"
)

// orphanProof does nothing here: the translator sees its input end when
// ebref exits, and the protocol asks it to exit then.
func orphanProof(*exec.Cmd) {}

// blockingPipe is a pipe whose ends block: a read parked in Go's poller
// wakes later than a blocking one (BenchmarkRoundTrip).
func blockingPipe() (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err == nil {
		r.Fd()
		w.Fd()
	}
	return r, w, err
}
