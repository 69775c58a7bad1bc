package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/ebref/ebref/internal/dditrace"
)

const traceSynopsis = `[--pid PID | -- COMMAND [ARGS...]] [--duration D] [--out FILE [--out-limit BYTES]] [--json]

Traces the DDI entry points of a running Go program that links ebref (--pid),
or of COMMAND started under the tracer, with eBPF uprobes: the program is not
changed. It prints each DDI's calls and a log2 histogram of their latencies,
with what the probes themselves cost. A command is traced until it exits (its
exit status is reported, and a failure makes this one fail); a process, until
it exits, --duration passes, or an interrupt.

--out FILE writes every Barrier call's records as the traced program passed
them: FILE holds the D3D12DDIARG_BARRIER_0094 records (72 bytes each; read it
with 'ebref decode FILE'), FILE.0088 the D3D12DDIARG_BARRIER_0088 ones if any
(80 bytes each; 'ebref decode --ddi 0088 FILE.0088'), and FILE.calls.jsonl one
line per call: pid, goroutine, time, command list, the file, the first
record's index in it and the count.

Needs Linux on amd64 and root, or CAP_BPF with CAP_PERFMON (exit status 3
without). docs/trace.md tells how it works and its limits.`

func runTrace(e *env, args []string) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	pid := fs.Int("pid", 0, "trace this running process")
	duration := fs.Duration("duration", 0, "stop tracing after this long (0: when the process or command ends)")
	out := fs.String("out", "", "write the Barrier calls' records to `FILE`, FILE.0088 and FILE.calls.jsonl")
	outLimit := fs.Int64("out-limit", defaultOutLimit, "stop the trace before --out's files pass this many `bytes` in all")
	asJSON := fs.Bool("json", false, "print the report as one JSON object (a command's standard output then goes to standard error)")
	var command []string
	for i, a := range args {
		if a == "--" {
			args, command = args[:i], args[i+1:]
			break
		}
	}
	pos, code, ok := parseFlags(e, fs, traceSynopsis, args)
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		return usageError(e, fs, traceSynopsis, "unexpected argument %q: a command to trace follows --", pos[0])
	case *pid == 0 && len(command) == 0:
		return usageError(e, fs, traceSynopsis, "want --pid PID or -- COMMAND")
	case *pid != 0 && len(command) > 0:
		return usageError(e, fs, traceSynopsis, "--pid and a command: choose one")
	case *pid < 0:
		return usageError(e, fs, traceSynopsis, "--pid %d: want a process id", *pid)
	case *duration < 0:
		return usageError(e, fs, traceSynopsis, "--duration %v: want a positive duration", *duration)
	case *outLimit < 1:
		return usageError(e, fs, traceSynopsis, "--out-limit %d: want a positive number of bytes", *outLimit)
	}
	if err := dditrace.Check(); err != nil {
		return cannotError(e, "trace", err)
	}
	var w *callWriter
	if *out != "" {
		var err error
		if w, err = newCallWriter(*out); err != nil {
			return usageError(e, fs, traceSynopsis, "--out: %v", err)
		}
		w.limit = *outLimit
	}
	// The first interrupt ends the trace and prints what it saw; the
	// default handling comes back for a second one.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	opts := dditrace.Options{PID: *pid, Command: command, Duration: *duration, Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr}
	if *asJSON {
		opts.Stdout = e.stderr
	}
	if w != nil {
		opts.OnCall = w.write
	}
	if *pid != 0 {
		opts.Attached = func(pid int) {
			fmt.Fprintf(e.stderr, "ebref trace: tracing pid %d; interrupt to stop\n", pid)
		}
	}
	res, err := dditrace.Run(ctx, opts)
	if w != nil {
		if cerr := w.close(); err == nil {
			err = cerr
		}
	}
	if res == nil {
		if w != nil {
			w.remove() // nothing was traced: leave no empty files
		}
		if errors.Is(err, dditrace.ErrPermission) {
			return cannotError(e, "trace", err)
		}
		return inputError(e, "trace", err)
	}
	status := ""
	if res.Command != nil && !res.Command.Success() {
		status = fmt.Sprintf("%s %s", command[0], res.Command)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		type commandEnd struct {
			ExitCode int    `json:"exit_code"`
			Status   string `json:"status"`
		}
		doc := struct {
			*dditrace.Report
			Command *commandEnd `json:"command,omitempty"`
		}{Report: res.Report}
		if res.Command != nil {
			doc.Command = &commandEnd{res.Command.ExitCode(), res.Command.String()}
		}
		enc.Encode(doc)
	} else {
		res.Report.WriteText(e.stdout)
		if w != nil {
			fmt.Fprintf(e.stdout, "\nwrote %s\n", w.summary())
		}
	}
	failed := false
	if err != nil {
		fmt.Fprintf(e.stderr, "ebref trace: %v\n", err)
		failed = true
	}
	if w != nil && !res.Report.Captured.Complete() {
		c := res.Report.Captured
		fmt.Fprintf(e.stderr, "ebref trace: --out %s is incomplete: %d record chunks did not fit the ring buffer, %d calls lost part of their records, %d could not be read\n",
			*out, c.LostChunks, c.Incomplete, c.Faults)
		failed = true
	}
	if status != "" {
		fmt.Fprintf(e.stderr, "ebref trace: the traced command failed: %s\n", status)
		failed = true
	}
	if failed {
		return exitFailed
	}
	return exitOK
}

// callWriter writes captured Barrier calls: the records of each version to
// its file, one JSON line per call beside them.
type callWriter struct {
	name            string
	files           map[dditrace.Capture]*recordFile
	calls           *outFile
	callsW          *bufio.Writer
	written, record uint64
	// bytes is what the files hold; a call that would take them past
	// limit stops the trace (errOutLimit) instead of filling the disk.
	bytes, limit int64
}

// defaultOutLimit bounds --out's files: about 15 million 72-byte records.
const defaultOutLimit = 1 << 30

// errOutLimit stops a trace whose files reached --out-limit.
var errOutLimit = errors.New("--out's files reached --out-limit")

type recordFile struct {
	*outFile
	w       *bufio.Writer
	records uint64
}

// outFile is a file --out names; created says the trace made it, so that
// a trace that could not start may remove it. A path that was there
// already (a file of the user's, or a device such as /dev/full or
// /dev/null) is never removed.
type outFile struct {
	*os.File
	created bool
}

func createOut(name string) (*outFile, error) {
	_, err := os.Lstat(name)
	created := errors.Is(err, os.ErrNotExist)
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	return &outFile{File: f, created: created}, nil
}

// remove deletes the file if the trace created it.
func (f *outFile) remove() {
	if f.created {
		os.Remove(f.Name())
	}
}

func newCallWriter(name string) (*callWriter, error) {
	f, err := createOut(name)
	if err != nil {
		return nil, err
	}
	calls, err := createOut(name + ".calls.jsonl")
	if err != nil {
		f.Close()
		f.remove()
		return nil, err
	}
	return &callWriter{name: name, calls: calls, callsW: bufio.NewWriter(calls),
		files: map[dditrace.Capture]*recordFile{dditrace.Capture0094: {outFile: f, w: bufio.NewWriter(f)}}}, nil
}

// callLine is one line of FILE.calls.jsonl.
type callLine struct {
	PID       uint32 `json:"pid"`
	Goroutine uint64 `json:"goroutine"`
	G         string `json:"g"`
	TimeNs    uint64 `json:"time_ns"`
	List      string `json:"command_list"`
	DDI       string `json:"ddi"`
	File      string `json:"file"`
	First     uint64 `json:"first"`
	Count     uint64 `json:"count"`
	Captured  uint64 `json:"captured"`
	Unread    bool   `json:"unreadable,omitempty"`
}

func (w *callWriter) write(c *dditrace.Call) error {
	capture := dditrace.EntryPoints[c.Entry].Capture
	rf := w.files[capture]
	if rf == nil {
		f, err := createOut(w.name + "." + capture.Version())
		if err != nil {
			return err
		}
		rf = &recordFile{outFile: f, w: bufio.NewWriter(f)}
		w.files[capture] = rf
	}
	n := uint64(len(c.Records) / capture.Stride())
	b, err := json.Marshal(callLine{PID: c.PID, Goroutine: c.Goroutine, G: "0x" + strconv.FormatUint(c.G, 16), TimeNs: c.Time,
		List: "0x" + strconv.FormatUint(c.List, 16), DDI: capture.Version(), File: rf.Name(),
		First: rf.records, Count: c.Count, Captured: n, Unread: c.Fault})
	if err != nil {
		return err
	}
	size := int64(len(c.Records) + len(b) + 1)
	if w.limit > 0 && w.bytes+size > w.limit {
		return fmt.Errorf("%w (%d bytes): the trace stopped before call %d; the files hold the %d calls before it whole", errOutLimit, w.limit, w.written+1, w.written)
	}
	w.bytes += size
	if _, err := rf.w.Write(c.Records); err != nil {
		return fmt.Errorf("writing %s: %w", rf.Name(), err)
	}
	rf.records += n
	w.written++
	w.record += n
	if _, err := w.callsW.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing %s: %w", w.calls.Name(), err)
	}
	return nil
}

// close flushes and closes every file, returning the first error.
func (w *callWriter) close() error {
	var errs []error
	for _, rf := range w.files {
		errs = append(errs, rf.w.Flush(), rf.Close())
	}
	errs = append(errs, w.callsW.Flush(), w.calls.Close())
	return errors.Join(errs...)
}

// remove deletes the closed files the trace created.
func (w *callWriter) remove() {
	for _, rf := range w.files {
		rf.remove()
	}
	w.calls.remove()
}

func (w *callWriter) summary() string {
	s := fmt.Sprintf("%d Barrier calls, %d records: %s", w.written, w.record, w.name)
	if rf := w.files[dditrace.Capture0088]; rf != nil {
		s += ", " + rf.Name()
	}
	return s + ", " + w.calls.Name()
}
