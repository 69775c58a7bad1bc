package translator

import (
	"os"
	"os/exec"
	"syscall"
)

// orphanProof has the kernel kill the translator if ebref dies without
// closing it (a SIGKILL, a crash), so no translator outlives its run.
func orphanProof(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// blockingPipe is a pipe whose ends block and that Go's network poller
// never watches. os.Pipe registers both ends with epoll, and that stays so
// after File.Fd makes them blocking: every reply arriving and every
// request drained then woke the thread sleeping in epoll_wait, which found
// no goroutine to run and slept again, two context switches on the other
// CPU a round trip (BenchmarkRoundTrip).
func blockingPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
