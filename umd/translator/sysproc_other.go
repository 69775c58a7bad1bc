//go:build !linux

package translator

import (
	"os"
	"os/exec"
)

// orphanProof does nothing here: the translator sees its input end when
// ebref exits, and the protocol asks it to exit then.
func orphanProof(*exec.Cmd) {}

// childPipe is a pipe to or from a translator, both ends blocking (ebref's
// end waits in the poller on Linux only: rawpipe_linux.go). own is the
// read end if ownRead.
func childPipe(ownRead bool) (child *os.File, own pipeEnd, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	r.Fd()
	w.Fd()
	if ownRead {
		return w, r, nil
	}
	return r, w, nil
}
