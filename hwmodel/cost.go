package hwmodel

import "github.com/ebref/ebref/cmdbuf"

// opSlots maps the opcodes to counter slots (plus one); 0 means unknown,
// counted in the last slot.
var opSlots = func() (t [256]uint8) {
	for i, op := range cmdbuf.Opcodes() {
		t[op] = uint8(i + 1)
	}
	return t
}()

// NumOpSlots is the length of Counters.Packets.
var NumOpSlots = len(cmdbuf.Opcodes()) + 1

// Counters are an engine's modeled costs, shaped like a barrier-operations
// record: idle cycles by the stage waited for, lines flushed and invalidated
// per cache, bytes decompressed, metadata bytes initialised, packets per
// opcode, and the total.
type Counters struct {
	Cycles            uint64 // when the engine's last submission finished
	WorkCycles        uint64 // stage-occupancy of work
	StallCycles       uint64 // cycles the command processor sat idle waiting
	HeldCycles        uint64 // cycles work waited past its issue for a hold
	CacheCycles       uint64 // CACHE packets
	CompressionCycles uint64 // DECOMPRESS and METADATA_INIT packets
	BatchEndCycles    uint64 // end-of-submission drains and flushes
	StallsByStage     [cmdbuf.NumStages]uint64
	FlushedLines      [cmdbuf.NumCaches]uint64
	InvalidatedLines  [cmdbuf.NumCaches]uint64
	DecompressedBytes uint64
	MetadataBytes     uint64
	Packets           [16]uint64 // by opcode, in cmdbuf.Opcodes() order; the last slot counts unknown ones
	Submissions       uint64
	Faults            uint64
	Hazards           uint64
}

func (c *Counters) countPacket(op cmdbuf.Opcode) {
	if i := opSlots[op]; i != 0 {
		c.Packets[i-1]++
		return
	}
	c.Packets[len(c.Packets)-1]++
}

// PacketCount returns the packets executed of one opcode.
func (c Counters) PacketCount(op cmdbuf.Opcode) uint64 {
	if i := opSlots[op]; i != 0 {
		return c.Packets[i-1]
	}
	return 0
}

// Add accumulates o into c (Cycles takes the maximum: engines run side by
// side).
func (c *Counters) Add(o Counters) {
	c.Cycles = max(c.Cycles, o.Cycles)
	c.WorkCycles += o.WorkCycles
	c.StallCycles += o.StallCycles
	c.HeldCycles += o.HeldCycles
	c.CacheCycles += o.CacheCycles
	c.CompressionCycles += o.CompressionCycles
	c.BatchEndCycles += o.BatchEndCycles
	for i := range c.StallsByStage {
		c.StallsByStage[i] += o.StallsByStage[i]
	}
	for i := range c.FlushedLines {
		c.FlushedLines[i] += o.FlushedLines[i]
		c.InvalidatedLines[i] += o.InvalidatedLines[i]
	}
	c.DecompressedBytes += o.DecompressedBytes
	c.MetadataBytes += o.MetadataBytes
	for i := range c.Packets {
		c.Packets[i] += o.Packets[i]
	}
	c.Submissions += o.Submissions
	c.Faults += o.Faults
	c.Hazards += o.Hazards
}

// Total sums every engine's counters.
func (m *Machine) Total() Counters {
	var t Counters
	for _, e := range m.engines {
		t.Add(e.counters)
	}
	return t
}
