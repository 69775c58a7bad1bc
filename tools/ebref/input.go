package main

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// The most bytes a command reads from one input (docs/conformance.md
// "Limits"): a scenario file, each file it includes, and standard input
// for `run -`; a file of barrier records for `decode`; a packet dump for
// `disasm`, whose format caps it at cmdbuf.MaxDumpDwords.
const (
	maxScenarioBytes = 8 << 20
	maxRecordBytes   = 64 << 20
	maxPacketBytes   = 1 << 30
	maxReportBytes   = 1 << 30 // a JSON report: the default run's is about 6 MB
)

// readInput reads a named input of at most limit bytes ("-": standard
// input), for what it is (a "scenario file", ...). A file must be a
// regular one: a FIFO could block forever and a device be endless.
func readInput(stdin io.Reader, name, what string, limit int64) ([]byte, error) {
	if name == "-" {
		return readAtMost(stdin, "standard input", what, limit)
	}
	// Opened without waiting: opening a FIFO for reading would wait for
	// a writer.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s); a %s must be one", name, fi.Mode().Type(), what)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s has %d bytes; a %s may have at most %d", name, fi.Size(), what, limit)
	}
	return readAtMost(f, name, what, limit) // the file may grow as it is read
}

// readAtMost reads r to its end, refusing more than limit bytes.
func readAtMost(r io.Reader, name, what string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s has more than %d bytes; a %s may have at most %d", name, limit, what, limit)
	}
	return data, nil
}
