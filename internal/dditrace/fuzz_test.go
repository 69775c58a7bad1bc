package dditrace

import (
	"os"
	"path/filepath"
	"testing"
)

// Whatever bytes a function holds, finding its RETs ends with offsets
// inside it or an error, never a panic.
func FuzzFindReturns(f *testing.F) {
	f.Add([]byte{0xb8, 0xc3, 0, 0, 0, 0xc3})
	f.Add([]byte{0x0f, 0x0b, 0x06, 0xc3})
	f.Add([]byte{0x48})
	f.Fuzz(func(t *testing.T, code []byte) {
		rets, err := findReturns(code)
		if err != nil {
			return
		}
		for i, r := range rets {
			if r >= uint64(len(code)) || i > 0 && r <= rets[i-1] {
				t.Fatalf("RETs at %v in %d bytes", rets, len(code))
			}
		}
	})
}

// Events that are not what the probe writes are refused, never a panic,
// and a call comes out only with the records its chunks carried.
func FuzzAssembler(f *testing.F) {
	f.Add(chunk(0, 1, 2, 3, 0, 3), chunk(1, 1, 3, 0, 0, 0))
	f.Add(chunk(0, 1, 2, 60, 0, 56), chunk(0, 1, 2, 60, 56, 4))
	f.Add([]byte{1, 2, 3}, make([]byte, evRecords))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		asm := newAssembler()
		for _, ev := range [][]byte{a, b} {
			c, err := asm.add(ev)
			if err != nil || c == nil {
				continue
			}
			stride := uint64(EntryPoints[c.Entry].Capture.Stride())
			if !c.Fault && uint64(len(c.Records)) != min(c.Count, maxCaptured(EntryPoints[c.Entry].Capture))*stride {
				t.Fatalf("a call of %d records came out with %d bytes", c.Count, len(c.Records))
			}
		}
	})
}

// Whatever file the tracer is pointed at, reading it ends in an error or
// in functions with their RETs, never a panic; debug/elf bounds what a
// section's size makes it allocate, and maxFunctionBytes what is decoded.
func FuzzReadBinary(f *testing.F) {
	self, err := os.Executable()
	if err != nil {
		f.Fatal(err)
	}
	head := make([]byte, 4096)
	if fd, err := os.Open(self); err == nil {
		n, _ := fd.Read(head)
		head = head[:n]
		fd.Close()
	}
	f.Add(head)
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	f.Add([]byte("#!/bin/sh\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "bin")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Skip(err)
		}
		b, err := ReadBinary(path, EntryPoints)
		if err != nil {
			return
		}
		for _, fn := range b.Functions {
			if len(fn.Returns) == 0 || len(fn.Returns) > maxReturns || fn.Size > maxFunctionBytes {
				t.Fatalf("%s: %d RETs in %d bytes", fn.Symbol, len(fn.Returns), fn.Size)
			}
		}
	})
}
