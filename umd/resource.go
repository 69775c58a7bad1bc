package umd

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd/translator"
)

// Heap is a heap the driver created: a range of the GPU's address space.
type Heap struct {
	Handle ddi.HHeap
	Desc   resource.Heap
	Addr   uint64 // GPU virtual address of its first byte
	// occ records placed resources, for aliasing queries.
	occ resource.Occupancy
}

// Resource is a resource the driver created.
type Resource struct {
	Handle ddi.HResource
	Desc   *resource.Resource
	Heap   *Heap
	Offset uint64 // in the heap
	Addr   uint64 // GPU virtual address of its data
	// Layout in memory: the data (Desc.DataSize, padded to a compression
	// block on surfaces), then a surface's metadata.
	DataSize uint64
	MetaSize uint64
	Span     uint64 // what it occupies in its heap
	// Surface is its hwmodel compression surface, 0 if not compressible.
	Surface   uint16
	Committed bool
	// InitialLayout is InitialBarrierLayout.
	InitialLayout ddi.BarrierLayout
	// compressed says, per layout slot, whether the layout keeps the
	// texture compressed on the device's profile (compression.go).
	compressed [numLayoutSlots]bool
	// allowed is every access the resource may have (resource.AllowedAccesses),
	// layoutOK every layout slot it may be in (resource.CheckLayout).
	allowed  ddi.BarrierAccess
	layoutOK uint64
	// compat is, per layout slot it may be in, compatible & allowed: the
	// accesses a barrier's COMMON stands for. layoutAccess is, per layout
	// slot, the accesses a barrier may name with the layout
	// (layoutAccessOK).
	compat       [numLayoutSlots]ddi.BarrierAccess
	layoutAccess [numLayoutSlots]ddi.BarrierAccess
	// simultaneous: a texture created ALLOW_SIMULTANEOUS_ACCESS, whose
	// COMMON layout accepts ddi.SimultaneousCommonAccesses.
	simultaneous bool
	// layouts are its subresources' layouts as the submissions so far
	// leave them (nil: all InitialLayout); Device.mu guards them.
	layouts []ddi.BarrierLayout
	// byRuntime marks the subresources whose layout the runtime's
	// translation of a legacy barrier set (nil: none): the legacy layer,
	// which knows their states, judges what later lists do with them.
	byRuntime []bool
	// label is its name (SetName may change it while other threads
	// record commands that mention it).
	label atomic.Pointer[string]
	// destroyed is set by DestroyResource; command lists that met the
	// resource before check it. lastUse is the last submission that used
	// it (Device.submitted; Device.mu guards it).
	destroyed atomic.Bool
	lastUse   uint64
	// openSplits marks the subresources a submitted list left a split
	// begun on (nil: none); the debug layer's, Device.mu guards it.
	openSplits []bool
	// fact is what a texture barrier's fact says of the texture whole,
	// set once its surface is (place): a barrier's fact starts as a copy
	// (addTextureFact).
	fact translator.Fact
}

// Name is the resource's label in hazard messages.
func (r *Resource) Name() string { return *r.label.Load() }

// compatible is what ACCESS_COMMON stands for on the resource in layout l:
// the accesses the layout allows (a simultaneous-access texture's COMMON
// allows more, errata E-SA-COMMON-ACCESS). UNDEFINED stands for any layout:
// a memory-only barrier (both layouts UNDEFINED) keeps whatever layout the
// texture has (000 "D3D12_BARRIER_LAYOUT_UNDEFINED").
func (r *Resource) compatible(l ddi.BarrierLayout) ddi.BarrierAccess {
	switch {
	case l == ddi.LayoutUndefined:
		return r.allowed
	case r.simultaneous && l == ddi.LayoutCommon:
		return ddi.SimultaneousCommonAccesses
	}
	a, _ := ddi.CompatibleAccesses(l)
	return a
}

// IsBuffer reports whether the resource is a buffer.
func (r *Resource) IsBuffer() bool { return r.Desc.Desc.IsBuffer() }

// CompressedIn reports whether the resource is kept compressed in a layout.
func (r *Resource) CompressedIn(l ddi.BarrierLayout) bool { return r.compressedIn(l) }

// Region is the resource's data as an hwmodel region, for comparisons.
func (r *Resource) Region() hwmodel.Region {
	return hwmodel.Region{Name: r.Name(), Addr: r.Addr, Size: r.Desc.DataSize, Surface: r.Surface}
}

// ErrCreate classes every creation error (errors.Is).
var ErrCreate = errors.New("invalid CreateHeapAndResource arguments")

// createError builds the error a creation DDI returns: the argument, the
// rule, and the underlying class (resource.ErrInvalidDesc, ...).
func createError(command, field, value string, cause error, format string, args ...any) error {
	return &CreateError{Message{Severity: SeverityError, Category: CategoryStateCreation, ID: MsgCreateResourceAndHeapInvalid,
		Command: command, Call: -1, Barrier: -1, Field: field, Value: value, Rule: fmt.Sprintf(format, args...)}, cause}
}

// CreateError is a creation DDI's error: a Message and, where the check is
// resource/'s, its error.
type CreateError struct {
	Message
	Cause error
}

func (e *CreateError) Error() string { return e.Message.Error() }

// Is matches ErrCreate.
func (e *CreateError) Is(target error) bool { return target == ErrCreate }

func (e *CreateError) Unwrap() error { return e.Cause }

// As finds the creation error's message for errors.As(err, &m) with m a
// *Message: a harness reads every refusal as a message.
func (e *CreateError) As(target any) bool {
	if m, ok := target.(**Message); ok {
		*m = &e.Message
		return true
	}
	return false
}

// fromResource turns resource/'s field errors into creation errors.
func fromResource(command string, err error) error {
	var fe *resource.FieldError
	if errors.As(err, &fe) {
		return smallPlacement(createError(command, fe.Field, fe.Value, err, "%s", fe.Rule))
	}
	return createError(command, "", "", err, "%v", err)
}

// smallPlacement gives a placement only a small-resource alignment allows,
// of a texture that does not have one, the real layer's ID.
func smallPlacement(err error) error {
	if ce := (*CreateError)(nil); errors.As(err, &ce) && errors.Is(ce.Cause, resource.ErrSmallPlacement) {
		ce.ID = MsgInvalidAlignmentSmallResource
	}
	return err
}

// surfaceLayout is where a texture's data and metadata lie: the data padded
// to whole compression blocks, the metadata after it, the whole rounded up
// to the placement alignment.
func surfaceLayout(r *resource.Resource, surface bool) (data, meta, span uint64) {
	if !surface {
		return r.DataSize, 0, r.Size
	}
	data = alignUp(r.DataSize, hwmodel.BlockSize)
	meta = hwmodel.MetadataSize(data)
	return data, meta, alignUp(data+meta, r.Alignment)
}

func alignUp(v, a uint64) uint64 { return (v + a - 1) / a * a }

// CreateHeapAndResource implements PFND3D12DDI_CREATEHEAPANDRESOURCE_0088
// (000 "PFND3D12DDI_CREATEHEAPANDRESOURCE_0088"), as three shapes:
//
//   - a heap alone: heap set, res nil;
//   - a committed resource in a heap of its own: heap and res set;
//   - a placed resource: heap nil, existing names the heap, and the offset
//     in it is res.ReuseBufferGPUVA.BaseAddress.UMD.Offset (docs/errata.md
//     E-PLACED-OFFSET).
//
// It returns the new handles (0 where nothing of that kind was made).
// Invalid arguments return a *CreateError naming the argument and the rule,
// and nothing is created. A committed resource's memory is zeroed and, on a
// compression surface, its metadata initialised (every block plain: its
// zeroes are its content, whatever the initial layout); a placed
// one's is whatever the heap held, metadata included, which is why a
// placed render-target, depth-stencil or unordered-access texture's first
// barrier must discard (000 "Placed Resource Metadata Initialization"
// asks it of those layouts only).
func (d *Device) CreateHeapAndResource(heap *ddi.CreateHeap0001, existing ddi.HHeap, res *ddi.CreateResource0088) (ddi.HHeap, ddi.HResource, error) {
	return d.createHeapAndResource(heap, existing, res, 0, 0)
}

// createHeapAndResource creates under the handles asked for (the
// function-table view passes the runtime's), or fresh ones where 0.
//
//go:noinline
func (d *Device) createHeapAndResource(heap *ddi.CreateHeap0001, existing ddi.HHeap, res *ddi.CreateResource0088,
	wantHeap ddi.HHeap, wantRes ddi.HResource) (hh ddi.HHeap, hr ddi.HResource, err error) {
	const cmd = "CreateHeapAndResource"
	if heap == nil && res == nil {
		return 0, 0, createError(cmd, "pHeap, pResource", "NULL", nil, "one of the heap and resource descriptions must be given")
	}
	var hd resource.Heap
	if heap != nil {
		if hd, err = resource.NewHeap(*heap); err != nil {
			return 0, 0, fromResource(cmd, err)
		}
	}
	if res == nil {
		if hh, _, err = d.reserve(true, wantHeap, false, 0); err != nil {
			return 0, 0, err
		}
		if _, err := d.makeHeap(hd, hh); err != nil {
			d.release(hh, 0)
			return 0, 0, err
		}
		return hh, 0, nil
	}
	r, err := resource.New(resource.DescFromCreateResource(res))
	if err != nil {
		return 0, 0, fromResource(cmd, err)
	}
	if off := res.ReuseBufferGPUVA.BaseAddressUMD.Offset; heap == nil && !r.Desc.IsBuffer() && off%r.Alignment != 0 &&
		off%resource.SmallPlacementAlignment == 0 {
		// The DDI's description carries no Alignment: a placed texture at
		// an offset only a small-resource alignment allows asks for that
		// alignment, which it has if it is a small resource (the runtime
		// held the application to the Alignment it asked for; errata
		// E-SMALL-PLACEMENT).
		d := r.Desc
		d.Alignment = resource.SmallPlacementAlignment
		if d.SampleDesc.Count > 1 {
			d.Alignment = resource.SmallMSAAPlacementAlignment
		}
		if small, err := resource.New(d); err == nil {
			r = small
		}
	}
	if err := r.CheckInitialLayout(res.InitialBarrierLayout); err != nil {
		return 0, 0, fromResource(cmd, err)
	}
	surface := compressible(d.prof, r)
	data, meta, span := surfaceLayout(r, surface)
	placed := *r
	placed.Size = span
	var hp *Heap
	var offset uint64
	if heap != nil {
		if heap.ByteSize < span {
			return 0, 0, createError(cmd, "pHeap.ByteSize", fmt.Sprint(heap.ByteSize), nil,
				"a committed resource's heap must hold its %d bytes (CheckResourceAllocationInfo)", span)
		}
		if err := hd.CheckPlacement(0, &placed); err != nil {
			return 0, 0, fromResource(cmd, err)
		}
	} else {
		var ok bool
		if hp, ok = d.Heap(existing); !ok {
			return 0, 0, createError(cmd, "hHeap", fmt.Sprintf("0x%x", uint64(existing)), nil, "no heap has this handle")
		}
		offset = res.ReuseBufferGPUVA.BaseAddressUMD.Offset
		if err := hp.Desc.CheckPlacement(offset, &placed); err != nil {
			var fe *resource.FieldError
			if errors.As(err, &fe) && fe.Field == "HeapOffset" {
				return 0, 0, smallPlacement(createError(cmd, "ReuseBufferGPUVA.BaseAddress.UMD.Offset", fe.Value, err,
					"%s (the placed offset, errata E-PLACED-OFFSET)", fe.Rule))
			}
			return 0, 0, fromResource(cmd, err)
		}
	}
	if hh, hr, err = d.reserve(heap != nil, wantHeap, true, wantRes); err != nil {
		return 0, 0, err
	}
	if heap != nil {
		if hp, err = d.makeHeap(hd, hh); err != nil {
			d.release(hh, hr)
			return 0, 0, err
		}
	}
	rs := &Resource{Handle: hr, Desc: r, Heap: hp, Offset: offset, Addr: hp.Addr + offset,
		DataSize: data, MetaSize: meta, Span: span, Committed: heap != nil, InitialLayout: res.InitialBarrierLayout}
	name := fmt.Sprintf("resource 0x%x", uint64(rs.Handle))
	rs.label.Store(&name)
	rs.simultaneous = !r.Desc.IsBuffer() && r.Desc.IsSimultaneousAccess()
	rs.allowed = r.AllowedAccesses(hp.Desc.Kind) &^ ddi.AccessNoAccess
	for _, l := range ddi.AllBarrierLayouts() {
		slot, ok := layoutSlot(l)
		if !ok {
			continue
		}
		rs.layoutAccess[slot], _ = ddi.CompatibleAccesses(l)
		if rs.simultaneous && l == ddi.LayoutCommon {
			rs.layoutAccess[slot] = ddi.SimultaneousCommonAccesses
		}
		if r.CheckLayout("", l) == nil {
			rs.layoutOK |= 1 << slot
			rs.compat[slot] = rs.compatible(l) & rs.allowed
		}
	}
	switch {
	case surface && d.policy != nil:
		rs.compressed = policyLayouts(d.policy, r)
	case surface:
		rs.compressed = compressedLayouts(d.prof, r, hp.Desc.Kind)
		if slot, ok := layoutSlot(rs.InitialLayout); ok && !rs.Committed &&
			r.Desc.Flags&(ddi.ResourceFlagRenderTarget|ddi.ResourceFlagDepthStencil) == 0 {
			// A placed texture the application need not initialise (000
			// "Placed Resource Metadata Initialization" obliges render
			// targets and depth-stencil textures only) starts in its
			// initial layout with whatever metadata its heap held, so that
			// layout is plain for it: a barrier out of it into a
			// compressed layout initialises the metadata, and none reads
			// it before (suites/regressions/placed-initial-layout.ebs).
			rs.compressed[slot] = false
		}
	}
	if err := d.place(rs, surface); err != nil {
		// Nothing is created: forget the heap made for it, and give its
		// memory back.
		if heap != nil {
			d.mu.Lock()
			_ = d.m.Unmap(hp.Addr) // it was mapped just now; it cannot fail
			d.mu.Unlock()
		}
		d.release(hh, hr)
		return 0, 0, err
	}
	d.rmu.Lock() // the heap's occupancy is shared by every thread placing in it
	hp.occ.Add(uint64(rs.Handle), resource.Span{Offset: offset, Size: span})
	d.resources[rs.Handle] = rs
	d.indexAdd(rs)
	d.rmu.Unlock()
	return hh, hr, nil
}

// reserve claims the handles a creation will register: the ones asked for
// (not 0), which must be unused, or fresh ones. Until registered they name
// nothing; release gives them back.
func (d *Device) reserve(heap bool, wantHeap ddi.HHeap, res bool, wantRes ddi.HResource) (ddi.HHeap, ddi.HResource, error) {
	d.rmu.Lock()
	defer d.rmu.Unlock()
	used := func(h uint64) bool {
		_, a := d.heaps[ddi.HHeap(h)]
		_, b := d.resources[ddi.HResource(h)]
		return a || b
	}
	claim := func(want uint64, field string) (uint64, error) {
		if want == 0 {
			for {
				if h := d.handles.Add(1); !used(h) {
					return h, nil
				}
			}
		}
		if used(want) {
			return 0, createError("CreateHeapAndResource", field, fmt.Sprintf("0x%x", want), nil, "the handle already names a heap or resource")
		}
		return want, nil
	}
	var hh, hr uint64
	var err error
	if heap {
		if hh, err = claim(uint64(wantHeap), "hHeap"); err != nil {
			return 0, 0, err
		}
		d.heaps[ddi.HHeap(hh)] = nil
	}
	if res {
		if hh == uint64(wantRes) && wantRes != 0 {
			delete(d.heaps, ddi.HHeap(hh))
			return 0, 0, createError("CreateHeapAndResource", "hResource", fmt.Sprintf("0x%x", uint64(wantRes)), nil, "the heap and the resource need different handles")
		}
		if hr, err = claim(uint64(wantRes), "hResource"); err != nil {
			delete(d.heaps, ddi.HHeap(hh))
			return 0, 0, err
		}
		d.resources[ddi.HResource(hr)] = nil
	}
	return ddi.HHeap(hh), ddi.HResource(hr), nil
}

// release forgets reserved handles (0: none).
func (d *Device) release(hh ddi.HHeap, hr ddi.HResource) {
	d.rmu.Lock()
	defer d.rmu.Unlock()
	if hh != 0 {
		delete(d.heaps, hh)
	}
	if hr != 0 {
		delete(d.resources, hr)
	}
}

// makeHeap maps a heap's memory and registers it under h.
func (d *Device) makeHeap(hd resource.Heap, h ddi.HHeap) (*Heap, error) {
	d.mu.Lock()
	addr, err := d.m.Allocate(hd.Size, hd.Alignment, hd.CPUVisible())
	pending := d.deferredBytes
	d.mu.Unlock()
	if err != nil {
		ce := createError("CreateHeapAndResource", "pHeap.ByteSize", fmt.Sprint(hd.Size), err, "%v", err)
		if errors.Is(err, hwmodel.ErrOutOfMemory) && pending > 0 {
			ce = createError("CreateHeapAndResource", "pHeap.ByteSize", fmt.Sprint(hd.Size), err,
				"%v (%d bytes of destroyed heaps come back at the next WaitIdle: the GPU had work in flight when they were destroyed)", err, pending)
		}
		if errors.Is(err, hwmodel.ErrOutOfMemory) {
			ce.(*CreateError).ID = MsgOutOfMemory // not invalid: the GPU is full (E_OUTOFMEMORY)
		}
		return nil, ce
	}
	hp := &Heap{Handle: h, Desc: hd, Addr: addr}
	d.rmu.Lock()
	d.heaps[h] = hp
	d.rmu.Unlock()
	return hp, nil
}

// place labels the resource's memory, defines its surface and, for a
// committed resource, zeroes its memory and initialises its metadata.
func (d *Device) place(r *Resource, surface bool) error {
	defer r.setFact()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.m.Label(r.Addr, r.Desc.DataSize, r.Name())
	if surface {
		// Surface ids of destroyed resources are used again first.
		switch n := len(d.freeSurfaces); {
		case n > 0:
			r.Surface, d.freeSurfaces = d.freeSurfaces[n-1], d.freeSurfaces[:n-1]
		case d.nextSurface == 0xffff:
			return createError("CreateHeapAndResource", "pResource", "", nil, "the GPU has no compression surface left (65535 live)")
		default:
			d.nextSurface++
			r.Surface = d.nextSurface
		}
		if err := d.m.DefineSurface(hwmodel.Surface{ID: r.Surface, Base: r.Addr, Size: r.DataSize,
			Meta: r.Addr + r.DataSize, Name: r.Name()}); err != nil {
			d.freeSurfaces = append(d.freeSurfaces, r.Surface)
			r.Surface = 0
			return createError("CreateHeapAndResource", "pResource", "", err, "%v", err)
		}
	}
	if r.Committed {
		err := d.m.Fill(r.Addr, r.Span, 0)
		if err == nil && surface {
			err = d.m.InitializeMetadataPlain(r.Surface)
		}
		if err != nil {
			if surface {
				d.m.RemoveSurface(r.Surface)
				d.freeSurfaces = append(d.freeSurfaces, r.Surface)
			}
			return createError("CreateHeapAndResource", "pResource", "", err, "%v", err)
		}
	}
	return nil
}

// setFact sets r.fact: a texture's kind, surface and bytes, all of them
// selected.
func (r *Resource) setFact() {
	f := translator.Fact{Kind: translator.KindTexture, Surface: uint32(r.Surface)}
	if r.simultaneous {
		f.Kind = translator.KindSimultaneous
	}
	f.Data = translator.Range{Lo: r.Addr, Hi: r.Addr + r.DataSize}
	f.Selected = f.Data
	if r.MetaSize > 0 {
		f.Meta = translator.Range{Lo: f.Data.Hi, Hi: f.Data.Hi + r.MetaSize}
	}
	r.fact = f
}

// SetName labels a resource in hazard messages and comparisons.
func (d *Device) SetName(h ddi.HResource, name string) error {
	r := d.resource(h)
	if r == nil {
		return fmt.Errorf("umd: SetName: no resource has handle 0x%x", uint64(h))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	r.label.Store(&name)
	d.m.Label(r.Addr, r.Desc.DataSize, name)
	return nil
}

// Aliases lists the resources whose memory overlaps r's, by ascending
// offset in the heap.
func (d *Device) Aliases(h ddi.HResource) []ddi.HResource {
	r := d.resource(h)
	if r == nil {
		return nil
	}
	d.rmu.RLock()
	defer d.rmu.RUnlock()
	var out []ddi.HResource
	for _, id := range r.Heap.occ.Aliasing(resource.Span{Offset: r.Offset, Size: r.Span}, uint64(h)) {
		out = append(out, ddi.HResource(id))
	}
	return out
}

// CalcPrivateHeapAndResourceSizes implements
// PFND3D12DDI_CALCPRIVATEHEAPANDRESOURCESIZES_0088: the sizes of the driver
// objects CreateHeapAndResource makes for these arguments (0 for what is
// not asked for).
//
//go:noinline
func (d *Device) CalcPrivateHeapAndResourceSizes(heap *ddi.CreateHeap0001, res *ddi.CreateResource0088) ddi.HeapAndResourceSizes {
	var s ddi.HeapAndResourceSizes
	if heap != nil {
		s.Heap = uint64(unsafe.Sizeof(Heap{}))
	}
	if res != nil {
		s.Resource = uint64(unsafe.Sizeof(Resource{}))
	}
	return s
}

// CheckResourceAllocationInfo implements
// PFND3D12DDI_CHECKRESOURCEALLOCATIONINFO_0088: how much memory, and how
// aligned, CreateHeapAndResource gives the resource. The data comes first
// (ResourceDataSize, padded to whole compression blocks on a surface), the
// compression metadata follows as the additional data (E-ALLOCATION-INFO);
// a placed resource occupies ResourceDataSize + AdditionalDataSize rounded up
// to ResourceDataAlignment. alignment asks for a smaller alignment (4 KiB
// small textures, 64 KiB small multisample textures), 0 for the default.
//
//go:noinline
func (d *Device) CheckResourceAllocationInfo(res *ddi.CreateResource0088, flags ddi.ResourceOptimizationFlags, alignment uint32, visibleNodeMask uint32) (ddi.ResourceAllocationInfo0022, error) {
	const cmd = "CheckResourceAllocationInfo"
	if res == nil {
		return ddi.ResourceAllocationInfo0022{}, createError(cmd, "pResource", "NULL", nil, "a resource description is required")
	}
	desc := resource.DescFromCreateResource(res)
	desc.Alignment = uint64(alignment)
	r, err := resource.New(desc)
	if err != nil {
		return ddi.ResourceAllocationInfo0022{}, fromResource(cmd, err)
	}
	data, meta, _ := surfaceLayout(r, compressible(d.prof, r))
	info := ddi.ResourceAllocationInfo0022{ResourceDataSize: data, ResourceDataAlignment: uint32(r.Alignment),
		Layout: r.Desc.Layout}
	if meta > 0 {
		info.AdditionalDataSize, info.AdditionalDataAlignment = meta, hwmodel.BlockSize
	}
	return info, nil
}

// addrIndex is resources by address: byAddr sorted by address, starts
// their start addresses, maxEnd the furthest end of each prefix. The
// device keeps one of its resources; a translation request's residents
// make one of theirs (Reference), so both join cache ranges by one rule.
type addrIndex struct {
	byAddr []*Resource
	starts []uint64
	maxEnd []uint64
	// gen counts the changes, so a reader can tell the index it read
	// without the lock is the one it last read (CommandList.residents).
	gen atomic.Uint64
}

// indexAdd and indexRemove keep the resources' address index (rmu held
// for writing): sorted by address, their start addresses beside them (a
// search reads those alone), with the furthest end of each prefix, so that
// joining a call's cache ranges (spans.each) is a search. Creation and
// destruction pay for it (a shift and the prefix ends from the change on),
// not the barriers that ask.
func (d *addrIndex) indexAdd(r *Resource) {
	i, _ := slices.BinarySearchFunc(d.byAddr, r.Addr, byAddr)
	d.byAddr = slices.Insert(d.byAddr, i, r)
	d.starts = slices.Insert(d.starts, i, r.Addr)
	d.maxEnd = slices.Insert(d.maxEnd, i, 0)
	d.indexEnds(i)
	d.gen.Add(1)
}

func (d *addrIndex) indexRemove(r *Resource) {
	if i := slices.Index(d.byAddr, r); i >= 0 {
		d.byAddr = slices.Delete(d.byAddr, i, i+1)
		d.starts = slices.Delete(d.starts, i, i+1)
		d.maxEnd = slices.Delete(d.maxEnd, i, i+1)
		d.indexEnds(i)
		d.gen.Add(1)
	}
}

// indexEnds recomputes the prefix ends from i on.
func (d *addrIndex) indexEnds(i int) {
	end := uint64(0)
	if i > 0 {
		end = d.maxEnd[i-1]
	}
	for ; i < len(d.byAddr); i++ {
		r := d.byAddr[i]
		end = max(end, r.Addr+r.DataSize+r.MetaSize)
		d.maxEnd[i] = end
	}
}

func byAddr(r *Resource, a uint64) int { return cmp.Compare(r.Addr, a) }

// aliasedMetadata adds to s the metadata of every surface whose metadata
// another resource's memory may overlap: one that starts before it and
// reaches past the metadata's start, or one that starts after the surface
// and before the metadata's end (the index keeps resources by address,
// with each prefix's furthest end).
func (d *Device) aliasedMetadata(s *spans) { m := d.memory(); m.aliasedMetadata(s) }

// memory is the device's resources as translation sees them.
func (d *Device) memory() memory { return memory{ix: &d.addrIndex, mu: &d.rmu} }

func (d *addrIndex) aliasedMetadata(s *spans) {
	for i, r := range d.byAddr {
		if r.MetaSize == 0 {
			continue
		}
		lo, hi := r.Addr+r.DataSize, r.Addr+r.DataSize+r.MetaSize
		if i > 0 && d.maxEnd[i-1] > lo || i+1 < len(d.byAddr) && d.byAddr[i+1].Addr < hi {
			s.add(lo, hi)
		}
	}
}

// reachesInto reports whether a resource that starts before the end (hi)
// of a cache range [lo, hi), one of those before index i, reaches past it
// with bytes of a resource other than one whose data the range covers (a
// texture's metadata follows its data: it is the same resource's). The
// caller holds rmu for reading; the furthest end of each prefix of the
// index says where to stop looking.
func (d *addrIndex) reachesInto(lo, hi uint64, i int) bool {
	for k := i - 1; k >= 0 && d.maxEnd[k] > hi; k-- {
		r := d.byAddr[k]
		named := lo < r.Addr+r.DataSize
		if r.Addr+r.DataSize+r.MetaSize > hi && !named {
			return true
		}
	}
	return false
}

// firstAtOrAfter is the index of the first resource that starts at or
// after a, given that those before index from start below it.
func (d *addrIndex) firstAtOrAfter(a uint64, from int) int {
	i, _ := slices.BinarySearch(d.starts[from:], a)
	return from + i
}
