package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

// Outputs never lose data (issue 32): a file a command writes is made under
// a temporary name beside its path and renamed over it only once it is
// whole, so a failed write, an interrupt or a crash leaves what was there;
// every output is made before the run, so a path that cannot be written
// fails first, not after a long run; and two outputs on one path, or an
// output that is one of the command's inputs, are refused before anything
// is written.

// outputFile is a file being written whole or not at all.
type outputFile struct {
	*os.File
	path string
	// direct: the path is not a regular file (a device such as /dev/null
	// or /dev/stdout, a FIFO): it is written in place, never replaced.
	direct bool
	done   bool
}

// createOutput starts writing path.
func createOutput(path string) (*outputFile, error) {
	// A symbolic link is followed: the file it names is replaced, the
	// link kept.
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a directory", path)
		}
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &outputFile{File: f, path: path, direct: true}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		// The temporary name is ours, not the user's: name their path.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &outputFile{File: f, path: target}, nil
}

// commit closes the file and puts it in its place.
func (o *outputFile) commit() error {
	if o.done {
		return nil
	}
	o.done = true
	err := o.Close()
	if o.direct {
		return err
	}
	if err == nil {
		err = os.Rename(o.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.Name())
	}
	return err
}

// abort drops what was written, leaving the path as it was.
func (o *outputFile) abort() {
	if o.done {
		return
	}
	o.done = true
	o.Close()
	if !o.direct {
		os.Remove(o.Name())
	}
}

// writeOutput writes a prepared output whole with write, then commits it;
// on any error the path is left as it was.
func writeOutput(o *outputFile, write func(io.Writer) error) error {
	if err := write(o); err != nil {
		o.abort()
		return err
	}
	return o.commit()
}

// namedPath is a path a flag or an argument names.
type namedPath struct{ what, path string }

// checkPaths refuses two outputs on one file, and an output that is an
// input: both would lose data (the scenario replaced by its trace; one
// report overwritten by the other). Paths that do not exist yet are
// compared by their absolute, cleaned form.
func checkPaths(inputs, outputs []namedPath) error {
	same := func(a, b string) bool {
		fa, errA := os.Stat(a)
		fb, errB := os.Stat(b)
		if errA == nil && errB == nil {
			return os.SameFile(fa, fb)
		}
		pa, _ := filepath.Abs(a)
		pb, _ := filepath.Abs(b)
		return pa == pb
	}
	for i, o := range outputs {
		if o.path == "" || isStream(o.path) {
			continue
		}
		for _, p := range outputs[:i] {
			if p.path != "" && same(o.path, p.path) {
				return usageProblem{fmt.Sprintf("%s and %s both name %s: each output needs a file of its own", p.what, o.what, o.path)}
			}
		}
		for _, in := range inputs {
			if in.path != "" && in.path != "-" && same(o.path, in.path) {
				return usageProblem{fmt.Sprintf("%s %s is %s this command reads: writing it would lose it", o.what, o.path, in.what)}
			}
		}
	}
	return nil
}

// usageProblem is something named wrongly (two outputs on one path, a
// command line that does not split): a usage error, not a failure to
// write or to run.
type usageProblem struct{ msg string }

func (p usageProblem) Error() string { return p.msg }

// outputsError reports what createOutputs refused: a usage error (exit 2)
// for paths named wrongly, else a path ebref cannot write (exit 3).
func outputsError(e *env, fs *flag.FlagSet, synopsis string, err error) int {
	var pc usageProblem
	if errors.As(err, &pc) {
		return usageError(e, fs, synopsis, "%v", err)
	}
	return cannotError(e, fs.Name(), err)
}

// isStream says whether path is a device or pipe (/dev/null, /dev/stdout):
// several outputs may share one, as they share a terminal.
func isStream(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// createOutputs checks the paths and makes every output before the run.
// The outputs not committed are aborted by the returned function.
func createOutputs(inputs, outputs []namedPath) ([]*outputFile, func(), error) {
	if err := checkPaths(inputs, outputs); err != nil {
		return nil, func() {}, err
	}
	files := make([]*outputFile, len(outputs))
	cleanup := func() {
		for _, f := range files {
			if f != nil {
				f.abort()
			}
		}
	}
	for i, o := range outputs {
		if o.path == "" {
			continue
		}
		f, err := createOutput(o.path)
		if err != nil {
			cleanup()
			return nil, func() {}, fmt.Errorf("%s: %w", o.what, err)
		}
		files[i] = f
	}
	return files, cleanup, nil
}

// errInterrupted is a run an interrupt or SIGTERM stopped.
var errInterrupted = errors.New("interrupted")

// interruptible is a context the first interrupt (or SIGTERM) cancels, so
// a run stops between cases and still ends its outputs whole (a trace as
// valid JSON); a second interrupt kills as usual.
func interruptible() (context.Context, func()) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	return ctx, stop
}

// writeNoFollow writes a file that is not a symbolic link: a link placed
// where a shrunk program goes is refused, not followed to what it names.
func writeNoFollow(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
