package dditrace

import (
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
