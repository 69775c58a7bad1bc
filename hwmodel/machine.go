package hwmodel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/ebref/ebref/cmdbuf"
)

// MaxEngines bounds the engines (queues) one machine has.
const MaxEngines = 16

// VABase is the first GPU virtual address Allocate hands out; low addresses
// stay unmapped so stray small values fault.
const VABase = 1 << 32

// mapping is one allocated range of the GPU virtual address space.
type mapping struct {
	base, size uint64
	cpuVisible bool
}

// Surface is a compressible region: Size bytes at Base, whose compression
// metadata (MetadataSize(Size) bytes) lies at Meta. Both ranges are ordinary
// memory, so a resource aliasing them overwrites them.
type Surface struct {
	ID   uint16
	Base uint64
	Size uint64
	Meta uint64
	Name string
	// defined has a bit per block whose metadata something wrote as
	// metadata (an initialisation, a compressing write, a decompress)
	// since the surface was defined and no plain write landed on it since:
	// the rest is garbage whatever its bytes look like.
	defined []uint64
}

// label names an address range for hazard messages.
type label struct {
	base, size uint64
	name       string
}

// fence is a cross-engine fence.
type fence struct {
	value uint64
	// clock is, per engine, the seq every op up to which is complete when
	// the fence reaches value: the signaler's knowledge, passed on.
	clock [MaxEngines]uint64
	time  uint64
}

// opRec identifies an executed op for ordering and messages.
type opRec struct {
	gid     uint32
	engine  int
	stage   cmdbuf.Stage
	seq     uint64
	batch   int    // submission ordinal on the engine
	packet  int    // packet ordinal within the submission
	offset  int    // dword offset within its buffer
	buffer  string // its buffer's name, if any
	what    string // "DRAW", "CACHE", "DECOMPRESS", ...
	marker  string // the last MARKER text before it
	tainted bool   // its inputs already differed from the reference
	// gone: every op still to come is ordered after this one (memoised
	// for retire pass gonePass).
	gone bool
	// settled: gone already while it executes (memoised once known).
	settled, settledKnown bool
	// writeClients has bit c set when the op wrote through client c.
	writeClients uint32
	gonePass     uint32
	// epoch: how many cut points lie below seq (merge.go), memoised for
	// retire pass epochPass. (The flags and counters are packed so that
	// a record stays 128 bytes.)
	epoch     int32
	epochPass uint32
}

// at says where the op's packet is, as listings number it: "dword 24 of
// L", or "the end of submission 2" for what has no packet.
func (o *opRec) at() string {
	switch {
	case o.offset < 0:
		return fmt.Sprintf("the end of submission %d", o.batch)
	case o.buffer == "":
		return fmt.Sprintf("dword %d", o.offset)
	}
	return fmt.Sprintf("dword %d of %s", o.offset, o.buffer)
}

func (o *opRec) describe(m *Machine) string {
	if o == nil {
		return "an earlier submission"
	}
	s := fmt.Sprintf("%s (%s", o.what, o.at())
	if o.engine >= 0 && o.engine < len(m.engines) {
		s += " on " + m.engines[o.engine].name
	}
	if o.marker != "" {
		s += ", " + o.marker
	}
	return s + ")"
}

// Machine is the simulated GPU: memory, caches, engines and fences, judged
// against a sequentially consistent reference that runs in lock step.
// A Machine is not safe for concurrent use.
type Machine struct {
	prof     *Profile
	mem      *Mem
	memLevel *level
	shared   map[cmdbuf.Cache]*level
	ref      *reference
	mappings []mapping
	nextVA   uint64
	mappedB  uint64 // bytes mapped, against Capacity
	// done is the running RunContext's cancellation; ticks counts work
	// between its polls; cancelled is set once a run was cancelled.
	done      <-chan struct{}
	ticks     uint64
	cancelled error
	surfaces  map[uint16]*Surface
	// surfaceIndex lists, per memory page, the surfaces overlapping it in
	// definition order.
	surfaceIndex map[uint64][]*Surface
	// surfPage caches surfaceIndex's entry for one page (surfPageOK: set;
	// defining or removing a surface clears it).
	surfPage   uint64
	surfPageOK bool
	surfList   []*Surface
	labels     []label
	engines    []*Engine
	fences     map[uint32]*fence
	buffers    map[uint32]*cmdbuf.Buffer
	ops        []*opRec
	spareOp    *opRec  // a record reuseLastOp gave back
	opSlab     []opRec // records newOp hands out next
	// perLine turns off the shortcuts: the paths that handle a block of
	// lines at once, a CACHE packet that finds nothing skipping its op, one
	// access record for an op's contiguous accesses, and one effect node
	// for lines an op changed alike (tests check they change nothing;
	// setPerLine sets it).
	perLine bool
	// noMerge keeps every record of a line apart (merge.go; tests check
	// merging changes nothing).
	noMerge bool
	effects *effectLog
	hazards []Hazard
	faults  []Fault
	// metaIndex lists, per memory page, the surfaces whose metadata
	// overlaps it.
	metaIndex map[uint64][]*Surface
	// hazardKeys finds a recorded hazard to widen instead of repeating it.
	hazardKeys map[hazardKey]int
	// spoiled lists dwords no GPU op wrote whose data a hazard destroyed:
	// reading them wrong later is a consequence, not a new hazard.
	spoiled [][2]uint64
	// levels is every level: memory, shared caches, each engine's own.
	// madeLevels counts the levels made, memory's included: the next id.
	levels     []*level
	madeLevels int
	scratch    scratch

	// retireAt is the effect count at which retire next runs; retireMin
	// its floor (tests set 0 to retire after every packet).
	retireAt, retireMin int
	onPacket            func(PacketCost)
	rewrite             Rewriter
	// hostBudget is the host memory the machine may hold (hostmem.go).
	hostBudget uint64
}

// New returns an idle machine on a profile.
func New(p *Profile) (*Machine, error) {
	if p == nil {
		return nil, errors.New("hwmodel: nil profile")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := &Machine{
		prof: p, mem: newMem(newDataStore()), shared: map[cmdbuf.Cache]*level{}, nextVA: VABase,
		surfaces: map[uint16]*Surface{}, surfaceIndex: map[uint64][]*Surface{}, metaIndex: map[uint64][]*Surface{}, fences: map[uint32]*fence{}, buffers: map[uint32]*cmdbuf.Buffer{},
		effects: newEffectLog(), retireAt: minRetireAt, retireMin: minRetireAt, hazardKeys: map[hazardKey]int{}, ops: []*opRec{nil},
		hostBudget: HostBudget,
	}
	m.memLevel = newMemLevel(m.mem)
	m.levels = []*level{m.memLevel}
	m.ref = newReference(m.mem.store) // bytes the CPU wrote are memory's and the reference's at once
	// Shared caches first (parents before children), then per-engine ones
	// are made with each engine.
	for _, s := range p.Caches {
		if s.Shared {
			m.sharedLevel(s.Kind)
		}
	}
	return m, nil
}

// Release lets the machine's bytes go for the next machine of the process
// to reuse (share.go): memory's, the caches' and the reference's. The
// machine must not be used after; what was read from it before
// (counters, hazards, timelines, bytes copied out) stays valid. A machine
// never released is the garbage collector's, as before.
func (m *Machine) Release() { m.mem.store.releaseAll() }

// setPerLine turns the shortcuts off (perLine).
func (m *Machine) setPerLine() { m.perLine, m.effects.apart = true, true }

// maxLevels bounds the levels a machine makes: memory, each cache shared,
// each cache of each engine. A level's id is a byte (bucketKey).
const maxLevels = 1 + int(cmdbuf.NumCaches) + MaxEngines*int(cmdbuf.NumCaches)

var _ [256 - maxLevels]struct{} // does not compile if ids outgrow a byte

// levelID is the id of the next cache level made (memory's is 0).
func (m *Machine) levelID() uint8 {
	m.madeLevels++
	return uint8(m.madeLevels)
}

func (m *Machine) sharedLevel(k cmdbuf.Cache) *level {
	if lv, ok := m.shared[k]; ok {
		return lv
	}
	s, _ := m.prof.Spec(k)
	lv := newCacheLevel(m.levelID(), k, -1, k.String(), m.parentLevel(s.Parent, -1))
	m.shared[k] = lv
	return lv
}

func (m *Machine) parentLevel(k cmdbuf.Cache, engine int) *level {
	if k == Memory {
		return m.memLevel
	}
	s, _ := m.prof.Spec(k)
	if s.Shared {
		return m.sharedLevel(k)
	}
	return m.engines[engine].caches[k]
}

// Profile returns the machine's profile.
func (m *Machine) Profile() *Profile { return m.prof }

// ErrOutOfMemory is Allocate's error when the capacity is used up.
var ErrOutOfMemory = errors.New("hwmodel: out of memory")

// Capacity is the GPU memory the model has, in bytes: what Allocate maps
// in all (a mid-range discrete GPU's).
const Capacity = 16 << 30

// Allocate maps size bytes of GPU virtual address space aligned to align (a
// power of two; 0 means 64 KiB) and returns its address. cpuVisible marks
// upload and readback memory, which CPUWrite and CPURead may touch.
func (m *Machine) Allocate(size, align uint64, cpuVisible bool) (uint64, error) {
	if align == 0 {
		align = 64 << 10
	}
	if size == 0 {
		return 0, errors.New("hwmodel: Allocate of 0 bytes")
	}
	if align&(align-1) != 0 {
		return 0, fmt.Errorf("hwmodel: alignment %d is not a power of two", align)
	}
	if size > Capacity-m.mappedB {
		return 0, fmt.Errorf("%w: %d bytes asked, %d of the GPU's %d mapped", ErrOutOfMemory, size, m.mappedB, uint64(Capacity))
	}
	base := (m.nextVA + align - 1) &^ (align - 1)
	if base+size < base || base+size > 1<<56 {
		return 0, fmt.Errorf("hwmodel: %d bytes do not fit the address space", size)
	}
	m.mappedB += size
	m.mappings = append(m.mappings, mapping{base, size, cpuVisible})
	m.nextVA = base + size
	return base, nil
}

// ErrBusy is Free's error while engines still have submitted work: the
// memory may still be read or written.
var ErrBusy = errors.New("hwmodel: engines have work in flight")

// Free unmaps the mapping Allocate returned at addr: its bytes count
// against Capacity no more, and the memory behind it (the model's and the
// reference's) is dropped. Its addresses are never handed out again, so a
// stale cache line of it can alias nothing. The machine must be idle (Run
// returned): unmapping memory in flight would fault real hardware.
func (m *Machine) Free(addr uint64) error {
	i := slices.IndexFunc(m.mappings, func(mp mapping) bool { return mp.base == addr })
	if i < 0 {
		return fmt.Errorf("hwmodel: Free(0x%x): no mapping starts there", addr)
	}
	for _, e := range m.engines {
		if e.cur != nil || len(e.queue) > 0 {
			return fmt.Errorf("%w: %s: Free(0x%x) must wait for Run", ErrBusy, e.name, addr)
		}
	}
	m.unmap(i)
	return nil
}

// Unmap is Free for a mapping no submitted work can name, one a creation
// just made and is taking back: it does not wait for the engines.
func (m *Machine) Unmap(addr uint64) error {
	i := slices.IndexFunc(m.mappings, func(mp mapping) bool { return mp.base == addr })
	if i < 0 {
		return fmt.Errorf("hwmodel: Unmap(0x%x): no mapping starts there", addr)
	}
	m.unmap(i)
	return nil
}

func (m *Machine) unmap(i int) {
	mp := m.mappings[i]
	m.mappings = slices.Delete(m.mappings, i, i+1)
	m.mappedB -= mp.size
	m.mem.Discard(mp.base, mp.size)
	m.ref.discard(mp.base, mp.size)
}

// mapped reports whether [addr, addr+n) lies inside one mapping.
func (m *Machine) mapped(addr, n uint64) (mapping, bool) {
	i := sort.Search(len(m.mappings), func(i int) bool { return m.mappings[i].base+m.mappings[i].size > addr })
	if i < len(m.mappings) {
		mp := m.mappings[i]
		if addr >= mp.base && addr+n <= mp.base+mp.size && addr+n >= addr {
			return mp, true
		}
	}
	return mapping{}, false
}

// MetadataSize is the metadata a surface of size bytes needs: two bytes per
// 256-byte block.
func MetadataSize(size uint64) uint64 { return 2 * ((size + BlockSize - 1) / BlockSize) }

// DefineSurface declares a compressible surface. Its data and metadata must
// lie in mapped memory; its id must be new and non-zero. The metadata is
// whatever the memory holds, so reads through compression see garbage until
// it is initialised (InitializeMetadata, or a METADATA_INIT packet).
func (m *Machine) DefineSurface(s Surface) error {
	switch {
	case s.ID == 0:
		return errors.New("hwmodel: surface id 0 means plain memory")
	case m.surfaces[s.ID] != nil:
		return fmt.Errorf("hwmodel: surface %d already defined", s.ID)
	case s.Size == 0:
		return fmt.Errorf("hwmodel: surface %d is empty", s.ID)
	}
	if _, ok := m.mapped(s.Base, s.Size); !ok {
		return fmt.Errorf("hwmodel: surface %d's data 0x%x+0x%x is not mapped", s.ID, s.Base, s.Size)
	}
	if _, ok := m.mapped(s.Meta, MetadataSize(s.Size)); !ok {
		return fmt.Errorf("hwmodel: surface %d's metadata 0x%x+0x%x is not mapped", s.ID, s.Meta, MetadataSize(s.Size))
	}
	m.surfPageOK = false
	c := s
	c.defined = make([]uint64, (MetadataSize(s.Size)/2+63)/64)
	m.surfaces[s.ID] = &c
	for p := s.Base / PageSize; p <= (s.Base+s.Size-1)/PageSize; p++ {
		m.surfaceIndex[p] = append(m.surfaceIndex[p], &c)
	}
	for p := s.Meta / PageSize; p <= (s.Meta+MetadataSize(s.Size)-1)/PageSize; p++ {
		m.metaIndex[p] = append(m.metaIndex[p], &c)
	}
	return nil
}

// RemoveSurface forgets a surface.
func (m *Machine) RemoveSurface(id uint16) {
	s := m.surfaces[id]
	if s == nil {
		return
	}
	delete(m.surfaces, id)
	m.surfPageOK = false
	unindex := func(idx map[uint64][]*Surface, lo, n uint64) {
		for p := lo / PageSize; p <= (lo+n-1)/PageSize; p++ {
			idx[p] = slices.DeleteFunc(idx[p], func(x *Surface) bool { return x == s })
			if len(idx[p]) == 0 {
				delete(idx, p)
			}
		}
	}
	unindex(m.surfaceIndex, s.Base, s.Size)
	unindex(m.metaIndex, s.Meta, MetadataSize(s.Size))
}

// surfaceAt returns the surface holding addr, if any: of aliasing surfaces,
// the one defined last (the alias in use).
func (m *Machine) surfaceAt(addr uint64) *Surface {
	if p := addr / PageSize; !m.surfPageOK || m.surfPage != p {
		m.surfPage, m.surfPageOK, m.surfList = p, true, m.surfaceIndex[p]
	}
	ss := m.surfList
	for i := len(ss) - 1; i >= 0; i-- {
		if s := ss[i]; addr >= s.Base && addr < s.Base+s.Size {
			return s
		}
	}
	return nil
}

// anySurface reports whether a surface overlaps [addr, addr+n).
func (m *Machine) anySurface(addr, n uint64) bool {
	for p := addr / PageSize; p <= (addr+n-1)/PageSize; p++ {
		for _, s := range m.surfaceIndex[p] {
			if addr < s.Base+s.Size && s.Base < addr+n {
				return true
			}
		}
	}
	return false
}

// InitializeMetadata sets a surface's whole metadata to "cleared to value",
// as resource creation may for a committed resource, outside any queue (no
// cost, ordered before everything later). The reference fills the data with
// value, which is what reads of the surface now return.
func (m *Machine) InitializeMetadata(id uint16, value byte) error {
	return m.initializeMetadata(id, MetaClear, value)
}

// InitializeMetadataPlain marks a surface's every block plain, outside any
// queue: its bytes are what memory holds (a committed resource's zeroes).
func (m *Machine) InitializeMetadataPlain(id uint16) error {
	return m.initializeMetadata(id, MetaPlain, 0)
}

func (m *Machine) initializeMetadata(id uint16, code, value byte) error {
	s := m.surfaces[id]
	if s == nil {
		return fmt.Errorf("hwmodel: no surface %d", id)
	}
	meta := make([]byte, MetadataSize(s.Size))
	for i := 0; i < len(meta); i += 2 {
		meta[i], meta[i+1] = code, value
	}
	m.mem.Write(s.Meta, meta)
	s.define(0, uint64(len(meta)/2-1))
	if code == MetaClear {
		m.ref.fill(s.Base, s.Size, value, 0)
	}
	return nil
}

// Label names an address range in hazard messages.
func (m *Machine) Label(addr, size uint64, name string) {
	m.labels = append(m.labels, label{addr, size, name})
}

func (m *Machine) labelOf(addr uint64) string {
	for i := len(m.labels) - 1; i >= 0; i-- {
		l := m.labels[i]
		if addr >= l.base && addr < l.base+l.size {
			return l.name
		}
	}
	return ""
}

// CPUWrite writes bytes into CPU-visible memory between runs, as the CPU
// writes an upload heap.
func (m *Machine) CPUWrite(addr uint64, data []byte) error {
	mp, ok := m.mapped(addr, uint64(len(data)))
	if !ok || !mp.cpuVisible {
		return fmt.Errorf("hwmodel: CPU write 0x%x+0x%x is not in CPU-visible memory", addr, len(data))
	}
	m.mem.Write(addr, data)
	m.ref.writeFrom(addr, data, m.mem)
	m.spoilMetadata(addr, uint64(len(data)))
	return nil
}

// CPURead reads CPU-visible memory, as the CPU reads a readback heap. Run
// ends every submission with a flush, so memory is current.
func (m *Machine) CPURead(addr uint64, dst []byte) error {
	mp, ok := m.mapped(addr, uint64(len(dst)))
	if !ok || !mp.cpuVisible {
		return fmt.Errorf("hwmodel: CPU read 0x%x+0x%x is not in CPU-visible memory", addr, len(dst))
	}
	m.mem.Read(addr, dst)
	return nil
}

// Fill sets mapped memory to a byte value outside any queue, as creation
// zeroes a committed resource; the reference does the same.
func (m *Machine) Fill(addr, size uint64, v byte) error {
	if _, ok := m.mapped(addr, size); !ok {
		return fmt.Errorf("hwmodel: fill 0x%x+0x%x is not mapped", addr, size)
	}
	m.mem.Fill(addr, size, v)
	m.ref.fill(addr, size, v, 0)
	m.spoilMetadata(addr, size)
	return nil
}

// NewFence creates a fence with value 0 and returns its id.
func (m *Machine) NewFence() uint32 {
	id := uint32(len(m.fences) + 1)
	m.fences[id] = &fence{}
	return id
}

// FenceValue returns a fence's completed value.
func (m *Machine) FenceValue(id uint32) (uint64, bool) {
	f, ok := m.fences[id]
	if !ok {
		return 0, false
	}
	return f.value, true
}

// RegisterBuffer makes a buffer callable by CALL packets under id.
func (m *Machine) RegisterBuffer(id uint32, b *cmdbuf.Buffer) { m.buffers[id] = b }

// Buffer returns a registered buffer, for disassembly.
func (m *Machine) Buffer(id uint32) (*cmdbuf.Buffer, bool) {
	b, ok := m.buffers[id]
	return b, ok
}

// NewEngine adds an engine (a queue's hardware) of a kind.
func (m *Machine) NewEngine(kind EngineKind) (*Engine, error) {
	if kind >= NumEngineKinds {
		return nil, fmt.Errorf("hwmodel: engine kind %d", kind)
	}
	if len(m.engines) == MaxEngines {
		return nil, fmt.Errorf("hwmodel: at most %d engines", MaxEngines)
	}
	e := &Engine{m: m, id: len(m.engines), kind: kind, events: map[uint32]eventSnap{}}
	n := 0
	for _, o := range m.engines {
		if o.kind == kind {
			n++
		}
	}
	e.name = fmt.Sprintf("%s#%d", kind, n)
	m.engines = append(m.engines, e)
	// Local caches, parents first.
	var ensure func(k cmdbuf.Cache) *level
	ensure = func(k cmdbuf.Cache) *level {
		if k == Memory {
			return m.memLevel
		}
		s, _ := m.prof.Spec(k)
		if s.Shared {
			return m.sharedLevel(k)
		}
		if e.caches[k] == nil {
			parent := ensure(s.Parent)
			e.caches[k] = newCacheLevel(m.levelID(), k, e.id, fmt.Sprintf("%s[%s]", k, e.name), parent)
		}
		return e.caches[k]
	}
	for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
		for _, k := range m.prof.Path(kind, c) {
			ensure(k)
		}
	}
	for _, s := range m.prof.Caches {
		if s.Shared && e.uses(s.Kind) {
			e.caches[s.Kind] = m.sharedLevel(s.Kind)
		}
	}
	for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
		var path []*level
		for _, k := range m.prof.Path(kind, c) {
			path = append(path, e.caches[k])
		}
		e.paths[c] = append(path, m.memLevel)
	}
	e.flushOrder = e.levelsInFlushOrder()
	m.levels = m.listLevels()
	return e, nil
}

// Engines returns the machine's engines.
func (m *Machine) Engines() []*Engine { return m.engines }

// Hazards returns every hazard recorded so far.
func (m *Machine) Hazards() []Hazard { return m.hazards }

// Faults returns every fault recorded so far.
func (m *Machine) Faults() []Fault { return m.faults }

// Fault is a submission the hardware could not execute: like a
// device-removed event, it stops that submission; other engines and later
// submissions go on.
type Fault struct {
	Engine string
	Batch  int
	Packet int
	Offset int
	Reason string
}

func (f Fault) String() string {
	return fmt.Sprintf("fault on %s, submission %d, dword %d: %s", f.Engine, f.Batch, f.Offset, f.Reason)
}

// ErrDeadlock: Run stopped with engines waiting on fences nothing will
// signal.
var ErrDeadlock = errors.New("engines wait on fences nothing signals")

// Run executes every submitted batch to completion, interleaving engines at
// fence waits (round-robin in engine order, deterministically). Work on
// different engines not ordered by fences within one Run is unordered; when
// Run returns, the CPU has seen everything finish, so everything submitted
// later is ordered after it.
//
// Run is the CPU waiting for the GPU to go idle, so engines that all wait on
// fences nothing left will signal are a hang: each such submission gets a
// fault (the device-removed of a timeout) and is abandoned, the rest runs,
// and Run returns ErrDeadlock naming the engines.
func (m *Machine) Run() error { return m.RunContext(context.Background()) }

// errCancelled unwinds a cancelled run from wherever the work is (one WORK
// can touch millions of lines); RunContext recovers it.
var errCancelled = errors.New("hwmodel: run cancelled")

// poll checks for cancellation every 64K lines and packets touched, so a
// cancelled run stops within a bounded amount of work.
func (m *Machine) poll() {
	if m.done == nil {
		return
	}
	if m.ticks++; m.ticks&(1<<16-1) != 0 {
		return
	}
	m.pollNow()
}

// pollNow checks for cancellation at once, for loops whose steps are large.
func (m *Machine) pollNow() {
	if m.done == nil {
		return
	}
	select {
	case <-m.done:
		panic(errCancelled)
	default:
	}
}

// RunContext is Run that stops when ctx is done: it returns an error
// wrapping ctx.Err() within a bounded amount of work, wherever the run was
// (mid-packet included). A machine whose run was cancelled is left
// part-way and must not be used again; every later call to RunContext
// reports that.
func (m *Machine) RunContext(ctx context.Context) (err error) {
	if m.cancelled != nil {
		return m.cancelled
	}
	m.done = ctx.Done()
	defer func() {
		m.done = nil
		if r := recover(); r != nil {
			if r != errCancelled {
				panic(r)
			}
			m.cancelled = fmt.Errorf("%w: %w", errCancelled, ctx.Err())
			err = m.cancelled
		}
	}()
	return m.run()
}

func (m *Machine) run() error {
	var hung []string
	for {
		progress, pending := false, false
		for _, e := range m.engines {
			if e.cur == nil && len(e.queue) == 0 {
				continue
			}
			pending = true
			if e.step() {
				progress = true
			}
		}
		if !pending {
			break
		}
		if !progress {
			for _, e := range m.engines {
				if e.cur == nil {
					continue
				}
				hung = append(hung, e.name)
				w := e.cur.waiting
				e.fault(e.cur.waitingAt, fmt.Sprintf(
					"FENCE_WAIT for fence %d to reach %d, which nothing signals: the engine hung", w.ID, w.Value))
				e.endBatch()
				e.cur = nil
			}
		}
	}
	// The CPU waited for everything: all later work is ordered after it.
	for _, e := range m.engines {
		e.sync()
	}
	m.resetEffects()
	m.retireAt = m.retireMin
	if hung != nil {
		return fmt.Errorf("%w: %v", ErrDeadlock, hung)
	}
	return nil
}
