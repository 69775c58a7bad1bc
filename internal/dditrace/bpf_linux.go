//go:build linux && amd64

package dditrace

import (
	"errors"
	"fmt"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/features"
	"golang.org/x/sys/unix"
)

// Offsets in struct pt_regs (arch/x86/include/asm/ptrace.h), which a
// uprobe's program receives: the registers at the probed instruction.
const (
	regR14 = 8   // Go's register ABI: the running goroutine's g
	regBX  = 40  // the second integer argument
	regAX  = 80  // the first (a method's receiver)
	regCX  = 88  // the third
	regSP  = 152 // the stack pointer
)

// The counters each entry point has in the counters map, after its
// Buckets latency buckets.
const (
	slotEntries   = Buckets     // calls entered
	slotRefires   = Buckets + 1 // the entry probe firing again for one call
	slotSumNs     = Buckets + 2 // latency of the calls that returned, summed
	slotLost      = Buckets + 3 // record chunks the ring buffer had no room for
	slotsPerEntry = Buckets + 4
)

// The entry program's stack (offsets from R10, the frame pointer).
const (
	stPidns  = -8  // struct bpf_pidns_info {pid, tgid u32}
	stTgid   = -4  //   its tgid
	stHi     = -16 // g.stack.hi
	stKey    = -32 // starts key: {g, depth u64}
	stVal    = -48 // starts value: {entry time, cookie u64}
	stList   = -56
	stPtr    = -64
	stCount  = -72
	stGoid   = -80
	stG      = -88
	stSlot   = -96 // a counters key (u32)
	keyBytes = 16
)

// programs are one trace's maps and programs.
type programs struct {
	starts, counters, events *ebpf.Map
	entry, ret               *ebpf.Program
	entries                  int
	multi                    bool // loaded for uprobe_multi links
}

// programConfig is what the programs are assembled for.
type programConfig struct {
	tgid          uint32 // the traced process, as the tracer's pid namespace numbers it
	pidnsDev      uint64 // that namespace
	pidnsIno      uint64
	goidOffset    int64 // -1: no goroutine ids
	stackHiOffset int64
	entries       int // entry points
	ringBytes     int // the ring buffer's size: a power of two, in pages
	// multi loads the programs for uprobe_multi links (Linux 6.6): one
	// link holds all the probes of a program, and taking them out waits
	// for the kernel once instead of once a probe (about 0.1 s each here).
	multi bool
}

// haveUprobeMulti says whether the kernel has uprobe_multi links; a
// variable so that tests can take the other path.
var haveUprobeMulti = func() bool { return features.HaveBPFLinkUprobeMulti() == nil }

func permission(what string, err error) error {
	if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) {
		return fmt.Errorf("%w (%s: %v)", ErrPermission, what, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// currentPidns is the tracer's pid namespace, whose numbers --pid uses.
func currentPidns() (dev, ino uint64, err error) {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/pid", &st); err != nil {
		return 0, 0, fmt.Errorf("the tracer's pid namespace: %w", err)
	}
	return st.Dev, st.Ino, nil
}

func newPrograms(cfg programConfig) (_ *programs, err error) {
	p := &programs{entries: cfg.entries, multi: cfg.multi}
	defer func() {
		if err != nil {
			p.close()
		}
	}()
	if p.starts, err = ebpf.NewMap(&ebpf.MapSpec{Name: "ebref_starts", Type: ebpf.LRUHash,
		KeySize: keyBytes, ValueSize: 16, MaxEntries: 1 << 16}); err != nil {
		return nil, permission("creating the calls-in-flight map", err)
	}
	if p.counters, err = ebpf.NewMap(&ebpf.MapSpec{Name: "ebref_counters", Type: ebpf.Array,
		KeySize: 4, ValueSize: 8, MaxEntries: uint32(cfg.entries * slotsPerEntry)}); err != nil {
		return nil, permission("creating the counters map", err)
	}
	if p.events, err = ebpf.NewMap(&ebpf.MapSpec{Name: "ebref_events", Type: ebpf.RingBuf,
		MaxEntries: uint32(cfg.ringBytes)}); err != nil {
		return nil, permission("creating the ring buffer", err)
	}
	attach := ebpf.AttachNone
	if cfg.multi {
		attach = ebpf.AttachTraceUprobeMulti
	}
	load := func(name string, insns asm.Instructions) (*ebpf.Program, error) {
		prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{Name: name, Type: ebpf.Kprobe, AttachType: attach,
			Instructions: insns, License: "Dual MIT/GPL"})
		if err != nil {
			return nil, permission("loading the "+name+" program", err)
		}
		return prog, nil
	}
	if p.entry, err = load("ebref_entry", p.entryProgram(cfg)); err != nil {
		return nil, err
	}
	if p.ret, err = load("ebref_return", p.returnProgram(cfg)); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *programs) close() {
	for _, prog := range []*ebpf.Program{p.entry, p.ret} {
		if prog != nil {
			prog.Close()
		}
	}
	for _, m := range []*ebpf.Map{p.starts, p.counters, p.events} {
		if m != nil {
			m.Close()
		}
	}
}

// asmb assembles a program with labels made unique.
type asmb struct {
	insns  asm.Instructions
	labels int
	next   string // the label of the next instruction added
}

func (b *asmb) label() string { b.labels++; return fmt.Sprintf("l%d", b.labels) }

func (b *asmb) add(is ...asm.Instruction) {
	for _, in := range is {
		if b.next != "" {
			in = in.WithSymbol(b.next)
			b.next = ""
		}
		b.insns = append(b.insns, in)
	}
}

// move copies size bytes at src+from to dst+to, through R1, which keeps
// them.
func (b *asmb) move(dst asm.Register, to int16, src asm.Register, from int16, size asm.Size) {
	b.add(asm.LoadMem(asm.R1, src, from, size), asm.StoreMem(dst, to, asm.R1, size))
}

// mark puts label on the next instruction.
func (b *asmb) mark(label string) {
	if b.next != "" {
		// Two labels on one place: the earlier jumps to a no-op.
		b.add(asm.Mov.Reg(asm.R0, asm.R0))
	}
	b.next = label
}

// exit ends the program (every path returns 0: a uprobe's result is
// ignored).
func (b *asmb) exit() {
	b.add(asm.Mov.Imm(asm.R0, 0), asm.Return())
}

// prologue keeps the context in R6, leaves the probe if another process
// hit it, and puts the time in R7, the goroutine's g in R8 and the
// {g, frame depth} key at stKey. Every probe of a trace starts so.
func (b *asmb) prologue(cfg programConfig, exit string) {
	b.add(
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.LoadImm(asm.R1, int64(cfg.pidnsDev), asm.DWord),
		asm.LoadImm(asm.R2, int64(cfg.pidnsIno), asm.DWord),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, stPidns),
		asm.Mov.Imm(asm.R4, 8),
		asm.FnGetNsCurrentPidTgid.Call(),
		asm.JNE.Imm(asm.R0, 0, exit),
		asm.LoadMem(asm.R1, asm.RFP, stTgid, asm.Word),
		asm.JNE.Imm(asm.R1, int32(cfg.tgid), exit),
		asm.FnKtimeGetNs.Call(),
		asm.Mov.Reg(asm.R7, asm.R0),
		asm.LoadMem(asm.R8, asm.R6, regR14, asm.DWord),
		// depth = g.stack.hi - SP: the same at the function's first
		// instruction and at its RET, wherever the stack was moved.
		asm.Mov.Reg(asm.R1, asm.RFP),
		asm.Add.Imm(asm.R1, stHi),
		asm.Mov.Imm(asm.R2, 8),
		asm.Mov.Reg(asm.R3, asm.R8),
		asm.Add.Imm(asm.R3, int32(cfg.stackHiOffset)),
		asm.FnProbeReadUser.Call(),
		asm.JNE.Imm(asm.R0, 0, exit),
		asm.LoadMem(asm.R1, asm.RFP, stHi, asm.DWord),
		asm.LoadMem(asm.R2, asm.R6, regSP, asm.DWord),
		asm.Sub.Reg(asm.R1, asm.R2),
		asm.StoreMem(asm.RFP, stKey, asm.R8, asm.DWord),
		asm.StoreMem(asm.RFP, stKey+8, asm.R1, asm.DWord),
		asm.Mov.Reg(asm.R1, asm.R6),
		asm.FnGetAttachCookie.Call(),
		asm.Mov.Reg(asm.R9, asm.R0),
	)
}

// lookupStart puts the starts entry for stKey in R0 (or 0).
func (b *asmb) lookupStart(p *programs) {
	b.add(
		asm.LoadMapPtr(asm.R1, p.starts.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, stKey),
		asm.FnMapLookupElem.Call(),
	)
}

// count adds the value in register v to the counter whose index is in
// register slot (both clobbered, as are R0-R5).
func (b *asmb) count(p *programs, slot, v asm.Register) {
	done := b.label()
	b.add(
		asm.StoreMem(asm.RFP, stSlot, slot, asm.Word),
		asm.StoreMem(asm.RFP, stSlot-8, v, asm.DWord),
		asm.LoadMapPtr(asm.R1, p.counters.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, stSlot),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, done),
		asm.LoadMem(asm.R1, asm.RFP, stSlot-8, asm.DWord),
		asm.StoreXAdd(asm.R0, asm.R1, asm.DWord),
	)
	b.mark(done)
}

// countOne adds 1 to the counter slot of the entry point in R9's cookie.
func (b *asmb) countOne(p *programs, slot int32) {
	b.add(
		asm.Mov.Reg(asm.R2, asm.R9),
		asm.And.Imm(asm.R2, 1<<cookieCaptureShift-1),
		asm.Mul.Imm(asm.R2, slotsPerEntry),
		asm.Add.Imm(asm.R2, slot),
		asm.Mov.Imm(asm.R3, 1),
	)
	b.count(p, asm.R2, asm.R3)
}

func (p *programs) entryProgram(cfg programConfig) asm.Instructions {
	b := &asmb{}
	exit := "exit"
	b.prologue(cfg, exit)
	fresh := b.label()
	b.lookupStart(p)
	b.add(
		asm.JEq.Imm(asm.R0, 0, fresh),
		asm.LoadMem(asm.R1, asm.R0, 8, asm.DWord),
		asm.JNE.Reg(asm.R1, asm.R9, fresh),
	)
	// The same function at the same frame depth of the same goroutine
	// without a return in between: the function grew its stack and
	// started again. The first entry's time stands.
	b.countOne(p, slotRefires)
	b.add(asm.Ja.Label(exit))
	b.mark(fresh)
	// Copy the barrier array first, then start the clock: the copy is
	// the probe's cost, not the call's.
	record := b.label()
	captures := []Capture{Capture0094, Capture0088}
	labels := make([]string, len(captures))
	b.add(asm.Mov.Reg(asm.R1, asm.R9), asm.RSh.Imm(asm.R1, cookieCaptureShift))
	for i, c := range captures {
		labels[i] = b.label()
		b.add(asm.JEq.Imm(asm.R1, int32(c), labels[i]))
	}
	b.add(asm.Ja.Label(record))
	for i, c := range captures {
		b.mark(labels[i])
		b.capture(p, cfg, c, record)
	}
	b.mark(record)
	b.add(
		asm.FnKtimeGetNs.Call(),
		asm.StoreMem(asm.RFP, stVal, asm.R0, asm.DWord),
		asm.StoreMem(asm.RFP, stVal+8, asm.R9, asm.DWord),
		asm.LoadMapPtr(asm.R1, p.starts.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, stKey),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, stVal),
		asm.Mov.Imm(asm.R4, 0), // BPF_ANY: a frame left by a panic is replaced
		asm.FnMapUpdateElem.Call(),
	)
	b.countOne(p, slotEntries)
	b.mark(exit)
	b.exit()
	return b.insns
}

// capture copies the call's barrier array (slice data in RBX, length in
// RCX) into the ring buffer, chunkRecords(c) records an event, at most
// maxChunks events, and goes on at done; a call of no records still gets
// one event, so every call is seen. R7 holds the call's time, which with
// the g names the call in its events.
func (b *asmb) capture(p *programs, cfg programConfig, c Capture, done string) {
	stride, per := int32(c.Stride()), int32(chunkRecords(c))
	b.move(asm.RFP, stList, asm.R6, regAX, asm.DWord)
	b.move(asm.RFP, stPtr, asm.R6, regBX, asm.DWord)
	b.move(asm.RFP, stCount, asm.R6, regCX, asm.DWord)
	b.add(
		asm.StoreMem(asm.RFP, stG, asm.R8, asm.DWord),
		asm.Mov.Imm(asm.R1, 0),
		asm.StoreMem(asm.RFP, stGoid, asm.R1, asm.DWord),
	)
	if cfg.goidOffset >= 0 {
		b.add(
			asm.Mov.Reg(asm.R1, asm.RFP),
			asm.Add.Imm(asm.R1, stGoid),
			asm.Mov.Imm(asm.R2, 8),
			asm.Mov.Reg(asm.R3, asm.R8),
			asm.Add.Imm(asm.R3, int32(cfg.goidOffset)),
			asm.FnProbeReadUser.Call(), // on failure it zeroes the id
		)
	}
	loop, lost, capped, read := b.label(), b.label(), b.label(), b.label()
	b.add(asm.Mov.Imm(asm.R6, 0)) // the chunk's first record; the context is no longer needed
	b.mark(loop)
	b.add(
		asm.LoadMapPtr(asm.R1, p.events.FD()),
		asm.Mov.Imm(asm.R2, evRecords+per*stride),
		asm.Mov.Imm(asm.R3, 0),
		asm.FnRingbufReserve.Call(),
		asm.JEq.Imm(asm.R0, 0, lost),
		asm.Mov.Reg(asm.R8, asm.R0),
		asm.StoreMem(asm.R8, evTime, asm.R7, asm.DWord),
	)
	b.move(asm.R8, evG, asm.RFP, stG, asm.DWord)
	b.move(asm.R8, evGoid, asm.RFP, stGoid, asm.DWord)
	b.move(asm.R8, evList, asm.RFP, stList, asm.DWord)
	b.move(asm.R8, evPID, asm.RFP, stTgid, asm.Word)
	b.add(
		asm.Mov.Reg(asm.R1, asm.R9),
		asm.And.Imm(asm.R1, 1<<cookieCaptureShift-1),
		asm.StoreMem(asm.R8, evEntry, asm.R1, asm.Word),
	)
	b.move(asm.R8, evCount, asm.RFP, stCount, asm.DWord) // R1 keeps the count
	b.add(
		asm.StoreMem(asm.R8, evFirst, asm.R6, asm.Word),
		asm.StoreImm(asm.R8, evFault, 0, asm.Word),
		asm.StoreImm(asm.R8, evFault+4, 0, asm.Word),
		// n = min(count - first, per)
		asm.Mov.Reg(asm.R2, asm.R1),
		asm.Sub.Reg(asm.R2, asm.R6),
		asm.JLE.Imm(asm.R2, per, capped),
		asm.Mov.Imm(asm.R2, per),
	)
	b.mark(capped)
	b.add(
		asm.StoreMem(asm.R8, evN, asm.R2, asm.Word),
		asm.Mul.Imm(asm.R2, stride),
		asm.Mov.Reg(asm.R1, asm.R8),
		asm.Add.Imm(asm.R1, evRecords),
		asm.Mov.Reg(asm.R3, asm.R6),
		asm.Mul.Imm(asm.R3, stride),
		asm.LoadMem(asm.R4, asm.RFP, stPtr, asm.DWord),
		asm.Add.Reg(asm.R3, asm.R4),
		asm.FnProbeReadUser.Call(),
		asm.JEq.Imm(asm.R0, 0, read),
		asm.StoreImm(asm.R8, evFault, 1, asm.Word),
	)
	b.mark(read)
	b.add(
		asm.Mov.Reg(asm.R1, asm.R8),
		// BPF_RB_NO_WAKEUP: waking the reader for each chunk costs the
		// traced call more than the copy; the reader polls (readPoll).
		asm.Mov.Imm(asm.R2, 1),
		asm.FnRingbufSubmit.Call(),
		asm.Add.Imm(asm.R6, per),
		asm.JGE.Imm(asm.R6, per*maxChunks, done),
		asm.LoadMem(asm.R1, asm.RFP, stCount, asm.DWord),
		asm.JLT.Reg(asm.R6, asm.R1, loop),
		asm.Ja.Label(done),
	)
	b.mark(lost)
	b.countOne(p, slotLost)
	b.add(asm.Ja.Label(done))
}

func (p *programs) returnProgram(cfg programConfig) asm.Instructions {
	b := &asmb{}
	exit := "exit"
	b.prologue(cfg, exit)
	b.lookupStart(p)
	b.add(
		asm.JEq.Imm(asm.R0, 0, exit), // no entry seen: the trace began mid-call
		asm.LoadMem(asm.R1, asm.R0, 8, asm.DWord),
		asm.JNE.Reg(asm.R1, asm.R9, exit),
		asm.LoadMem(asm.R1, asm.R0, 0, asm.DWord),
		asm.Sub.Reg(asm.R7, asm.R1), // R7: the latency
		asm.LoadMapPtr(asm.R1, p.starts.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, stKey),
		asm.FnMapDeleteElem.Call(),
		asm.And.Imm(asm.R9, 1<<cookieCaptureShift-1),
		asm.Mul.Imm(asm.R9, slotsPerEntry), // R9: the entry point's first slot
		asm.Mov.Reg(asm.R2, asm.R9),
		asm.Add.Imm(asm.R2, slotSumNs),
		asm.Mov.Reg(asm.R3, asm.R7),
	)
	b.count(p, asm.R2, asm.R3)
	// The bucket: bits.Len64(latency), by halving.
	done := b.label()
	b.add(
		asm.Mov.Reg(asm.R1, asm.R7),
		asm.Mov.Imm(asm.R2, 0),
		asm.JEq.Imm(asm.R1, 0, done),
		asm.Mov.Imm(asm.R2, 1),
	)
	for _, s := range []int32{32, 16, 8, 4, 2, 1} {
		skip := b.label()
		if s == 32 {
			b.add(asm.LoadImm(asm.R3, 1<<32, asm.DWord), asm.JLT.Reg(asm.R1, asm.R3, skip))
		} else {
			b.add(asm.JLT.Imm(asm.R1, 1<<s, skip))
		}
		b.add(asm.RSh.Imm(asm.R1, s), asm.Add.Imm(asm.R2, s))
		b.mark(skip)
	}
	b.mark(done)
	b.add(asm.Add.Reg(asm.R2, asm.R9), asm.Mov.Imm(asm.R3, 1))
	b.count(p, asm.R2, asm.R3)
	b.mark(exit)
	b.exit()
	return b.insns
}

// readCounters reads the counters map.
func (p *programs) readCounters() ([]uint64, error) {
	out := make([]uint64, p.entries*slotsPerEntry)
	for i := range out {
		if err := p.counters.Lookup(uint32(i), &out[i]); err != nil {
			return nil, fmt.Errorf("reading counter %d: %w", i, err)
		}
	}
	return out, nil
}
