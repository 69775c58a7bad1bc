//go:build linux && amd64

package dditrace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/link"
	"github.com/cilium/ebpf/ringbuf"
	"github.com/cilium/ebpf/rlimit"
	"github.com/ebref/ebref/ddi"
	"golang.org/x/sys/unix"
)

// Check reports whether this process may load BPF programs and attach
// uprobes: nil, or an error wrapping ErrPermission that says what is
// missing.
func Check() error {
	// Kernels before 5.11 charge BPF memory to RLIMIT_MEMLOCK; on later
	// ones this does nothing, and its failure matters only if loading
	// fails too.
	memlock := rlimit.RemoveMemlock()
	prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{Type: ebpf.Kprobe, License: "Dual MIT/GPL",
		Instructions: asm.Instructions{asm.Mov.Imm(asm.R0, 0), asm.Return()}})
	if err != nil {
		if memlock != nil {
			err = fmt.Errorf("%w; raising RLIMIT_MEMLOCK: %v", err, memlock)
		}
		return permission("loading a BPF program", err)
	}
	prog.Close()
	if _, err := os.Stat("/sys/bus/event_source/devices/uprobe"); err != nil {
		return fmt.Errorf("the kernel has no uprobe events (CONFIG_UPROBE_EVENTS): %w", err)
	}
	return nil
}

// Run traces until the command ends, the process exits, o.Duration has
// passed since the probes went in, or ctx is done (with a command, it then
// stops tracing and waits for the command).
func Run(ctx context.Context, o Options) (*Result, error) {
	if (o.PID == 0) == (len(o.Command) == 0) {
		return nil, errors.New("trace a PID or a command, one of the two")
	}
	if r := o.RingBytes; r != 0 && (r < os.Getpagesize() || r&(r-1) != 0) {
		return nil, fmt.Errorf("a ring buffer of %d bytes: want a power of two of at least a page (%d)", r, os.Getpagesize())
	}
	if err := Check(); err != nil {
		return nil, err
	}
	path := ""
	if o.PID != 0 {
		if o.PID < 0 {
			return nil, fmt.Errorf("pid %d: want a positive process id", o.PID)
		}
		path = fmt.Sprintf("/proc/%d/exe", o.PID)
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("pid %d: %w", o.PID, err)
		}
	} else {
		var err error
		if path, err = exec.LookPath(o.Command[0]); err != nil {
			return nil, err
		}
	}
	bin, err := ReadBinary(path, EntryPoints)
	if err != nil {
		return nil, err
	}
	over, err := calibrate()
	if err != nil {
		return nil, fmt.Errorf("measuring the probes' cost: %w", err)
	}
	t := &trace{opts: o, bin: bin, asm: newAssembler()}
	t.report.Executable, t.report.Overhead = path, over
	if o.PID != 0 {
		t.report.Executable, _ = os.Readlink(path)
		t.report.PID = o.PID
		err = t.attach(o.PID)
	} else {
		err = t.startCommand()
	}
	if err != nil {
		t.close()
		return nil, err
	}
	return t.follow(ctx)
}

// trace is one run's state.
type trace struct {
	opts   Options
	bin    *Binary
	p      *programs
	entry  []link.Link
	ret    []link.Link
	rd     *ringbuf.Reader
	asm    *assembler
	cmd    *exec.Cmd
	begun  time.Time
	report Report

	readErr  error
	readDone chan struct{}
}

// attach loads the programs for process pid and puts the probes in.
func (t *trace) attach(pid int) error {
	dev, ino, err := currentPidns()
	if err != nil {
		return err
	}
	ring := t.opts.RingBytes
	if ring == 0 {
		ring = 64 << 20
	}
	cfg := programConfig{tgid: uint32(pid), pidnsDev: dev, pidnsIno: ino, goidOffset: t.bin.GoidOffset,
		stackHiOffset: t.bin.StackHiOffset, entries: len(EntryPoints), ringBytes: ring, multi: haveUprobeMulti()}
	if t.p, err = newPrograms(cfg); err != nil {
		return err
	}
	if t.rd, err = ringbuf.NewReader(t.p.events); err != nil {
		return fmt.Errorf("reading the ring buffer: %w", err)
	}
	t.entry, t.ret, err = attachProbes(t.p, t.bin, EntryPoints)
	for _, ep := range EntryPoints {
		if fn := t.bin.Functions[ep.Symbol]; fn != nil {
			t.report.Probes += 1 + len(fn.Returns)
		} else {
			t.report.Missing = append(t.report.Missing, ep.Name)
		}
	}
	t.begun = time.Now()
	t.readDone = make(chan struct{})
	go t.read()
	if err == nil && t.opts.Attached != nil {
		t.opts.Attached(pid)
	}
	return err
}

// attachProbes puts an entry probe and a probe on every RET of each entry
// point bin links: in one uprobe_multi link for each program where p was
// loaded for them, else one uprobe each.
func attachProbes(p *programs, bin *Binary, eps []EntryPoint) (entry, ret []link.Link, err error) {
	ex, err := link.OpenExecutable(bin.Path)
	if err != nil {
		return nil, nil, err
	}
	type probe struct {
		symbol       string
		addr, offset uint64
		cookie       uint64
	}
	var entries, rets []probe
	for i, ep := range eps {
		if fn := bin.Functions[ep.Symbol]; fn != nil {
			ck := cookie(i, ep.Capture)
			entries = append(entries, probe{ep.Symbol, fn.FileOffset, 0, ck})
			for _, off := range fn.Returns {
				rets = append(rets, probe{ep.Symbol, fn.FileOffset, off, ck})
			}
		}
	}
	put := func(prog *ebpf.Program, probes []probe) ([]link.Link, error) {
		if len(probes) == 0 {
			return nil, nil
		}
		if p.multi {
			var opts link.UprobeMultiOptions
			for _, pr := range probes {
				opts.Addresses = append(opts.Addresses, pr.addr+pr.offset)
				opts.Cookies = append(opts.Cookies, pr.cookie)
			}
			l, err := ex.UprobeMulti(nil, prog, &opts)
			if err != nil {
				return nil, permission(fmt.Sprintf("attaching %d uprobes to %s", len(probes), bin.Path), err)
			}
			return []link.Link{l}, nil
		}
		var ls []link.Link
		for _, pr := range probes {
			l, err := ex.Uprobe(pr.symbol, prog, &link.UprobeOptions{Address: pr.addr, Offset: pr.offset, Cookie: pr.cookie})
			if err != nil {
				return ls, permission(fmt.Sprintf("attaching a uprobe to %s+%#x", pr.symbol, pr.offset), err)
			}
			ls = append(ls, l)
		}
		return ls, nil
	}
	if entry, err = put(p.entry, entries); err != nil {
		return entry, nil, err
	}
	ret, err = put(p.ret, rets)
	return entry, ret, err
}

// startCommand starts the command stopped at its first instruction (it
// asks to be ptraced, so exec stops it), puts the probes in, and lets it
// run: no call can be made before the probes are there.
func (t *trace) startCommand() error {
	// The ptrace requests must come from the thread that started it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.Command(t.opts.Command[0], t.opts.Command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = t.opts.Stdin, t.opts.Stdout, t.opts.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	t.cmd = cmd
	pid := cmd.Process.Pid
	t.report.PID = pid
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, 0, nil); err != nil {
		cmd.Process.Kill()
		return fmt.Errorf("waiting for %s to stop at its start: %w", t.opts.Command[0], err)
	}
	if !ws.Stopped() {
		return fmt.Errorf("%s ended before it could be traced (wait status %#x)", t.opts.Command[0], uint32(ws))
	}
	err := t.attach(pid)
	if derr := unix.PtraceDetach(pid); derr != nil && err == nil {
		err = fmt.Errorf("letting %s run: %w", t.opts.Command[0], derr)
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.cmd = nil
	}
	return err
}

// read takes events off the ring buffer until it is flushed or closed.
func (t *trace) read() {
	defer close(t.readDone)
	var rec ringbuf.Record
	for {
		if err := readPolling(t.rd, &rec); err != nil {
			if !errors.Is(err, ringbuf.ErrFlushed) && !errors.Is(err, os.ErrClosed) {
				t.readErr = err
			}
			return
		}
		call, err := t.asm.add(rec.RawSample)
		if err == nil && call != nil {
			t.report.Captured.Calls++
			t.report.Captured.Records += uint64(len(call.Records) / EntryPoints[call.Entry].Capture.Stride())
			if call.Truncated() {
				t.report.Captured.Truncated++
			}
			if call.Fault {
				t.report.Captured.Faults++
			}
			if t.opts.OnCall != nil {
				err = t.opts.OnCall(call)
			}
		}
		if err != nil {
			t.readErr = err
			return
		}
	}
}

// readPoll is how often the reader looks at the ring buffer: the probes
// submit without waking it.
const readPoll = 2 * time.Millisecond

// readPolling reads the next record, looking every readPoll; it returns
// the reader's errors but a deadline's.
func readPolling(rd *ringbuf.Reader, rec *ringbuf.Record) error {
	for {
		rd.SetDeadline(time.Now().Add(readPoll))
		err := rd.ReadInto(rec)
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return err
		}
	}
}

// follow waits for the end and builds the report.
func (t *trace) follow(ctx context.Context) (*Result, error) {
	ended := make(chan error, 1)
	if t.cmd != nil {
		go func() { ended <- t.cmd.Wait() }()
	} else {
		go func() { ended <- waitExit(ctx, t.report.PID) }()
	}
	res := &Result{Report: &t.report}
	commandDone := false
	var limit <-chan time.Time
	if t.opts.Duration > 0 {
		timer := time.NewTimer(t.opts.Duration)
		defer timer.Stop()
		limit = timer.C
	}
	select {
	case <-ctx.Done():
	case <-limit:
	case <-ended:
		commandDone = true
	case <-t.readDone:
	}
	err := t.finish()
	if t.cmd != nil {
		if !commandDone {
			<-ended
		}
		res.Command = t.cmd.ProcessState
	}
	return res, err
}

// waitExit returns when process pid has exited (or ctx is done).
func waitExit(ctx context.Context, pid int) error {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	for ctx.Err() == nil {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 200)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return err
		}
		if n > 0 {
			return nil
		}
	}
	return ctx.Err()
}

// finish takes the probes out, reads what is left in the ring buffer and
// the counters, and fills the report.
func (t *trace) finish() error {
	seconds := time.Since(t.begun).Seconds()
	for _, l := range t.entry {
		l.Close()
	}
	for _, l := range t.ret {
		l.Close()
	}
	t.entry, t.ret = nil, nil
	t.rd.Flush()
	<-t.readDone
	counters, err := t.p.readCounters()
	t.close()
	if err != nil {
		return err
	}
	t.report.Seconds = seconds
	for i, ep := range EntryPoints {
		c := counters[i*slotsPerEntry:]
		d := DDI{Name: ep.Name, Symbol: ep.Symbol, Calls: c[slotEntries], StackGrowths: c[slotRefires], TotalNs: c[slotSumNs]}
		copy(d.Histogram[:], c[:Buckets])
		for _, n := range d.Histogram {
			d.Returned += n
		}
		t.report.DDIs = append(t.report.DDIs, d)
		t.report.Captured.LostChunks += c[slotLost]
	}
	t.report.Captured.Incomplete = t.asm.incomplete()
	return t.readErr
}

func (t *trace) close() {
	for _, l := range append(t.entry, t.ret...) {
		l.Close()
	}
	if t.rd != nil {
		t.rd.Close()
	}
	if t.p != nil {
		t.p.close()
	}
}

// calibrationTarget is the empty function the probes' cost is measured on.
//
//go:noinline
func calibrationTarget(x uint64) uint64 { return x + 1 }

// captureTarget takes its arguments where Barrier does (a pointer, then a
// slice of records), so that its probes copy the records as Barrier's do.
//
//go:noinline
func captureTarget(_ *byte, bs []ddi.Barrier) uint64 { return uint64(len(bs)) }

const (
	calibrationSymbol = "github.com/ebref/ebref/internal/dditrace.calibrationTarget"
	captureSymbol     = "github.com/ebref/ebref/internal/dditrace.captureTarget"
	// calibrationRecords is the records of the measured capture.
	calibrationRecords = 16
)

// calibrate measures what probes cost: the same loop of calls to an empty
// function without and with probes, the latency the probes see for it,
// and the same for a function whose probes copy calibrationRecords
// records as a Barrier call's do.
func calibrate() (Overhead, error) {
	self, err := os.Executable()
	if err != nil {
		return Overhead{}, err
	}
	eps := []EntryPoint{{Name: "calibration", Symbol: calibrationSymbol}, {Name: "capture", Symbol: captureSymbol, Capture: Capture0094}}
	bin, err := ReadBinary(self, eps)
	if err != nil {
		return Overhead{}, err
	}
	if len(bin.Functions) != len(eps) {
		return Overhead{}, fmt.Errorf("%s lacks the calibration functions", self)
	}
	dev, ino, err := currentPidns()
	if err != nil {
		return Overhead{}, err
	}
	p, err := newPrograms(programConfig{tgid: uint32(os.Getpid()), pidnsDev: dev, pidnsIno: ino, goidOffset: -1,
		stackHiOffset: bin.StackHiOffset, entries: len(eps), ringBytes: 64 << 10, multi: haveUprobeMulti()})
	if err != nil {
		return Overhead{}, err
	}
	defer p.close()
	rd, err := ringbuf.NewReader(p.events)
	if err != nil {
		return Overhead{}, err
	}
	drained := make(chan struct{})
	go func() { // the capture's events are read and dropped
		defer close(drained)
		var rec ringbuf.Record
		for readPolling(rd, &rec) == nil {
		}
	}()
	defer func() { rd.Close(); <-drained }()

	const calls = 2000
	bs := make([]ddi.Barrier, calibrationRecords)
	best := func(f func()) time.Duration {
		d := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			f()
			d = min(d, time.Since(start))
		}
		return d
	}
	empty := func() {
		x := uint64(0)
		for range calls {
			x = calibrationTarget(x)
		}
		runtime.KeepAlive(x)
	}
	capture := func() {
		x := uint64(0)
		for range calls {
			x += captureTarget(nil, bs)
		}
		runtime.KeepAlive(x)
	}
	bareEmpty, bareCapture := best(empty), best(capture)
	entry, ret, err := attachProbes(p, bin, eps)
	defer func() {
		for _, l := range append(entry, ret...) {
			l.Close()
		}
	}()
	if err != nil {
		return Overhead{}, err
	}
	probedEmpty, probedCapture := best(empty), best(capture)
	c, err := p.readCounters()
	if err != nil {
		return Overhead{}, err
	}
	var returned uint64
	for _, n := range c[:Buckets] {
		returned += n
	}
	if returned == 0 || c[slotsPerEntry+slotEntries] == 0 {
		return Overhead{}, errors.New("the probes on the tracer's own calibration functions saw no call")
	}
	call := float64(probedEmpty-bareEmpty) / calls
	return Overhead{
		CallNs:         call,
		FloorNs:        float64(c[slotSumNs]) / float64(returned),
		CaptureNs:      max(0, float64(probedCapture-bareCapture)/calls-call),
		CaptureRecords: calibrationRecords,
	}, nil
}
