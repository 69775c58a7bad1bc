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
//
// An engine's Cycles is its command processor's timeline, and it is exactly
// the sum of the CP parts: IssueCycles + WaitCycles + CacheCycles +
// CompressionCycles + BatchEndCycles + StallCycles (see CPCycles). Work and
// asynchronous operations run in the stages beside the CP; they show in
// Cycles only through the stalls that wait for them. Summed over engines
// (Add, Machine.Total) the parts add up while Cycles is the longest engine's.
type Counters struct {
	Cycles uint64 // when the engine's last submission finished

	// The CP's timeline, part by part.
	IssueCycles       uint64 // parsing every packet (Costs.Packet each)
	WaitCycles        uint64 // the fixed cost of WAIT, EVENT_WAIT and FENCE_WAIT
	CacheCycles       uint64 // synchronous CACHE packets, base and per line
	CompressionCycles uint64 // synchronous DECOMPRESS and METADATA_INIT, per KiB or byte
	BatchEndCycles    uint64 // end-of-submission flushes and invalidates
	StallCycles       uint64 // the CP idle, waiting for stages, holds or fences

	// The stages' occupancy, beside the CP.
	WorkCycles  uint64 // WORK packets
	AsyncCycles uint64 // asynchronous CACHE, DECOMPRESS and METADATA_INIT on the BLIT stage
	HeldCycles  uint64 // cycles work or async operations waited past their issue for a hold

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

// CPCycles is the sum of the CP's parts; for one engine it equals Cycles.
func (c Counters) CPCycles() uint64 {
	return c.IssueCycles + c.WaitCycles + c.CacheCycles + c.CompressionCycles + c.BatchEndCycles + c.StallCycles
}

// Add accumulates o into c (Cycles takes the maximum: engines run side by
// side).
func (c *Counters) Add(o Counters) {
	c.Cycles = max(c.Cycles, o.Cycles)
	c.IssueCycles += o.IssueCycles
	c.WaitCycles += o.WaitCycles
	c.CacheCycles += o.CacheCycles
	c.CompressionCycles += o.CompressionCycles
	c.BatchEndCycles += o.BatchEndCycles
	c.StallCycles += o.StallCycles
	c.WorkCycles += o.WorkCycles
	c.AsyncCycles += o.AsyncCycles
	c.HeldCycles += o.HeldCycles
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

// since is what c counted after o: c less o, field by field (Cycles too).
func (c Counters) since(o Counters) Counters {
	d := c
	d.Cycles -= o.Cycles
	d.IssueCycles -= o.IssueCycles
	d.WaitCycles -= o.WaitCycles
	d.CacheCycles -= o.CacheCycles
	d.CompressionCycles -= o.CompressionCycles
	d.BatchEndCycles -= o.BatchEndCycles
	d.StallCycles -= o.StallCycles
	d.WorkCycles -= o.WorkCycles
	d.AsyncCycles -= o.AsyncCycles
	d.HeldCycles -= o.HeldCycles
	for i := range d.StallsByStage {
		d.StallsByStage[i] -= o.StallsByStage[i]
	}
	for i := range d.FlushedLines {
		d.FlushedLines[i] -= o.FlushedLines[i]
		d.InvalidatedLines[i] -= o.InvalidatedLines[i]
	}
	d.DecompressedBytes -= o.DecompressedBytes
	d.MetadataBytes -= o.MetadataBytes
	for i := range d.Packets {
		d.Packets[i] -= o.Packets[i]
	}
	d.Submissions -= o.Submissions
	d.Faults -= o.Faults
	d.Hazards -= o.Hazards
	return d
}

// PacketCost is what executing one packet cost its engine: the growth of
// its counters while the packet ran, with Cycles the CP's time it took
// (its parse, its synchronous work and the stall it caused). Work and
// asynchronous operations it started are in WorkCycles and AsyncCycles;
// the stall that later waits for them belongs to the packet that waits.
type PacketCost struct {
	Engine *Engine
	Batch  int            // the submission's ordinal on the engine
	Buffer *cmdbuf.Buffer // the buffer holding the packet (a CALLed one's for what it holds)
	Offset int            // the packet's dword offset in Buffer, as listings print it
	Op     cmdbuf.Opcode
	Cost   Counters
	End    uint64 // the command processor's time once the packet is done (its stall included)
}

// OnPacket has f called after every packet any engine executes (a packet
// blocked on a fence, when it finally passes), or stops that for nil. It is
// how a tool attributes costs to the commands that emitted the packets.
func (m *Machine) OnPacket(f func(PacketCost)) { m.onPacket = f }

// Total sums every engine's counters.
func (m *Machine) Total() Counters {
	var t Counters
	for _, e := range m.engines {
		t.Add(e.counters)
	}
	return t
}
