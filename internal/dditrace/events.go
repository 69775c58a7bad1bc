package dditrace

import (
	"encoding/binary"
	"fmt"
)

// The layout of one ring-buffer event: a chunk of one Barrier call's
// records, as the entry probe writes it (little-endian).
const (
	evTime    = 0  // u64 CLOCK_MONOTONIC ns at the call's entry
	evG       = 8  // u64 the goroutine's g
	evGoid    = 16 // u64 its id (0 if the binary has no DWARF)
	evList    = 24 // u64 the *CommandList the call records into
	evPID     = 32 // u32 the process
	evEntry   = 36 // u32 the entry point's index in EntryPoints
	evCount   = 40 // u64 the call's record count (the slice's length)
	evFirst   = 48 // u32 the chunk's first record within the call
	evN       = 52 // u32 records in the chunk
	evFault   = 56 // u32 nonzero when the records could not be read
	evRecords = 64 // the records

	// chunkBytes bounds one chunk's records.
	chunkBytes = 4096
	// maxChunks bounds the chunks of one call: the rest of a longer array
	// is counted, not copied.
	maxChunks = 1024
)

// chunkRecords is how many records of a capture fit one chunk.
func chunkRecords(c Capture) int { return chunkBytes / c.Stride() }

// maxCaptured is the most records copied of one call.
func maxCaptured(c Capture) uint64 { return uint64(maxChunks * chunkRecords(c)) }

// Call is one Barrier call as it crossed: who made it and its records.
type Call struct {
	// Entry is the entry point's index in EntryPoints.
	Entry int
	PID   uint32
	// G is the goroutine's runtime.g address, Goroutine its id (0 when
	// the binary has no DWARF to find it by).
	G, Goroutine uint64
	// List is the *umd.CommandList's address.
	List uint64
	// Time is CLOCK_MONOTONIC at entry, in ns.
	Time uint64
	// Count is how many records the call passed; Records holds the first
	// min(Count, the capture bound) of them, raw.
	Count   uint64
	Records []byte
	// Fault is set when the traced process's memory could not be read
	// (the records are then missing from Records).
	Fault bool
}

// Truncated says whether the call passed more records than were copied.
func (c *Call) Truncated() bool {
	return c.Count > maxCaptured(EntryPoints[c.Entry].Capture)
}

type callKey struct{ g, time uint64 }

// assembler joins the chunks of Barrier calls, which arrive in order for
// one call but interleaved with other goroutines' calls.
type assembler struct {
	pending map[callKey]*Call
	next    map[callKey]uint64 // the record the next chunk must start at
}

func newAssembler() *assembler {
	return &assembler{pending: map[callKey]*Call{}, next: map[callKey]uint64{}}
}

// add takes one event; it returns the call the event completed, if any.
func (a *assembler) add(ev []byte) (*Call, error) {
	if len(ev) < evRecords {
		return nil, fmt.Errorf("a ring-buffer event of %d bytes, shorter than its %d-byte header", len(ev), evRecords)
	}
	le := binary.LittleEndian
	entry := int(le.Uint32(ev[evEntry:]))
	if entry >= len(EntryPoints) || EntryPoints[entry].Capture == CaptureNone {
		return nil, fmt.Errorf("a ring-buffer event for entry point %d, which captures nothing", entry)
	}
	c := EntryPoints[entry].Capture
	first, n := uint64(le.Uint32(ev[evFirst:])), uint64(le.Uint32(ev[evN:]))
	count := le.Uint64(ev[evCount:])
	want := min(count, maxCaptured(c))
	stride := uint64(c.Stride())
	if n > uint64(chunkRecords(c)) || first+n > want || uint64(len(ev)) < evRecords+n*stride {
		return nil, fmt.Errorf("a ring-buffer chunk of records %d+%d of a call of %d, in %d bytes: malformed", first, n, count, len(ev))
	}
	k := callKey{le.Uint64(ev[evG:]), le.Uint64(ev[evTime:])}
	call := a.pending[k]
	if call == nil {
		call = &Call{Entry: entry, PID: le.Uint32(ev[evPID:]), G: k.g, Goroutine: le.Uint64(ev[evGoid:]),
			List: le.Uint64(ev[evList:]), Time: k.time, Count: count}
		a.pending[k] = call
	}
	if call.Count != count || call.Entry != entry {
		return nil, fmt.Errorf("a chunk of a call of %d records joined a call of %d", count, call.Count)
	}
	if first != a.next[k] {
		// A chunk was lost (the ring buffer was full): the probe stops
		// copying the call there, so it can never complete.
		return nil, fmt.Errorf("records %d+ of a call of %d records came after record %d: a chunk was lost", first, count, a.next[k])
	}
	if le.Uint32(ev[evFault:]) != 0 {
		call.Fault = true
	} else {
		call.Records = append(call.Records, ev[evRecords:evRecords+n*stride]...)
	}
	a.next[k] = first + n
	if first+n < want {
		return nil, nil
	}
	delete(a.pending, k)
	delete(a.next, k)
	return call, nil
}

// incomplete is how many calls still wait for chunks.
func (a *assembler) incomplete() int { return len(a.pending) }
