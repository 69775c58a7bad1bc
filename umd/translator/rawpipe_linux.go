package translator

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// servedIO is what Serve reads and writes: where in and out are pipes (a
// translator started by ebref), each reopened non-blocking through
// /proc/self/fd as a pipe of its own (rawPipe); anything else as it is.
// done closes what was reopened.
//
// Why: Serve's goroutine does nothing but wait for the host's next request
// in a blocking read. Go's sysmon sees a goroutine that has not been
// rescheduled for 10 ms and takes its P away, over and over, and polls
// every 20 µs meanwhile; the translator's threads then spent more CPU on
// that than on serving (BenchmarkDefaultRun's translator-cpu-s/op). A
// goroutine parked in the poller leaves its P idle, and system calls that
// never enter the scheduler (syscall.RawSyscall on a non-blocking pipe)
// do not wake sysmon again.
func servedIO(in io.Reader, out io.Writer) (io.Reader, io.Writer, func()) {
	var opened []*os.File
	if f, ok := in.(*os.File); ok {
		if p := reopenPipe(f, syscall.O_RDONLY); p != nil {
			in, opened = p, append(opened, p.f)
		}
	}
	if f, ok := out.(*os.File); ok {
		if p := reopenPipe(f, syscall.O_WRONLY); p != nil {
			out, opened = p, append(opened, p.f)
		}
	}
	return in, out, func() {
		for _, f := range opened {
			f.Close()
		}
	}
}

// rawPipe is a pipe opened non-blocking, read and written with system
// calls that return at once, waiting for it in Go's poller.
type rawPipe struct {
	f  *os.File
	rc syscall.RawConn
}

// reopenPipe opens the pipe f is an end of again, non-blocking, as a new
// open file description: f's own flags, which other processes may share,
// stay as they are. Nil if f is not a pipe or cannot be reopened.
func reopenPipe(f *os.File, mode int) *rawPipe {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	fd := -1
	rc.Control(func(ofd uintptr) {
		var st syscall.Stat_t
		if syscall.Fstat(int(ofd), &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
			return
		}
		fd, _ = syscall.Open(fmt.Sprintf("/proc/self/fd/%d", ofd), mode|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	})
	if fd < 0 {
		return nil
	}
	p := os.NewFile(uintptr(fd), f.Name()) // non-blocking: in the poller
	prc, err := p.SyscallConn()
	if err != nil {
		p.Close()
		return nil
	}
	return &rawPipe{f: p, rc: prc}
}

func (p *rawPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var (
		n     uintptr
		errno syscall.Errno
	)
	err := p.rc.Read(func(fd uintptr) bool {
		for {
			n, _, errno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			if errno != syscall.EINTR {
				return errno != syscall.EAGAIN // EAGAIN: wait in the poller
			}
		}
	})
	runtime.KeepAlive(b)
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return int(n), nil
}

func (p *rawPipe) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		var (
			n     uintptr
			errno syscall.Errno
		)
		err := p.rc.Write(func(fd uintptr) bool {
			for {
				n, _, errno = syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[done])), uintptr(len(b)-done))
				if errno != syscall.EINTR {
					return errno != syscall.EAGAIN
				}
			}
		})
		switch {
		case err != nil:
			return done, err
		case errno != 0:
			return done, &os.PathError{Op: "write", Path: p.f.Name(), Err: errno}
		}
		done += int(n)
	}
	runtime.KeepAlive(b)
	return done, nil
}
