package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/resource"
)

// Random programs, correct by construction (suite "random"). A program is
// resources, queues, lists of work and submissions drawn from a seed; the
// barriers are derived from the program's own access history the way an
// expert writes enhanced barriers: per subresource (texture) or 2 KiB
// segment (buffer), its layout and the accesses since its last write, each
// with what barriers since ordered it before and made it visible to; a new
// access that conflicts with them (a write on either side not yet ordered
// before it, a layout change) gets a barrier whose before-scope is exactly
// the conflicting accesses and whose after-scope is the new one. Everything a hand-written
// suite holds fixed varies with the seed: how barriers group into calls,
// split begins placed right after the producer (in an earlier list of the
// submission, too), global barriers in place of resource ones, subresource
// shapes, releases to COMMON with SyncAfter NONE and the SyncBefore NONE
// that follows, UNDEFINED (with and without DISCARD) before work that
// overwrites, the 0088 entry point, extended-async lists, queues of every
// type with fences between them, committed resources or resources placed
// side by side in one heap (whose render targets and depth buffers begin
// with a DISCARD), two of them sometimes on one memory with aliasing
// barriers switching between them; textures with mips, slices, planes,
// depth slices and samples, and video frames. Each program runs under the
// debug layer and must end with the reference bytes and no hazard.
//
// The negative form of a program drops one barrier (or split pair) the
// generator can prove the judge must see: the accesses it orders are
// asynchronous work (not the synchronous copies of a list without
// ALLOW_EXTENDED_ASYNC, which E-SYNC-COPY orders already) whose writes
// change bytes, no other barrier call, synchronous copy or atomic copy
// (whose ranged barriers wait and flush) runs between the first of them
// and the barrier, nor is the barrier an atomic copy's, so nothing else
// waits or flushes for it,
// and dropping it leaves a valid program (barrierLine.asyncOnly, validDrops).
// It expects `detected`: a hazard or wrong bytes.

// segSize is a buffer unit: an 8x8 four-byte texel footprint (256-byte
// row pitch) fits in one.
const (
	segSize  = 2048
	segCount = 4
	// upSegs are the upload buffer's segments, each filled with its own
	// byte: copies from it write data that differs from what was there.
	upSegs = 16
)

// declared is a resource of a program.
type declared struct {
	name  string
	kind  string // buffer, as (acceleration structure), color, vol (3D colour), video (NV12), depth, ms
	decl  string
	r     *resource.Resource
	units []*unit
	// mips and slices of a texture: a unit's index is mip + mips ×
	// (slice + slices × plane), D3D12's subresource order.
	mips, slices int
	// mustInit: a placed render target or depth buffer, whose contents
	// and compression metadata are undefined until it is initialised:
	// its first use is a clear after a barrier from UNDEFINED with DISCARD
	// (000 "Placed Resource Metadata Initialization").
	mustInit bool
	// alias is the resource placed on the same memory, if any; of the two,
	// the inactive one may not be used until a barrier call activates it
	// (switchAlias).
	alias    *declared
	inactive bool
}

// isBuffer reports whether the resource is a buffer (an acceleration
// structure is one too): no layout, 2 KiB segments.
func (x *declared) isBuffer() bool { return x.kind == "buffer" || x.kind == "as" }

// unit is a subresource of a texture or a segment of a buffer.
type unit struct {
	res     *declared
	index   int
	layout  ddi.BarrierLayout
	pending []usage // since the last barrier that covered it, in this submission
	// after is the SyncAfter of its last barrier in this submission: the
	// next barrier's SyncBefore contains it (000 "Sequential Barriers").
	after ddi.BarrierSync
	// released: a barrier with SyncAfter NONE ended its use in this
	// submission (000 "D3D12_BARRIER_SYNC_NONE").
	released bool
	last     *statement // the last access, in this submission
	barSeq   int        // the seq of the last barrier on it
	// ver names its content: a write that leaves it the same (a copy of
	// what it holds already) changes no byte, and the judge, which
	// compares bytes, cannot see it race. next is what the op being
	// recorded writes into it.
	ver, next uint64
}

// usage is one use of a unit.
type usage struct {
	sync   ddi.BarrierSync
	access ddi.BarrierAccess
	write  bool
	// syncOp: a copy, resolve or discard in a list without
	// ALLOW_EXTENDED_ASYNC, ordered by the driver's implicit wait.
	syncOp bool
	cmd    *statement // where it was recorded
	same   bool       // a write that left the content as it was
	// ordered and visible are what barriers since have done for it: the
	// stages now ordered after it and (a write) the accesses that see it.
	ordered ddi.BarrierSync
	visible ddi.BarrierAccess
}

// statement is one statement of a list: work, or a barrier call.
type statement struct {
	lines []string
	seq   int // program order: work and calls even, split begins odd
	drop  int // the drop group of a barrier call (0: none)
	list  *listDecl
	bars  []*declared // a barrier call: the resources its barriers are on
}

type listDecl struct {
	name  string
	qtype ddi.CommandListType
	async bool
	cmds  []*statement
}

// generator is one program being generated.
type generator struct {
	rng     *rand.Rand
	res     []*declared
	lists   []*listDecl
	steps   []string // top-level statements after the declarations, lists by name as "@L"
	queues  map[ddi.CommandListType]string
	seq     int
	lastBar int // seq of the last barrier call (split begins included)
	value   int // distinct clear values
	// drops are the barrier calls a negative form may leave out, by group.
	drops []int
	group int
	list  *listDecl
	heap  string // the heap declaration when the resources are placed, "" when committed
	// keepAll: none of the barriers being derived may be dropped (they
	// are for an atomic copy, or an acceleration-structure build or copy).
	keepAll bool
	// shapeOf is the texture shape (unitShape) whose rows each content
	// name holds (rowsOf); buffer contents are not in it.
	shapeOf map[uint64]string
}

// placeAll places the resources in one default heap, each at the next
// offset its placement alignment allows, packed as tightly as D3D12 lets
// them be: neighbours in memory, which is where a cache operation sized
// to one resource's bytes can reach another's. A multisampled texture
// stays committed: its 4 MiB alignment needs a heap aligned so, which
// the language's heaps (64 KiB) are not.
func (g *generator) placeAll(pr *rand.Rand) {
	var off, prevOff uint64
	var prev *declared
	for _, x := range g.res {
		if x.kind == "ms" {
			continue
		}
		x.mustInit = x.r.Desc.Flags&(ddi.ResourceFlagRenderTarget|ddi.ResourceFlagDepthStencil) != 0
		// Half the time, one resource shares the memory of the one placed
		// before it: the two alias, and barriers switch between them.
		if prev != nil && g.aliased() == nil && prevOff%x.r.Alignment == 0 && x.kind != "as" && prev.kind != "as" && pr.IntN(2) == 0 {
			x.alias, prev.alias, x.inactive = prev, x, true
			x.decl += fmt.Sprintf(" at H 0x%x", prevOff)
			off = max(off, prevOff+x.r.Size)
			continue
		}
		off = (off + x.r.Alignment - 1) &^ (x.r.Alignment - 1)
		x.decl += fmt.Sprintf(" at H 0x%x", off)
		prev, prevOff = x, off
		off += x.r.Size
	}
	if off > 0 { // not when every resource is multisampled
		g.heap = fmt.Sprintf("heap H default 0x%x", off)
	}
}

// slot is one resource an operation uses.
type slot struct {
	kinds  string // the resource kinds it accepts, space-separated
	access ddi.BarrierAccess
	sync   ddi.BarrierSync
	write  bool
	full   bool   // overwrites every byte of what it uses
	view   string // whole, sub (a subresource or segment), any
}

// operation is one kind of work.
type operation struct {
	queues string // D, C, P: the queue types it runs on
	syncOp bool   // a copy or resolve: synchronous without ALLOW_EXTENDED_ASYNC
	slots  []slot
	text   func(v []slotView, n int) string
}

// slotView is what an operation's slot got: a resource and the part used.
type slotView struct {
	res   *declared
	units []*unit
	sub   int // the subresource or segment, -1 for all
}

func (v slotView) String() string {
	switch {
	case v.sub < 0:
		return v.res.name
	case v.res.isBuffer():
		return fmt.Sprintf("%s[%d+%d]", v.res.name, v.sub*segSize, segSize)
	}
	return fmt.Sprintf("%s@%d", v.res.name, v.sub)
}

func (v slotView) off() int { return max(v.sub, 0) * segSize }

// use is a slot of kinds in which command cmd uses the resource in role
// (scenario.Uses): the sync, access and write it needs come from the one
// table of what commands do to their views; a depth kind takes the use's
// depth form.
func use(kinds, cmd, role, view string) slot {
	u := useOf(cmd, role).On(kinds == "depth")
	return slot{kinds: kinds, access: u.Access, sync: u.Sync, write: u.Writes(), view: view}
}

func full(s slot) slot { s.full = true; return s }

func fixed(f string) func(v []slotView, n int) string {
	return func(v []slotView, n int) string {
		args := make([]any, len(v))
		for i := range v {
			args[i] = v[i]
		}
		return fmt.Sprintf(f, args...)
	}
}

// operations are the operations, with the sync and access each use needs (the
// rows of writeread.go's tables, which the write-read suite checks one
// pair at a time).
var operations = []operation{
	{"DC", false, []slot{use("buffer color vol", "dispatch", "uav", "any")}, fixed("dispatch uav %s")},
	{"DC", false, []slot{use("buffer color vol depth", "dispatch", "srv", "any"), use("buffer", "dispatch", "uav", "any")},
		fixed("dispatch srv %s uav %s")},
	{"DC", false, []slot{use("buffer", "dispatch", "cbv", "sub"), use("buffer color vol", "dispatch", "uav", "any")},
		fixed("dispatch cbv %s uav %s")},
	{"DC", false, []slot{use("buffer", "dispatch", "args", "sub"), use("buffer", "dispatch", "uav", "any")},
		fixed("dispatch args %s uav %s")},
	// The command processor reads a predicate at issue, like indirect
	// arguments.
	{"DC", false, []slot{use("buffer", "predication", "0", "sub")},
		func(v []slotView, n int) string {
			return fmt.Sprintf("predication %s %d", v[0].res.name, v[0].off()+n%(segSize/8)*8)
		}},
	{"DC", false, []slot{full(use("buffer", "clear-uav", "0", "any"))},
		func(v []slotView, n int) string { return fmt.Sprintf("clear-uav %s %d", v[0], n) }},
	{"D", false, []slot{use("color ms", "draw", "rt", "any")}, fixed("draw rt %s")},
	{"D", false, []slot{full(use("color ms", "clear-rt", "0", "any"))},
		func(v []slotView, n int) string { return fmt.Sprintf("clear-rt %s 0x%08x", v[0], 0x10203040+n) }},
	{"D", false, []slot{use("buffer color vol depth", "draw", "ps-srv", "any"), use("color", "draw", "rt", "any")},
		fixed("draw ps-srv %s rt %s")},
	{"D", false, []slot{use("buffer color", "draw", "vs-srv", "any"), use("color", "draw", "rt", "any")},
		fixed("draw vs-srv %s rt %s")},
	{"D", false, []slot{use("buffer", "draw", "ps-uav", "any")}, fixed("draw ps-uav %s")},
	{"D", false, []slot{use("buffer", "draw", "so", "any")}, fixed("draw so %s")},
	{"D", false, []slot{use("color", "draw", "shading-rate", "any"), use("color", "draw", "rt", "any")},
		fixed("draw shading-rate %s rt %s")},
	{"D", false, []slot{use("buffer", "draw", "vb", "sub"), use("color", "draw", "rt", "any")},
		fixed("draw vb %s rt %s")},
	{"D", false, []slot{use("buffer", "draw", "ib", "sub"), use("color", "draw", "rt", "any")},
		fixed("draw ib %s rt %s")},
	{"D", false, []slot{use("buffer", "draw", "ps-cbv", "sub"), use("color", "draw", "rt", "any")},
		fixed("draw ps-cbv %s rt %s")},
	{"D", false, []slot{use("buffer", "draw", "args", "sub"), use("color", "draw", "rt", "any")},
		fixed("draw args %s rt %s")},
	{"D", false, []slot{full(use("depth", "clear-ds", "0", "any"))},
		func(v []slotView, n int) string { return fmt.Sprintf("clear-ds %s 0x%08x", v[0], 0x3f000000+n) }},
	{"D", false, []slot{use("depth", "draw", "ds-write", "any")}, fixed("draw ds-write %s")},
	{"D", false, []slot{use("depth", "draw", "ds", "any"), use("color", "draw", "rt", "any")},
		fixed("draw ds %s rt %s")},
	{"DCP", true, []slot{full(use("buffer", "copy-buffer", "0", "sub")), use("buffer", "copy-buffer", "2", "sub")},
		func(v []slotView, n int) string {
			return fmt.Sprintf("copy-buffer %s %d %s %d %d", v[0].res.name, v[0].off(), v[1].res.name, v[1].off(), segSize)
		}},
	{"DCP", true, []slot{full(use("buffer", "copy-buffer", "0", "sub"))},
		func(v []slotView, n int) string {
			return fmt.Sprintf("copy-buffer %s %d UP %d %d", v[0].res.name, v[0].off(), n%upSegs*segSize, segSize)
		}},
	{"DCP", true, []slot{full(use("color vol video", "copy-buffer-to-texture", "0", "sub")), use("buffer", "copy-buffer-to-texture", "1", "sub")},
		func(v []slotView, n int) string {
			return fmt.Sprintf("copy-buffer-to-texture %s %s %d", v[0], v[1].res.name, v[1].off())
		}},
	{"DCP", true, []slot{full(use("color vol video", "copy-buffer-to-texture", "0", "sub"))},
		func(v []slotView, n int) string {
			return fmt.Sprintf("copy-buffer-to-texture %s UP %d", v[0], n%upSegs*segSize)
		}},
	{"DCP", true, []slot{full(use("buffer", "copy-texture-to-buffer", "0", "sub")), use("color vol video", "copy-texture-to-buffer", "2", "sub")},
		func(v []slotView, n int) string {
			return fmt.Sprintf("copy-texture-to-buffer %s %d %s", v[0].res.name, v[0].off(), v[1])
		}},
	{"D", true, []slot{full(use("color", "resolve", "0", "sub")), use("ms", "resolve", "1", "sub")},
		fixed("resolve %s %s")},
	// Video work, each on its own queue type: a decode from a bitstream
	// segment, processing from one frame into another, an encode into a
	// segment.
	{"V", false, []slot{full(use("video", "decode", "out", "whole")),
		use("buffer", "decode", "in", "sub")}, fixed("decode in %[2]s out %[1]s")},
	{"R", false, []slot{full(use("video", "process", "out", "whole")),
		use("video", "process", "in", "whole")}, fixed("process in %[2]s out %[1]s")},
	{"E", false, []slot{full(use("buffer", "encode", "out", "sub")),
		use("video", "encode", "in", "whole")}, fixed("encode in %[2]s out %[1]s")},
	// Ray tracing: a build from geometry with its scratch buffer, a copy
	// of a structure, rays traced through one, and its postbuild info.
	{"DC", false, []slot{full(use("as", "build-as", "0", "sub")),
		use("buffer", "build-as", "inputs", "sub"),
		use("buffer", "build-as", "scratch", "sub")},
		fixed("build-as %s inputs %s scratch %s")},
	{"DC", false, []slot{full(use("as", "copy-as", "0", "sub")),
		use("as", "copy-as", "1", "sub")},
		fixed("copy-as %s %s")},
	{"DC", false, []slot{use("as", "dispatch-rays", "as", "any"),
		use("buffer", "dispatch-rays", "uav", "any")}, fixed("dispatch-rays as %s uav %s")},
	{"DC", false, []slot{full(use("buffer", "postbuild-info", "0", "sub")),
		use("as", "postbuild-info", "1", "sub")},
		fixed("postbuild-info %s %s")},
	// Discards: writes of an undefined pattern, synchronous like copies
	// (errata E-SYNC-COPY) unless the list is ALLOW_EXTENDED_ASYNC.
	{"D", true, []slot{full(use("color", "discard", "0", "any"))}, fixed("discard %s")},
	{"D", true, []slot{full(use("depth", "discard", "0", "any"))}, fixed("discard %s")},
	// An atomic copy of 4 or 8 bytes at one offset of two segments, with
	// the ranged barriers the runtime records around it (isAtomicCopy).
	{"DCP", false, []slot{use("buffer", "atomic-copy", "0", "sub"), use("buffer", "atomic-copy", "2", "sub")},
		func(v []slotView, n int) string {
			at := n % (segSize / 8) * 8
			wide := []string{"", " 64"}[n%2]
			return fmt.Sprintf("atomic-copy %s %d %s %d%s", v[0].res.name, v[0].off()+at, v[1].res.name, v[1].off()+at, wide)
		}},
}

// atomicCopy is the atomic copy's index in operations.
var atomicCopy = opIndex("atomic-copy")

// isAtomicCopy reports whether an op is the atomic copy: its ranged
// barriers are barrier calls of its own, which make what it reads and
// writes visible, and it changes a few bytes of a segment, not all.
func (op *operation) isAtomicCopy() bool { return op == &operations[atomicCopy] }

// isDiscard reports whether an op is a discard, which writes bytes of its
// own (an undefined pattern) though it is synchronous like a copy.
func (op *operation) isDiscard() bool { return discardOps[op] }

var discardOps = func() map[*operation]bool {
	m := map[*operation]bool{}
	v := []slotView{{res: &declared{name: "X", kind: "color"}, sub: -1}}
	for i := range operations {
		if op := &operations[i]; len(op.slots) == 1 && op.syncOp && strings.HasPrefix(op.text(v, 0), "discard ") {
			m[op] = true
		}
	}
	return m
}()

// queueLetters are the letters of operation.queues, by list type.
var queueLetters = map[ddi.CommandListType]string{direct: "D", compute: "C", copyQ: "P", vDecode: "V", vProc: "R", vEncode: "E"}

// queueNames are the programs' queues, in the order they are declared.
var queueNames = []queueName{{direct, "QD"}, {compute, "QC"}, {copyQ, "QP"}, {vDecode, "QV"}, {vProc, "QR"}, {vEncode, "QE"}}

type queueName struct {
	t    ddi.CommandListType
	name string
}

// newResource declares a resource of a random kind: a buffer, a colour
// texture (its mips, slices and flags vary), a 3D texture, a video frame,
// a depth texture (with or without stencil) or a multisampled one, in a
// random initial layout.
func (g *generator) newResource(name string) *declared {
	x := &declared{name: name}
	switch k := g.rng.IntN(10); {
	case k < 3 || k == 3 && g.rng.IntN(2) == 0:
		x.kind = "buffer"
		x.decl = fmt.Sprintf("buffer %s %d flags UNORDERED_ACCESS", name, segSize*segCount)
	case k < 4:
		// Acceleration structures: a buffer only builds, copies, ray
		// tracing and postbuild queries use, in segments like a buffer's.
		x.kind = "as"
		x.decl = fmt.Sprintf("buffer %s %d flags RAYTRACING_ACCELERATION_STRUCTURE", name, segSize*segCount)
	case k < 6:
		x.kind = "color"
		flags := []string{"RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE", "RENDER_TARGET|SHADER_RESOURCE", "UNORDERED_ACCESS|SHADER_RESOURCE",
			"RENDER_TARGET|UNORDERED_ACCESS"}[g.rng.IntN(4)]
		x.decl = fmt.Sprintf("texture %s 8x8 mips %d array %d flags %s", name, 1+g.rng.IntN(2), 1+g.rng.IntN(2), flags)
	case k < 7:
		// Video frames: NV12, whose two planes are its subresources
		// (luma 8 rows, chroma 4, at a 256-byte pitch: each fits a
		// buffer segment).
		x.kind = "video"
		x.decl = fmt.Sprintf("texture %s 8x8 format NV12", name)
	case k < 8:
		// A 3D texture: its subresources are its mips, each holding
		// every depth slice (4x4x2 four-byte texels: its footprint fills
		// one buffer segment). No render target: only views of slices
		// could bind one.
		x.kind = "vol"
		x.decl = fmt.Sprintf("texture %s 4x4x2 mips %d flags UNORDERED_ACCESS|SHADER_RESOURCE", name, 1+g.rng.IntN(2))
	case k < 9:
		// A depth buffer, with a stencil plane half the time: its
		// subresources are then slices × planes.
		x.kind = "depth"
		format := []string{"D32_FLOAT", "D32_FLOAT_S8X24_UINT"}[g.rng.IntN(2)]
		x.decl = fmt.Sprintf("texture %s 8x8 format %s array %d flags DEPTH_STENCIL|SHADER_RESOURCE", name, format, 1+g.rng.IntN(2))
	default:
		x.kind = "ms"
		x.decl = fmt.Sprintf("texture %s 8x8 samples 4 flags RENDER_TARGET|SHADER_RESOURCE", name)
	}
	cases, err := scenario.Parse("random", x.decl, nil)
	if err != nil {
		panic(err) // the declarations above are this file's constants
	}
	st := cases[0].Steps[0].(*scenario.ResourceStep)
	if x.r, err = resource.New(resource.DescFromCreateResource(&st.Desc)); err != nil {
		panic(err)
	}
	n := segCount
	if !x.isBuffer() {
		n = int(x.r.SubresourceCount())
		x.mips, x.slices = int(x.r.MipLevels), int(x.r.ArraySize)
	}
	// An initial layout the texture may have: one its first use may
	// transition from on the direct queue.
	init := ddi.LayoutUndefined
	if !x.isBuffer() {
		ls := []ddi.BarrierLayout{ddi.LayoutCommon}
		for _, l := range []ddi.BarrierLayout{ddi.LayoutRenderTarget, ddi.LayoutDepthStencilWrite, ddi.LayoutUnorderedAccess, ddi.LayoutShaderResource, ddi.LayoutCopyDest} {
			if x.r.CheckInitialLayout(l) == nil {
				ls = append(ls, l)
			}
		}
		init = ls[g.rng.IntN(len(ls))]
		if x.kind == "video" {
			init = ddi.LayoutCommon // where the video queues can take it from
		}
		x.decl += " layout " + init.String()
	}
	for i := range n {
		x.units = append(x.units, &unit{res: x, index: i, layout: init})
	}
	return x
}

// layoutsFor lists the layouts a texture may be in for an access on a queue
// type: allowed there, compatible with the access, allowed for the
// resource.
func layoutsFor(x *declared, a ddi.BarrierAccess, q ddi.CommandListType) []ddi.BarrierLayout {
	rules, _ := ddi.QueueRulesFor(q)
	var out []ddi.BarrierLayout
	for _, l := range rules.Layouts {
		if l == ddi.LayoutUndefined || x.r.CheckLayout("", l) != nil {
			continue
		}
		if c, ok := ddi.CompatibleAccesses(l); ok && c&a == a && ddi.TextureLayoutAccessOK(l, l, a, false) {
			out = append(out, l)
		}
	}
	return out
}

func allowsLayout(q ddi.CommandListType, l ddi.BarrierLayout) bool {
	rules, _ := ddi.QueueRulesFor(q)
	return rules.AllowsLayout(l)
}

// RandomProgram is a generated program: the positive form and, when it has
// a barrier to drop, the negative one.
type RandomProgram struct {
	Seed     uint64
	Positive string
	Negative string // "" when no barrier can be proven needed
}

// GenerateRandom writes the program of a seed.
func GenerateRandom(seed uint64) RandomProgram {
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x6562726566)), queues: map[ddi.CommandListType]string{}, shapeOf: map[uint64]string{}}
	nres := 2 + g.rng.IntN(4)
	for i := range nres {
		g.res = append(g.res, g.newResource(fmt.Sprintf("R%d", i)))
	}
	// A third of the programs place their resources in one heap. The
	// choice has a stream of its own, so that it leaves the rest of the
	// program as the seed gives it.
	if pr := rand.New(rand.NewPCG(seed, 0x706c616365)); pr.IntN(3) == 0 {
		g.placeAll(pr)
	}
	g.queues[direct] = "QD"
	types := []ddi.CommandListType{direct, direct, compute, copyQ, vDecode}
	prevQ, fence := ddi.CommandListType(0), 0
	qs := make([]ddi.CommandListType, 1+g.rng.IntN(3))
	for s := range qs {
		q := types[g.rng.IntN(len(types))]
		if q == vDecode { // one of the three video queues
			q = []ddi.CommandListType{vDecode, vProc, vEncode}[g.rng.IntN(3)]
		}
		if s == 0 {
			q = direct
		}
		qs[s] = q
	}
	for s, q := range qs {
		if g.queues[q] == "" {
			g.queues[q] = queueNames[slices.IndexFunc(queueNames, func(n queueName) bool { return n.t == q })].name
		}
		var names []string
		if s == 0 {
			names = append(names, g.initList())
		}
		for l, nl := 0, 1+g.rng.IntN(2); l < nl; l++ {
			names = append(names, g.genList(q))
		}
		if s+1 < len(qs) {
			g.handOff(q, qs[s+1])
		}
		if s > 0 && q != prevQ {
			fence++
			g.steps = append(g.steps, fmt.Sprintf("signal %s F %d", g.queues[prevQ], fence), fmt.Sprintf("wait %s F %d", g.queues[q], fence))
		}
		g.steps = append(g.steps, "execute "+g.queues[q]+" "+strings.Join(names, " "))
		// The end of ExecuteCommandLists finishes and flushes everything.
		for _, x := range g.res {
			for _, u := range x.units {
				u.pending, u.after, u.released, u.last = nil, 0, false, nil
			}
		}
		prevQ = q
	}
	p := RandomProgram{Seed: seed, Positive: g.text(seed, 0)}
	if drops := g.validDrops(); len(drops) > 0 {
		p.Negative = g.text(seed, drops[g.rng.IntN(len(drops))])
	}
	return p
}

func (g *generator) genList(q ddi.CommandListType) string {
	l := &listDecl{name: fmt.Sprintf("L%d", len(g.lists)+1), qtype: q, async: g.rng.IntN(4) == 0}
	g.lists = append(g.lists, l)
	g.steps = append(g.steps, "@"+l.name)
	g.list = l
	for i, n := 0, 1+g.rng.IntN(6); i < n; i++ {
		if q == direct && g.aliased() != nil && g.rng.IntN(5) == 0 {
			g.switchAlias()
		}
		g.genOp(q)
	}
	if g.rng.IntN(5) == 0 {
		g.release(q)
	}
	return l.name
}

// eligible reports whether an op on queue q may use a unit: a texture's
// layout must be one q can transition from.
func eligible(u *unit, q ddi.CommandListType) bool {
	return !u.released && !u.res.inactive && (u.res.isBuffer() || allowsLayout(q, u.layout))
}

// genOp records one operation, with the barriers it needs first.
func (g *generator) genOp(q ddi.CommandListType) {
	var ops []*operation
	for i := range operations {
		if strings.Contains(operations[i].queues, queueLetters[q]) {
			ops = append(ops, &operations[i])
		}
	}
	for try := 0; try < 8; try++ {
		op := ops[g.rng.IntN(len(ops))]
		views, layouts, ok := g.pick(op, q)
		if !ok {
			continue
		}
		g.record(op, q, views, layouts)
		return
	}
}

// record writes an op with the barriers it needs first, and notes its
// accesses.
func (g *generator) record(op *operation, q ddi.CommandListType, views []slotView, layouts []ddi.BarrierLayout) {
	{
		g.value++
		g.contents(op, views)
		// The ranged ACQUIRE the runtime puts before an atomic copy waits
		// for and makes visible what the copy uses: the barriers before it
		// are not provably needed.
		// Builds and copies of acceleration structures run one after
		// another in one stage of every profile, on a client that writes
		// to the shared cache: the judge sees no race between two of them,
		// so the barriers before one are not provably needed either.
		g.keepAll = op.isAtomicCopy() || op.slots[0].sync&(ddi.SyncBuildRaytracingAccelerationStructure|ddi.SyncCopyRaytracingAccelerationStructure) != 0
		g.barriersFor(op, q, views, layouts)
		g.keepAll = false
		syncOp := op.syncOp && !g.list.async
		c := g.add(op.text(views, g.value))
		if syncOp || op.isAtomicCopy() {
			// Its implicit wait drains its stage, earlier work there
			// included (or its ranged barriers flush and invalidate what
			// it copies): drops before it are not provably needed.
			g.lastBar = c.seq
		}
		for i, v := range views {
			s := op.slots[i]
			for _, u := range v.units {
				a := usage{sync: s.sync, access: s.access, write: s.write, syncOp: syncOp, cmd: c}
				// A write is ordered after everything pending (its barrier
				// saw to that): it alone stays.
				if s.write {
					u.pending = u.pending[:0]
					a.same = u.next == u.ver
					u.ver = u.next
				}
				u.pending = append(u.pending, a)
				u.last = c
			}
		}
	}
}

// contents notes what an op writes into each unit it writes (unit.next):
// a copy or resolve writes what its source holds (a buffer copy the very
// bytes, the others a function of them), any other work bytes of its own.
func (g *generator) contents(op *operation, views []slotView) {
	for i, v := range views {
		if !op.slots[i].write {
			continue
		}
		for _, u := range v.units {
			switch {
			case op.isAtomicCopy(): // a few bytes of the source, the rest as it was
				if src := views[1].units[0]; src.ver != u.ver {
					u.next = u.ver*1000003 + src.ver + 1<<60
				} else {
					u.next = u.ver
				}
			case !op.syncOp || op.isDiscard(): // draws, dispatches, clears, discards: bytes of their own
				u.next = uint64(g.value) << 8
			case len(views) == 1: // from the upload buffer's segment
				u.next = g.rowsOf(unitShape(u), 1<<62|uint64(g.value%upSegs))
			case views[1].res.kind == "ms": // a resolve: another function of the samples
				u.next = views[1].units[0].ver*31 + 1
			case v.res.isBuffer() && !views[1].res.isBuffer():
				// A texture's rows into a segment: if they are the rows
				// the segment holds already, not a byte changes.
				src := views[1].units[0]
				u.next = src.ver
				if g.rowsOf(unitShape(src), u.ver) == src.ver {
					u.next = u.ver
				}
			default: // a copy between buffers, or into a texture
				u.next = g.rowsOf(unitShape(u), views[1].units[0].ver)
			}
			if !v.res.isBuffer() {
				g.shapeOf[u.next] = unitShape(u)
			}
		}
	}
}

// rowsOf names what a footprint copy from content ver leaves in a unit of
// a shape (unitShape): the rows of that shape out of it. Content already
// of the shape (a texture's, or a buffer's copy of one) arrives
// unchanged, so a round trip through a buffer names the bytes it started
// with; buffers take content as it is. A buffer that receives a
// texture's rows is named by them alone: the padding between rows is not
// modelled, so two names may be equal where the bytes differ, never the
// other way, which only keeps a barrier from being dropped.
func (g *generator) rowsOf(shape string, ver uint64) uint64 {
	if shape == "buffer" || shape == "as" || g.shapeOf[ver] == shape {
		return ver
	}
	h := uint64(1)
	for _, c := range shape {
		h = h*131 + uint64(c)
	}
	return ver*31 + h
}

// unitShape names the rows a footprint copy moves for a unit: its
// resource kind, and for a video frame its plane (luma and chroma have
// other shapes).
func unitShape(u *unit) string {
	if u.res.kind == "video" {
		return fmt.Sprintf("video/%d", u.index)
	}
	return u.res.kind
}

// initList starts the program by writing every subresource and segment
// with data of its own, so that whatever a later copy or read misses
// differs from what it gets: the judge compares bytes, and zeros copied
// over zeros would hide a race.
func (g *generator) initList() string {
	l := &listDecl{name: fmt.Sprintf("L%d", len(g.lists)+1), qtype: direct}
	g.lists = append(g.lists, l)
	g.steps = append(g.steps, "@"+l.name)
	g.list = l
	for _, x := range g.res {
		// An acceleration structure holds the memory's pattern until a
		// build writes it, which needs geometry and scratch buffers.
		if x.inactive || x.kind == "as" {
			continue
		}
		op := g.initOp(x)
		for i, u := range x.units {
			v := slotView{res: x, sub: i, units: []*unit{u}}
			ls := layoutsFor(x, op.slots[0].access, direct)
			l := ddi.LayoutUndefined
			if !x.isBuffer() {
				l = ls[g.rng.IntN(len(ls))]
				if slices.Contains(ls, u.layout) {
					l = u.layout
				}
			}
			g.record(op, direct, []slotView{v}, []ddi.BarrierLayout{l})
		}
	}
	return l.name
}

// initOp is the op that initialises a resource's units: a clear for a
// render target that must be (and for others half the time), else
// initOps.
func (g *generator) initOp(x *declared) *operation {
	if x.kind == "color" && x.r.Desc.Flags&ddi.ResourceFlagRenderTarget != 0 && (g.rng.IntN(2) == 0 || x.mustInit) {
		return &operations[initOps["ms"]]
	}
	return &operations[initOps[x.kind]]
}

// aliased is the resource of the alias pair that is in use, or nil.
func (g *generator) aliased() *declared {
	for _, x := range g.res {
		if x.alias != nil && !x.inactive {
			return x
		}
	}
	return nil
}

// switchAlias deactivates the resource of the alias pair in use and
// activates the other, in one barrier call on a direct list (000
// "Resource Aliasing"): the one in use waits for its accesses with
// SyncAfter NONE and AccessAfter NO_ACCESS, in the layouts it has; the
// other goes from UNDEFINED (with DISCARD where that initialises
// compression metadata) with SyncBefore NONE, which the call's other
// barrier makes safe, to what its initialising op needs, and that op
// then writes every unit of it. Nothing may be dropped here.
func (g *generator) switchAlias() {
	old := g.aliased()
	nu := old.alias
	for _, u := range append(slices.Clone(old.units), nu.units...) {
		if u.released || !u.res.isBuffer() && u.res == old && !allowsLayout(direct, u.layout) {
			return
		}
	}
	bs := g.endings(old, old.units, func(l ddi.BarrierLayout) ddi.BarrierLayout { return l })
	op := g.initOp(nu)
	s := op.slots[0]
	act := &barrierLine{res: nu, units: nu.units, syncA: s.sync, accA: s.access, accB: ddi.AccessNoAccess,
		layB: ddi.LayoutUndefined, layA: ddi.LayoutUndefined, write: true}
	if !nu.isBuffer() {
		ls := layoutsFor(nu, s.access, direct)
		act.layA = ls[g.rng.IntN(len(ls))]
		act.discard = act.layA == ddi.LayoutRenderTarget || act.layA == ddi.LayoutDepthStencilWrite
	}
	lines := []string{"  call"}
	for _, b := range append(bs, act) {
		lines = append(lines, "    "+g.body(b, b.syncB, b.syncA))
	}
	c := g.add(append(lines, "  end")...)
	c.bars = []*declared{old, nu}
	// Nothing may use the old one again in this submission, not even to
	// activate it.
	for _, b := range bs {
		g.ended(b)
	}
	old.inactive, nu.inactive = true, false
	g.value++
	for _, u := range nu.units {
		// Its bytes are the other's until the op below writes them.
		u.layout, u.pending, u.after, u.last, u.ver = act.layA, nil, act.syncA, c, 1<<58|uint64(g.value)
		if !nu.isBuffer() {
			g.shapeOf[u.ver] = unitShape(u)
		}
	}
	for i, u := range nu.units {
		g.record(op, direct, []slotView{{res: nu, sub: i, units: []*unit{u}}}, []ddi.BarrierLayout{act.layA})
	}
}

// initOps are the ops that write a whole unit of each kind of resource
// from nothing: indexes into operations.
var initOps = map[string]int{"buffer": opIndex("copy-buffer %s %d UP"), "color": opIndex("copy-buffer-to-texture %s UP"),
	"vol": opIndex("copy-buffer-to-texture %s UP"), "video": opIndex("copy-buffer-to-texture %s UP"),
	"depth": opIndex("clear-ds"), "ms": opIndex("clear-rt")}

func opIndex(prefix string) int {
	v := []slotView{{res: &declared{name: "%s", kind: "buffer"}, sub: -1}, {res: &declared{name: "X", kind: "buffer"}, sub: -1},
		{res: &declared{name: "Y", kind: "buffer"}, sub: -1}}
	for i, op := range operations {
		if strings.HasPrefix(op.text(v[:len(op.slots)], 0), strings.ReplaceAll(prefix, "%d", "0")) {
			return i
		}
	}
	panic("hlk: no random op " + prefix)
}

// pick chooses the resources and parts for an op's slots (distinct
// resources) and each texture slot's layout.
func (g *generator) pick(op *operation, q ddi.CommandListType) ([]slotView, []ddi.BarrierLayout, bool) {
	var views []slotView
	var layouts []ddi.BarrierLayout
	for _, s := range op.slots {
		var cands []*declared
		for _, x := range g.res {
			if x.inactive || !strings.Contains(s.kinds, x.kind) || slices.ContainsFunc(views, func(v slotView) bool { return v.res == x }) {
				continue
			}
			if !x.isBuffer() && len(layoutsFor(x, s.access, q)) == 0 {
				continue
			}
			if x.r.AllowedAccesses(resource.HeapDefault)&s.access != s.access {
				continue
			}
			cands = append(cands, x)
		}
		if len(cands) == 0 {
			return nil, nil, false
		}
		x := cands[g.rng.IntN(len(cands))]
		v := slotView{res: x, sub: -1}
		whole := s.view == "whole" || s.view == "any" && g.rng.IntN(3) == 0
		// Resolves and footprint copies name one subresource, of mip 0
		// when the other side is 8x8.
		if !whole {
			v.sub = g.rng.IntN(len(x.units))
			if !x.isBuffer() && op.syncOp && x.mips > 1 {
				v.sub -= v.sub % x.mips
			}
			v.units = []*unit{x.units[v.sub]}
		} else {
			v.units = x.units
		}
		for _, u := range v.units {
			if !eligible(u, q) {
				return nil, nil, false
			}
		}
		l := ddi.LayoutUndefined
		if !x.isBuffer() {
			ls := layoutsFor(x, s.access, q)
			l = ls[g.rng.IntN(len(ls))]
			if cur := v.units[0].layout; slices.Contains(ls, cur) && g.rng.IntN(4) != 0 {
				l = cur
			}
		}
		views = append(views, v)
		layouts = append(layouts, l)
	}
	return views, layouts, true
}

// barrierLine is one barrier to write.
type barrierLine struct {
	res          *declared // nil: global
	units        []*unit
	syncB, syncA ddi.BarrierSync
	accB, accA   ddi.BarrierAccess
	layB, layA   ddi.BarrierLayout
	discard      bool
	// asyncOnly: every access it orders is asynchronous work no barrier
	// ordered yet, so nothing but this barrier makes up for it
	// (droppable); firstSeq is the earliest of them.
	asyncOnly bool
	firstSeq  int
	write     bool // the access after it writes
}

// conflicts lists the pending accesses of a unit a new access must be
// ordered after by a barrier; all of them when its layout changes.
func conflicts(u *unit, s slot, l ddi.BarrierLayout, syncOp bool) []int {
	var out []int
	relayout := !u.res.isBuffer() && u.layout != l
	for i, p := range u.pending {
		switch {
		case relayout:
		case !p.write && !s.write:
			continue
		// Render-target and depth writes of one queue are in raster order.
		case p.write && s.write && p.access == s.access && p.sync == s.sync &&
			(s.access == ddi.AccessRenderTarget || s.access == ddi.AccessDepthStencilWrite):
			continue
		// E-SYNC-COPY: synchronous copies are ordered with each other.
		case syncOp && p.syncOp && s.sync == ddi.SyncCopy && p.sync == ddi.SyncCopy:
			continue
		// A barrier since ordered it before this access (and made the
		// write visible to it).
		case ddi.ExpandSync(s.sync)&^ddi.ExpandSync(p.ordered) == 0 && (!p.write || s.access&^p.visible == 0):
			continue
		}
		out = append(out, i)
	}
	return out
}

// barriersFor writes the barriers an op needs before it.
func (g *generator) barriersFor(op *operation, q ddi.CommandListType, views []slotView, layouts []ddi.BarrierLayout) {
	var bs []*barrierLine
	for i, v := range views {
		s := op.slots[i]
		need := map[*unit][]int{}
		var order []*unit
		for _, u := range v.units {
			if c := conflicts(u, s, layouts[i], op.syncOp && !g.list.async); len(c) > 0 || !u.res.isBuffer() && u.layout != layouts[i] {
				need[u] = c
				order = append(order, u)
			}
		}
		// UNDEFINED before work that overwrites a subresource nothing in
		// this submission touched yet (and DISCARD, where it applies).
		discard := s.full && !v.res.isBuffer() && q != copyQ && (g.rng.IntN(3) == 0 || v.res.mustInit)
		for _, u := range v.units {
			discard = discard && u.last == nil && !u.released
		}
		if discard {
			order = v.units
		}
		if len(order) == 0 {
			continue
		}
		if v.res.isBuffer() {
			b := &barrierLine{res: v.res, units: order, syncA: s.sync, accA: s.access, write: s.write}
			g.scope(b, need)
			bs = append(bs, b)
			continue
		}
		// Textures: one barrier per group of units with the same layout
		// and before-scope, shaped as a subresource range where it can be.
		type key struct {
			l ddi.BarrierLayout
			s ddi.BarrierSync
			a ddi.BarrierAccess
		}
		groups := map[key][]*unit{}
		var keys []key
		for _, u := range order {
			k := key{l: u.layout, s: u.after}
			for _, i := range need[u] {
				k.s |= u.pending[i].sync
				k.a |= u.pending[i].access
			}
			if groups[k] == nil {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], u)
		}
		for _, k := range keys {
			for _, us := range shapes(v.res, groups[k]) {
				b := &barrierLine{res: v.res, units: us, syncA: s.sync, accA: s.access, layB: k.l, layA: layouts[i], write: s.write}
				g.scope(b, need)
				if discard {
					b.layB = ddi.LayoutUndefined
					b.discard = (b.layA == ddi.LayoutRenderTarget || b.layA == ddi.LayoutDepthStencilWrite) && (g.rng.IntN(2) == 0 || v.res.mustInit)
				}
				bs = append(bs, b)
			}
		}
	}
	if len(bs) == 0 {
		return
	}
	// A global barrier in place of resource barriers that change no layout.
	if g.rng.IntN(6) == 0 && !slices.ContainsFunc(bs, func(b *barrierLine) bool { return b.layB != b.layA }) {
		gl := &barrierLine{asyncOnly: true, firstSeq: 1 << 62}
		for _, b := range bs {
			gl.syncB |= b.syncB
			gl.syncA |= b.syncA
			gl.accB |= b.accB &^ ddi.AccessNoAccess
			gl.accA |= b.accA
			gl.units = append(gl.units, b.units...)
			gl.asyncOnly = gl.asyncOnly && b.asyncOnly
			gl.firstSeq = min(gl.firstSeq, b.firstSeq)
		}
		if gl.accB == 0 {
			gl.accB = ddi.AccessNoAccess
		}
		bs = []*barrierLine{gl}
	}
	g.emit(bs)
	for _, b := range bs {
		g.applied(b)
	}
}

// applied updates the units a barrier covers: what it ordered and made
// visible, its layout, its SyncAfter for the next barrier's SyncBefore.
func (g *generator) applied(b *barrierLine) {
	before := ddi.ExpandSync(b.syncB)
	for _, u := range b.units {
		for i := range u.pending {
			p := &u.pending[i]
			if ddi.ExpandSync(p.sync)&^before == 0 && p.access&^b.accB == 0 {
				p.ordered |= b.syncA
				if p.write {
					p.visible |= b.accA
				}
			}
		}
		u.barSeq = g.seq
		if b.res != nil && b.layB != b.layA {
			// The transition rewrote the memory: it is what later
			// accesses follow, ordered before and visible to the
			// barrier's after-scope only.
			u.layout = b.layA
			u.pending = append(u.pending[:0], usage{sync: b.syncA, write: true, cmd: &statement{seq: g.seq}, ordered: b.syncA, visible: b.accA})
		}
	}
	// A buffer barrier is on all of the buffer.
	covered := b.units
	if b.res != nil && b.res.isBuffer() {
		covered = b.res.units
	}
	for _, u := range covered {
		// The driver follows resource barriers, which a global one
		// between them does not reset.
		if b.res == nil {
			u.after |= b.syncA
		} else {
			u.after = b.syncA
		}
		u.barSeq = g.seq
	}
}

// scope fills a barrier's before-scope: its units' conflicting pending
// accesses (need; all pending ones when nil) and the SyncAfter of their
// last barrier.
func (g *generator) scope(b *barrierLine, need map[*unit][]int) {
	b.asyncOnly, b.firstSeq = true, 1<<62
	for _, u := range b.units {
		b.syncB |= u.after
		idx, ok := need[u]
		if need == nil || !ok && b.layB != b.layA {
			idx = nil
			for i := range u.pending {
				idx = append(idx, i)
			}
		}
		for _, i := range idx {
			p := u.pending[i]
			b.syncB |= p.sync
			b.accB |= p.access
			// The CP fetches indirect arguments in order: later work
			// cannot overwrite them before, barrier or not.
			cpRead := !p.write && p.sync == ddi.SyncExecuteIndirect
			// The depth and colour units order their own reads and
			// writes of a pixel.
			fixed := p.sync == b.syncA && (p.sync == ddi.SyncDepthStencil || p.sync == ddi.SyncRenderTarget)
			// The judge compares bytes: a write that changes none races
			// unseen, be it the one before or (after a read) the new one.
			unseen := p.write && p.same || !p.write && b.write && u.next == u.ver
			b.asyncOnly = b.asyncOnly && !p.syncOp && p.ordered == 0 && !cpRead && !fixed && !unseen
			b.firstSeq = min(b.firstSeq, p.cmd.seq)
		}
	}
	if b.accB == 0 {
		b.accB = ddi.AccessNoAccess
		b.asyncOnly = false
	}
	// The driver follows layouts within a list: without a layout change
	// the work after it would be refused, not run.
	b.asyncOnly = b.asyncOnly && b.layB == b.layA
}

// splitAfter is where a split begin for a barrier may go: right after the
// last access of its units, if that is in this submission and no barrier
// touched them since (a buffer's barriers cover all of it).
func splitAfter(b *barrierLine) *statement {
	us := b.units
	if b.res.isBuffer() {
		us = b.res.units
	}
	var last *statement
	for _, u := range us {
		if u.last != nil && (last == nil || u.last.seq > last.seq) {
			last = u.last
		}
	}
	if last == nil {
		return nil
	}
	for _, u := range us {
		if u.barSeq > last.seq {
			return nil
		}
	}
	return last
}

// shapes splits a texture's units into subresource ranges (mips × slices
// boxes), each written as one barrier.
func shapes(x *declared, us []*unit) [][]*unit {
	if len(us) == len(x.units) {
		return [][]*unit{us}
	}
	if b := x.box(us); b.count() == len(us) {
		return [][]*unit{us}
	}
	var out [][]*unit
	for _, u := range us {
		out = append(out, []*unit{u})
	}
	return out
}

// subBox is the smallest box of mips × slices × planes holding units
// (first and last of each, inclusive).
type subBox struct{ m0, m1, s0, s1, p0, p1 int }

func (b subBox) count() int { return (b.m1 - b.m0 + 1) * (b.s1 - b.s0 + 1) * (b.p1 - b.p0 + 1) }

func (x *declared) box(us []*unit) subBox {
	b := subBox{1 << 30, -1, 1 << 30, -1, 1 << 30, -1}
	for _, u := range us {
		m, s, p := u.index%x.mips, u.index/x.mips%x.slices, u.index/(x.mips*x.slices)
		b = subBox{min(b.m0, m), max(b.m1, m), min(b.s0, s), max(b.s1, s), min(b.p0, p), max(b.p1, p)}
	}
	return b
}

// subSpec writes a barrier's subresources.
func (g *generator) subSpec(b *barrierLine) string {
	x := b.res
	if len(b.units) == len(x.units) && g.rng.IntN(3) != 0 {
		return ""
	}
	if len(b.units) == 1 && g.rng.IntN(2) == 0 {
		return fmt.Sprintf(" subresources %d", b.units[0].index)
	}
	bx := x.box(b.units)
	r := func(a, b int) string {
		if g.rng.IntN(2) == 0 {
			return fmt.Sprintf("%d..%d", a, b)
		}
		return fmt.Sprintf("%d+%d", a, b-a+1)
	}
	out := " subresources"
	if bx.m0 != 0 || bx.m1 != x.mips-1 || g.rng.IntN(2) == 0 {
		out += " mips " + r(bx.m0, bx.m1)
	}
	planes := len(x.units) / (x.mips * x.slices)
	if bx.p0 != 0 || bx.p1 != planes-1 || planes > 1 && g.rng.IntN(2) == 0 {
		out += " planes " + r(bx.p0, bx.p1)
	}
	if bx.s0 != 0 || bx.s1 != x.slices-1 || out == " subresources" {
		out += " slices " + r(bx.s0, bx.s1)
	}
	return out
}

// body writes a barrier's members (no kind word's prefix).
func (g *generator) body(b *barrierLine, syncB, syncA ddi.BarrierSync) string {
	s := fmt.Sprintf("sync %s -> %s access %s -> %s", syncB, syncA, b.accB, b.accA)
	switch {
	case b.res == nil:
		return "global " + s
	case b.res.isBuffer():
		return "buffer " + b.res.name + " " + s
	}
	s = "texture " + b.res.name + " " + s + fmt.Sprintf(" layout %s -> %s", b.layB, b.layA) + g.subSpec(b)
	if b.discard {
		s += " flags DISCARD"
	}
	return s
}

// emit writes barriers as calls: one call, or one per barrier; a barrier
// with a before-scope may be split, its begin right after the last access.
func (g *generator) emit(bs []*barrierLine) {
	dep := g.rng.IntN(10) == 0
	word, callWord := "barrier", "call"
	if dep {
		word, callWord = "barrier-0088", "call-0088"
	}
	var rest []*barrierLine
	for _, b := range bs {
		var at *statement
		if b.res != nil && b.accB != ddi.AccessNoAccess && g.rng.IntN(5) == 0 {
			at = splitAfter(b)
		}
		if at == nil {
			rest = append(rest, b)
			continue
		}
		// A split barrier: the begin right after the last access, the end
		// here; nothing touched the units between, so the pair may span
		// the lists of this submission.
		droppable := b.asyncOnly && b.firstSeq > g.lastBar && !g.keepAll
		grp := g.newGroup(droppable && len(bs) == 1)
		begin := &statement{lines: []string{"  " + word + " " + g.body(b, b.syncB, ddi.SyncSplit)}, seq: at.seq + 1, drop: grp, list: at.list, bars: []*declared{b.res}}
		i := slices.Index(at.list.cmds, at)
		at.list.cmds = slices.Insert(at.list.cmds, i+1, begin)
		g.lastBar = max(g.lastBar, begin.seq)
		g.undrop(begin.seq)
		end := g.add("  " + word + " " + g.body(b, ddi.SyncSplit, b.syncA))
		end.drop, end.bars = grp, []*declared{b.res}
		g.lastBar = end.seq
	}
	if len(rest) == 0 {
		return
	}
	droppable := len(bs) == 1 && len(rest) == 1 && rest[0].asyncOnly && rest[0].firstSeq > g.lastBar && !g.keepAll
	if len(rest) == 1 && g.rng.IntN(8) != 0 {
		c := g.add("  " + word + " " + g.body(rest[0], rest[0].syncB, rest[0].syncA))
		c.drop, c.bars = g.newGroup(droppable), []*declared{rest[0].res}
	} else if g.rng.IntN(3) == 0 {
		for _, b := range rest {
			g.add("  " + word + " " + g.body(b, b.syncB, b.syncA)).bars = []*declared{b.res}
		}
	} else {
		lines := []string{"  " + callWord}
		var res []*declared
		for _, b := range rest {
			lines = append(lines, "    "+g.body(b, b.syncB, b.syncA))
			res = append(res, b.res)
		}
		c := g.add(append(lines, "  end")...)
		c.drop, c.bars = g.newGroup(droppable), res
	}
	g.lastBar = g.seq
}

// validDrops are the drops that leave a valid program: no later barrier
// of the list is on the same resource, whose SyncBefore holds the dropped
// barrier's SyncAfter, which the driver checks (000 "Sequential Barriers").
func (g *generator) validDrops() []int {
	var out []int
	for _, d := range g.drops {
		ok := true
		for _, l := range g.lists {
			for i, c := range l.cmds {
				if c.drop != d {
					continue
				}
				for _, later := range l.cmds[i+1:] {
					if later.drop != d && slices.ContainsFunc(later.bars, func(x *declared) bool { return x != nil && slices.Contains(c.bars, x) }) {
						ok = false
					}
				}
			}
		}
		if ok {
			out = append(out, d)
		}
	}
	return out
}

func (g *generator) newGroup(droppable bool) int {
	if !droppable {
		return 0
	}
	g.group++
	g.drops = append(g.drops, g.group)
	return g.group
}

// undrop withdraws the drops of calls after seq: a split begin now runs
// between their accesses and them.
func (g *generator) undrop(seq int) {
	for _, l := range g.lists {
		for _, c := range l.cmds {
			if c.seq > seq && c.drop != 0 {
				g.drops = slices.DeleteFunc(g.drops, func(d int) bool { return d == c.drop })
			}
		}
	}
}

func (g *generator) add(lines ...string) *statement {
	g.seq += 2
	if !strings.HasPrefix(lines[0], " ") {
		lines[0] = "  " + lines[0]
	}
	c := &statement{lines: lines, seq: g.seq, list: g.list}
	g.list.cmds = append(g.list.cmds, c)
	return c
}

// release ends the list by moving textures it used to COMMON with SyncAfter
// NONE: nothing may use them again in this submission.
func (g *generator) release(q ddi.CommandListType) {
	if q == copyQ {
		return // copy queues do not transition layouts
	}
	var bs []*barrierLine
	for _, x := range g.res {
		l := x.units[0].layout
		if x.inactive || x.isBuffer() || l == ddi.LayoutCommon || !allowsLayout(q, l) ||
			slices.ContainsFunc(x.units, func(u *unit) bool { return u.layout != l || u.released }) ||
			!slices.ContainsFunc(x.units, func(u *unit) bool { return len(u.pending) > 0 }) {
			continue
		}
		bs = append(bs, g.endings(x, x.units, toCommon)...)
	}
	for _, b := range bs {
		g.add("  barrier " + g.body(b, b.syncB, b.syncA)).bars = []*declared{b.res}
		g.ended(b)
	}
}

// endings are the barriers that end the use of units of x in this
// submission (SyncAfter NONE, NO_ACCESS), their before-scope what they
// did: one for a buffer, else one per layout and subresource box, each
// from its layout to the layout to gives it.
func (g *generator) endings(x *declared, us []*unit, to func(ddi.BarrierLayout) ddi.BarrierLayout) []*barrierLine {
	var bs []*barrierLine
	if x.isBuffer() {
		bs = append(bs, &barrierLine{res: x, units: us, syncA: ddi.SyncNone, accA: ddi.AccessNoAccess})
	} else {
		byLayout := map[ddi.BarrierLayout][]*unit{}
		var ls []ddi.BarrierLayout
		for _, u := range us {
			if byLayout[u.layout] == nil {
				ls = append(ls, u.layout)
			}
			byLayout[u.layout] = append(byLayout[u.layout], u)
		}
		for _, l := range ls {
			for _, box := range shapes(x, byLayout[l]) {
				bs = append(bs, &barrierLine{res: x, units: box, syncA: ddi.SyncNone, accA: ddi.AccessNoAccess, layB: l, layA: to(l)})
			}
		}
	}
	for _, b := range bs {
		g.scope(b, nil)
	}
	return bs
}

// ended applies a barrier written with SyncAfter NONE: nothing may use
// its units again in this submission (000 "D3D12_BARRIER_SYNC_NONE").
func (g *generator) ended(b *barrierLine) {
	g.applied(b)
	for _, u := range b.units {
		u.pending, u.released = nil, true
	}
	g.lastBar = g.seq
}

// handOff ends the list, before a submission on another queue type, by
// moving the video frames that queue could not take in the layouts they
// have to COMMON, with SyncAfter NONE.
func (g *generator) handOff(q, next ddi.CommandListType) {
	if q == next || q == copyQ {
		return
	}
	for _, x := range g.res {
		if x.kind != "video" || x.inactive {
			continue
		}
		var us []*unit
		for _, u := range x.units {
			if !u.released && u.layout != ddi.LayoutCommon && allowsLayout(q, u.layout) && !allowsLayout(next, u.layout) {
				us = append(us, u)
			}
		}
		if len(us) == 0 {
			continue
		}
		for _, b := range g.endings(x, us, toCommon) {
			g.add("  barrier " + g.body(b, b.syncB, b.syncA)).bars = []*declared{x}
			g.ended(b)
		}
	}
}

func toCommon(ddi.BarrierLayout) ddi.BarrierLayout { return ddi.LayoutCommon }

// text writes the program; drop leaves out that group's barrier calls,
// which stay as comments.
func (g *generator) text(seed uint64, drop int) string {
	var b strings.Builder
	mode := "its barriers derived from its accesses; it must match the reference with no hazard"
	if drop != 0 {
		mode = "one needed barrier left out (the #drop lines); the judge must see a hazard or wrong bytes"
	}
	fmt.Fprintf(&b, "# A random program (hlk/gen/random.go), seed %d: %s.\n# Reproduce: ebref hlk --suite random --random 1 --seed %d\n", seed, mode, seed)
	if drop == 0 {
		b.WriteString("debug\n")
	}
	if g.heap != "" {
		b.WriteString(g.heap + "\n")
	}
	for _, x := range g.res {
		b.WriteString(x.decl + "\n")
	}
	fmt.Fprintf(&b, "buffer UP %d in upload\n", segSize*upSegs)
	for i := range upSegs {
		fmt.Fprintf(&b, "write UP %d fill 0x%02x %d\n", i*segSize, 1+(seed+uint64(i)*37)%255, segSize)
	}
	for _, q := range queueNames {
		if n := g.queues[q.t]; n != "" {
			fmt.Fprintf(&b, "queue %s %s\n", n, q.t)
		}
	}
	b.WriteString("fence F\n")
	for _, st := range g.steps {
		if !strings.HasPrefix(st, "@") {
			b.WriteString(st + "\n")
			continue
		}
		l := g.lists[slices.IndexFunc(g.lists, func(l *listDecl) bool { return "@"+l.name == st })]
		fmt.Fprintf(&b, "list %s %s", l.name, l.qtype)
		if l.async {
			b.WriteString(" flags ALLOW_EXTENDED_ASYNC")
		}
		b.WriteString("\n")
		for _, c := range l.cmds {
			for _, line := range c.lines {
				if drop != 0 && c.drop == drop {
					line = "#drop:" + line
				}
				b.WriteString(line + "\n")
			}
		}
		b.WriteString("end\n")
	}
	// A resource that is not in use holds the other's bytes: only those
	// in use read as the reference does.
	expect := "expect reference"
	if drop != 0 {
		expect = "expect detected"
	}
	b.WriteString(expect)
	if g.aliased() != nil {
		b.WriteString(" UP")
		for _, x := range g.res {
			if !x.inactive {
				b.WriteString(" " + x.name)
			}
		}
	}
	b.WriteString("\n")
	return b.String()
}
