package translator

import (
	"fmt"
	"io"
	"os"
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
// calls that return at once, waiting for it in Go's poller. One goroutine
// at a time reads or writes it; its calls allocate nothing.
type rawPipe struct {
	f           *os.File
	rc          syscall.RawConn
	b           []byte
	n           uintptr
	errno       syscall.Errno
	read, write func(fd uintptr) bool
}

func newRawPipe(f *os.File) (*rawPipe, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	p := &rawPipe{f: f, rc: rc}
	p.read = func(fd uintptr) bool { return p.once(syscall.SYS_READ, fd) }
	p.write = func(fd uintptr) bool { return p.once(syscall.SYS_WRITE, fd) }
	return p, nil
}

// once reads or writes p.b once; false (EAGAIN) waits in the poller.
func (p *rawPipe) once(op, fd uintptr) bool {
	for {
		p.n, _, p.errno = syscall.RawSyscall(op, fd, uintptr(unsafe.Pointer(&p.b[0])), uintptr(len(p.b)))
		if p.errno != syscall.EINTR {
			return p.errno != syscall.EAGAIN
		}
	}
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
	p, err := newRawPipe(os.NewFile(uintptr(fd), f.Name())) // non-blocking: in the poller
	if err != nil {
		syscall.Close(fd)
		return nil
	}
	return p
}

func (p *rawPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.b = b
	err := p.rc.Read(p.read)
	p.b = nil
	switch {
	case err != nil:
		return 0, err
	case p.errno != 0:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: p.errno}
	case p.n == 0:
		return 0, io.EOF
	}
	return int(p.n), nil
}

func (p *rawPipe) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		p.b = b[done:]
		err := p.rc.Write(p.write)
		p.b = nil
		switch {
		case err != nil:
			return done, err
		case p.errno != 0:
			return done, &os.PathError{Op: "write", Path: p.f.Name(), Err: p.errno}
		}
		done += int(p.n)
	}
	return done, nil
}

func (p *rawPipe) Close() error { return p.f.Close() }

// childPipe is a pipe to or from a translator: the child's end blocks (a
// plain descriptor, as any program expects its standard input and output);
// ebref's end (own, the read end if ownRead) is a rawPipe of its own open
// file description. A blocking read on os.File would hold its P in a
// system call: in a default run, with both Ps busy, Go's sysmon took it
// away again and again and then polled every 20 µs, a thread switch more a
// call; a goroutine waiting in the poller gives its P back.
func childPipe(ownRead bool) (child *os.File, own pipeEnd, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	c, o := p[0], p[1]
	if ownRead {
		c, o = o, c
	}
	if err := syscall.SetNonblock(o, true); err != nil {
		syscall.Close(c)
		syscall.Close(o)
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	rp, err := newRawPipe(os.NewFile(uintptr(o), "|")) // non-blocking: in the poller
	if err != nil {
		syscall.Close(c)
		syscall.Close(o)
		return nil, nil, err
	}
	return os.NewFile(uintptr(c), "|"), rp, nil
}
