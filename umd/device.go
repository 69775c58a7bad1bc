package umd

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/ebref/ebref/caps"
	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// Options configure a device.
type Options struct {
	// Debug turns on the debug layer's execute-time checks: the layouts
	// each command list assumed (its first LayoutBefore of each subresource)
	// are checked against the layouts the subresources have when it is
	// executed, split barriers are matched across the lists of one
	// ExecuteCommandLists, and findings are kept (Device.Messages).
	Debug bool
	// Faults break the translation on purpose (faults.go), so conformance
	// suites can prove they catch each kind of mistake.
	Faults Faults
	// Context, if set, cancels the GPU's work: WaitIdle stops within a
	// bounded amount of work once it is done, returns its error, and the
	// device is finished (a run that timed out frees its CPU and memory).
	Context context.Context
	// Translator, if set, translates every Barrier call in place of the
	// reference's own translation (Reference) (seam.go,
	// docs/translators.md): ebref validates, tracks and records
	// everything else, and judges its packets.
	Translator translator.Opener
}

// Device is ebref's driver opened on a hardware profile: the device DDIs,
// command lists and queues, over a simulated GPU. Creating resources,
// recording command lists on different goroutines and submitting are safe
// concurrently; one command list is recorded, closed or reset by one
// goroutine at a time (errata E-LIST-GUARD).
type Device struct {
	prof *hwmodel.Profile
	opts Options

	// rmu guards the handle tables.
	rmu       sync.RWMutex
	heaps     map[ddi.HHeap]*Heap
	resources map[ddi.HResource]*Resource
	// queryHeaps are the query heaps (query.go), made on first use.
	queryHeaps map[ddi.HQueryHeap]*QueryHeap
	// xl translates Barrier calls: Options.Translator's, or the
	// reference (Reference), which then applies the faults as it emits
	// (xlFaults) rather than to its reply (applyFaults), so faults that
	// name packets by purpose apply too.
	xl       translator.Translator
	xlName   string
	xlFaults bool
	// ref is xl when it is the device's own reference: the seam calls
	// its translate with the list's scratch (seam.go), the same
	// translation without Translate's shared scratch.
	ref *Reference
	// pipelined: xl takes a list's requests ahead of their replies
	// (pipeline.go).
	pipelined bool
	// policy is the translator's compression policy, if it declared one
	// (nil: the reference's table, compression.go).
	policy *translator.Policy
	// addrIndex indexes the resources by address (indexAdd).
	addrIndex
	// gone names the resources and heaps destroyed, by handle, so using
	// one is an error that names it (destroy.go).
	gone    map[uint64]string
	handles atomic.Uint64 // the last fresh handle reserve handed out
	workIDs atomic.Uint32

	// mu guards the machine, surfaces, queues, fences and the layouts
	// subresources have at submission time.
	mu          sync.Mutex
	m           *hwmodel.Machine
	nextSurface uint16
	// freeSurfaces are the surface ids of destroyed resources.
	freeSurfaces []uint16
	queues       []*Queue
	messages     []Message
	// submitted counts ExecuteCommandLists calls; completed is submitted
	// as of the last WaitIdle. A resource a submission after completed
	// used may still be in use (Resource.lastUse).
	submitted, completed uint64
	// deferred are the mappings of heaps destroyed while the GPU had work
	// in flight that did not use them: unmapped at the next WaitIdle
	// (destroy.go), with deferredBytes their size.
	deferred      []*Heap
	deferredBytes uint64

	// caches are, per engine kind, the cache work between clients.
	caches [hwmodel.NumEngineKinds]cacheTable
}

// cacheTable says, for one engine, where its clients' accesses go: path[c]
// is every cache on client c's way to memory. writeBack are the engine's
// caches that hold writes (not read-only): invalidating one also flushes
// it, so no other resource's pending writes are dropped.
//
// written are the caches on every writing client's path (an access's
// writer, or the compression unit): every write of the engine passes
// through them on its way to memory, so none is overtaken there by a write
// that went round them. Writes that reach them are found by whatever later
// uses the memory on the engine once the barrier before that use writes
// back what its users do not look in (errata E-NO-ACCESS-AFTER-BARRIER),
// and another engine or the CPU sees them only after the submission ends,
// which writes everything back. A barrier to NO_ACCESS therefore flushes
// only up to them (errata E-NO-ACCESS-FLUSH), and a barrier naming no
// writer invalidates only its users' caches beside them (errata
// E-ACQUIRE-INVALIDATE). They are L2 on the direct and compute engines of
// every built-in profile; that is where every client reads as well on
// all but xe, whose command processor and vertex fetch read memory.
type cacheTable struct {
	path      [cmdbuf.NumClients]cmdbuf.CacheMask
	writeBack cmdbuf.CacheMask
	written   cmdbuf.CacheMask
	// low and high are pathsOf's answers for every set of the clients
	// below lowClients and of the others (1.5 KiB): of reads two entries
	// instead of walking a mask's bits, which every barrier asks for a
	// few masks.
	low  [1 << lowClients]pathSet
	high [1 << (cmdbuf.NumClients - lowClients)]pathSet
}

// lowClients is how many clients the low table of a cacheTable covers.
const lowClients = 7

func newCacheTable(p *hwmodel.Profile, e hwmodel.EngineKind) (t cacheTable) {
	var onEngine cmdbuf.CacheMask
	for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
		for _, k := range p.Path(e, c) {
			t.path[c] |= k.Mask()
		}
		onEngine |= t.path[c]
	}
	for _, s := range p.Caches {
		if !s.ReadOnly {
			t.writeBack |= s.Kind.Mask() & onEngine
		}
	}
	for m := range t.low {
		t.low[m] = t.pathsOf(clientMask(m))
	}
	for m := range t.high {
		t.high[m] = t.pathsOf(clientMask(m) << lowClients)
	}
	writers, _ := clientRoles(ddi.WriteAccesses)
	t.written = t.of(writers | blitClient).every
	return t
}

// between is the cache work between writes by the clients w and later
// accesses by the clients u: the caches to flush so the writes reach
// where every user looks, and the users' caches to invalidate because
// they may hold copies from before the writes.
//
// Within one engine every cache instance is shared by its clients and each
// cache has one parent (hwmodel.Profile.Validate), so two clients' paths,
// once they meet, run together to memory. For one writer and one reader
// the write therefore waits in the caches of the writer's path that are
// not on the reader's, and the reader's caches the write never passed are
// those of the reader's path not on the writer's (hwmodel.Profile's
// CachesBetween and StaleBetween). Over sets of clients the union of those
// is: flush the caches on any writer's path that not every user looks
// in; invalidate the caches on any user's path that not every writer
// wrote through.
func (t *cacheTable) between(w, u clientMask) (flush, inval cmdbuf.CacheMask) {
	wp, up := t.of(w), t.of(u)
	return wp.anyOf &^ up.every, up.anyOf &^ wp.every
}

// pathSet is the caches on the paths of a set of clients: those on any of
// them, and those on every one (every cache, for no client). With them the
// cache work between sets needs no case for an empty one: nothing is on
// its paths, and nothing is missing from all of them.
type pathSet struct{ anyOf, every cmdbuf.CacheMask }

// of is the pathSet of the clients m, from the tables.
func (t *cacheTable) of(m clientMask) pathSet {
	l, h := t.low[m&(1<<lowClients-1)], t.high[(m>>lowClients)&(1<<(cmdbuf.NumClients-lowClients)-1)]
	return pathSet{anyOf: l.anyOf | h.anyOf, every: l.every & h.every}
}

// pathsOf is the pathSet of the clients m, from their paths.
func (t *cacheTable) pathsOf(m clientMask) pathSet {
	p := pathSet{every: ^cmdbuf.CacheMask(0)}
	for c := uint32(m); c != 0; c &= c - 1 {
		k := t.path[bits.TrailingZeros32(c)]
		p.anyOf, p.every = p.anyOf|k, p.every&k
	}
	return p
}

// Open opens a device on a profile.
func Open(p *hwmodel.Profile, opts Options) (*Device, error) {
	if p == nil {
		return nil, errors.New("umd: nil profile")
	}
	m, err := hwmodel.New(p)
	if err != nil {
		return nil, fmt.Errorf("umd: %w", err)
	}
	d := &Device{prof: p, opts: opts, m: m, heaps: map[ddi.HHeap]*Heap{}, resources: map[ddi.HResource]*Resource{},
		gone: map[uint64]string{}}
	for e := range d.caches {
		d.caches[e] = newCacheTable(p, hwmodel.EngineKind(e))
	}
	if o := opts.Translator; o != nil {
		if d.xl, err = o.Open(p); err != nil {
			return nil, fmt.Errorf("umd: opening translator %s on %s: %w", o.Name(), p.Name, err)
		}
		d.xlName = o.Name()
		_, d.pipelined = d.xl.(translator.Pipeliner)
		if pol, ok := d.xl.(translator.Policer); ok {
			if p, declared := pol.Policy(); declared {
				if err := p.Check(d.prof); err != nil {
					return nil, fmt.Errorf("umd: translator %s's compression policy: %w", o.Name(), err)
				}
				d.policy = &p
			}
		}
	} else {
		d.ref = &Reference{caches: &d.caches, faults: &d.opts.Faults}
		d.xl, d.xlName, d.xlFaults = d.ref, ReferenceOpener{}.Name(), true
	}
	return d, nil
}

// Profile is the hardware profile the device runs on.
func (d *Device) Profile() *hwmodel.Profile { return d.prof }

// Options returns D3D12DDI_D3D12_OPTIONS_DATA_0089 (caps.Options).
//
//go:noinline
func (d *Device) Options() ddi.OptionsData0089 { return caps.Options(d.prof) }

// Machine is the simulated GPU, for reading results and hazards. Use it
// only while no queue is executing (after WaitIdle).
func (d *Device) Machine() *hwmodel.Machine { return d.m }

// Messages returns the findings of the execute-time debug checks.
func (d *Device) Messages() []Message {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Message(nil), d.messages...)
}

// resource looks a resource up.
func (d *Device) resource(h ddi.HResource) *Resource {
	d.rmu.RLock()
	r := d.resources[h]
	d.rmu.RUnlock()
	return r
}

// Resource returns the resource behind a handle.
func (d *Device) Resource(h ddi.HResource) (*Resource, bool) {
	r := d.resource(h)
	return r, r != nil
}

// Heap returns the heap behind a handle.
func (d *Device) Heap(h ddi.HHeap) (*Heap, bool) {
	d.rmu.RLock()
	defer d.rmu.RUnlock()
	hp := d.heaps[h]
	return hp, hp != nil
}

// WaitIdle runs every queue to completion, as a CPU wait for the GPU to
// go idle. A deadlock (queues waiting on fences nothing signals) is
// returned as hwmodel.ErrDeadlock; the stuck submissions fault.
func (d *Device) WaitIdle() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.completed = d.submitted
	before := len(d.m.Faults())
	ctx := d.opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := d.m.RunContext(ctx); err != nil {
		return err
	}
	if err := d.freeDeferred(); err != nil {
		return err
	}
	if fs := d.m.Faults(); len(fs) > before {
		return fmt.Errorf("%w: %d faults, the first: %s", ErrGPUFault, len(fs)-before, fs[before])
	}
	return nil
}

// ErrGPUFault is WaitIdle's error when the GPU faulted while it ran what
// was submitted (the device-removed of a real driver): Machine().Faults
// says where.
var ErrGPUFault = errors.New("umd: the GPU faulted")

// WriteBuffer writes into a buffer in CPU-visible memory (an upload or
// readback heap) between submissions, as the CPU does through a mapping.
func (d *Device) WriteBuffer(h ddi.HResource, offset uint64, data []byte) error {
	r := d.resource(h)
	switch {
	case r == nil:
		return fmt.Errorf("umd: WriteBuffer: no resource has handle 0x%x", uint64(h))
	case !r.IsBuffer() || !r.Heap.Desc.CPUVisible():
		return fmt.Errorf("umd: WriteBuffer: %s is not a buffer in an upload or readback heap", r.Name())
	case offset > r.Desc.DataSize || uint64(len(data)) > r.Desc.DataSize-offset:
		return fmt.Errorf("umd: WriteBuffer: %d bytes at %d run past the %d-byte %s", len(data), offset, r.Desc.DataSize, r.Name())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m.CPUWrite(r.Addr+offset, data)
}

// Contents returns a resource's bytes as a client that decodes compression
// reads them from memory. After WaitIdle every cache has been written back,
// so this is the final content.
func (d *Device) Contents(h ddi.HResource) ([]byte, error) {
	r := d.resource(h)
	if r == nil {
		return nil, fmt.Errorf("umd: Contents: no resource has handle 0x%x", uint64(h))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m.Logical(r.Addr, r.Desc.DataSize, r.Surface)
}
