package translator

import (
	"os/exec"
	"syscall"
)

// orphanProof has the kernel kill the translator if ebref dies without
// closing it (a SIGKILL, a crash), so no translator outlives its run.
func orphanProof(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
