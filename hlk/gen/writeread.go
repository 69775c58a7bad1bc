package gen

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
)

// The write × read product, in the style of the Vulkan CTS synchronization
// tests: for every operation that writes a resource and every operation
// that then reads it, on every queue type both may run on, the minimal
// correct barrier between them (SyncBefore the writer's scope, SyncAfter
// the reader's, the two accesses, the writer's layout to the reader's),
// checked on every profile against the reference bytes of the resource and
// of what the reader wrote. The reader runs once before the writer too
// (writing its own copies of the outputs, named with a 0, so the two reads
// do not race each other), so its caches hold the old bytes and a missing
// invalidate shows; the barrier between that read and the write is the
// minimal one the other way round.

// rwOp is one writing or reading operation on a resource X.
type rwOp struct {
	name  string
	kind  string // what X is: buffer, color, depth, ms (multisampled colour), as (acceleration structure), video (NV12)
	flags ddi.ResourceFlags
	// Use is what the command does to X (scenario.Uses): the sync and
	// access of the barriers on either side, and X's layout.
	scenario.Use
	// generic: X takes the use's layout without its queue prefix
	// (COPY_DEST, UNORDERED_ACCESS), the same on every queue type.
	generic bool
	queues  []ddi.CommandListType // the queue types it runs on
	needs   []string              // the other resources it uses (rwResources)
	cmd     string                // the command, X for the resource
	outputs []string              // what it writes besides X, for the reference check
}

// useOf is command cmd's use of a view in role (scenario.Uses).
func useOf(cmd, role string) scenario.Use {
	u, ok := scenario.Uses[cmd][role]
	if !ok {
		panic(fmt.Sprintf("gen: scenario.Uses has no %s %s", cmd, role)) // the tables below are static
	}
	return u
}

// layoutOn is X's layout when the operation runs on a queue of type q,
// and whether it runs there: buffers have none (UNDEFINED); a texture
// takes its use's layout for that queue type.
func (o *rwOp) layoutOn(q ddi.CommandListType) (ddi.BarrierLayout, bool) {
	if !slices.Contains(o.queues, q) {
		return 0, false
	}
	if o.kind == "buffer" || o.kind == "as" {
		return ddi.LayoutUndefined, true
	}
	u := o.On(o.kind == "depth")
	if o.generic {
		u.Layout = u.Generic()
	}
	return u.LayoutOn(q)
}

// rwResources declares the operations' other resources.
var rwResources = map[string][]string{
	"SRC":   {"buffer SRC 16384 in upload", "write SRC 0 fill 0x5a 16384"},
	"MS":    {"texture MS 32x32 samples 4 flags RENDER_TARGET layout RESOLVE_SOURCE"},
	"IN":    {"buffer IN 4096"},
	"SCR":   {"buffer SCR 4096 flags UNORDERED_ACCESS"},
	"OUT":   {"texture OUT 32x32 flags RENDER_TARGET layout RENDER_TARGET"},
	"OUTB":  {"buffer OUTB 16384 flags UNORDERED_ACCESS"},
	"OUTT":  {"texture OUTT 32x32 flags RENDER_TARGET layout RESOLVE_DEST"},
	"OUTAS": {"buffer OUTAS 16384 flags RAYTRACING_ACCELERATION_STRUCTURE"},
	"AS":    {"buffer AS 16384 flags RAYTRACING_ACCELERATION_STRUCTURE"},
	"BITS":  {"buffer BITS 4096"},
	"OUTVD": {"texture OUTVD 64x64 format NV12 layout VIDEO_DECODE_WRITE"},
	"INVP":  {"texture INVP 64x64 format NV12 layout VIDEO_PROCESS_READ"},
	"OUTVP": {"texture OUTVP 64x64 format NV12 layout VIDEO_PROCESS_WRITE"},
	"INVE":  {"texture INVE 64x64 format NV12 layout VIDEO_ENCODE_READ"},
	"OUTBS": {"buffer OUTBS 16384"},
}

const (
	direct  = ddi.CommandListTypeDirect
	compute = ddi.CommandListTypeCompute
	copyQ   = ddi.CommandListTypeCopy
	vDecode = ddi.CommandListTypeVideoDecode
	vProc   = ddi.CommandListTypeVideoProcess
	vEncode = ddi.CommandListTypeVideoEncode
)

// rwQueues are the queue types the pairs run on.
var rwQueues = []ddi.CommandListType{direct, compute, copyQ, vDecode, vProc, vEncode}

var rwWriters = []rwOp{
	{"draw-rt", "color", ddi.ResourceFlagRenderTarget, useOf("draw", "rt"), false, []ddi.CommandListType{direct},
		nil, "draw rt X", nil},
	{"clear-rt", "color", ddi.ResourceFlagRenderTarget, useOf("clear-rt", "0"), false, []ddi.CommandListType{direct},
		nil, "clear-rt X 0x11223344", nil},
	{"draw-rt-ms", "ms", ddi.ResourceFlagRenderTarget, useOf("draw", "rt"), false, []ddi.CommandListType{direct},
		nil, "draw rt X", nil},
	{"draw-ds", "depth", ddi.ResourceFlagDepthStencil, useOf("draw", "ds-write"), false, []ddi.CommandListType{direct},
		nil, "draw ds-write X", nil},
	{"clear-ds", "depth", ddi.ResourceFlagDepthStencil, useOf("clear-ds", "0"), false, []ddi.CommandListType{direct},
		nil, "clear-ds X 0x3f800000", nil},
	{"cs-uav-buffer", "buffer", ddi.ResourceFlagUnorderedAccess, useOf("dispatch", "uav"), false, []ddi.CommandListType{direct, compute},
		nil, "dispatch uav X", nil},
	{"cs-uav-texture", "color", ddi.ResourceFlagUnorderedAccess, useOf("dispatch", "uav"), true, []ddi.CommandListType{direct, compute},
		nil, "dispatch uav X", nil},
	{"ps-uav-buffer", "buffer", ddi.ResourceFlagUnorderedAccess, useOf("draw", "ps-uav"), false, []ddi.CommandListType{direct},
		nil, "draw ps-uav X", nil},
	{"clear-uav-buffer", "buffer", ddi.ResourceFlagUnorderedAccess, useOf("clear-uav", "0"), false, []ddi.CommandListType{direct, compute},
		nil, "clear-uav X 7", nil},
	{"copy-buffer", "buffer", 0, useOf("copy-buffer", "0"), false, []ddi.CommandListType{direct, compute, copyQ},
		[]string{"SRC"}, "copy-buffer X 0 SRC 0 4096", nil},
	{"copy-texture", "color", 0, useOf("copy-buffer-to-texture", "0"), true, []ddi.CommandListType{direct, compute, copyQ},
		[]string{"SRC"}, "copy-buffer-to-texture X@0 SRC 0", nil},
	{"stream-out", "buffer", 0, useOf("draw", "so"), false, []ddi.CommandListType{direct},
		nil, "draw so X", nil},
	{"resolve", "color", 0, useOf("resolve", "0"), false, []ddi.CommandListType{direct},
		[]string{"MS"}, "resolve X@0 MS@0", nil},
	{"build-as", "as", ddi.ResourceFlagRaytracingAccelerationStructure, useOf("build-as", "0"), false, []ddi.CommandListType{direct, compute},
		[]string{"IN", "SCR"},
		"build-as X inputs IN scratch SCR", nil},
	{"build-as-scratch", "buffer", ddi.ResourceFlagUnorderedAccess, useOf("build-as", "scratch"), false, []ddi.CommandListType{direct, compute},
		[]string{"IN", "OUTAS"},
		"build-as OUTAS inputs IN scratch X", nil},
	{"postbuild-info", "buffer", ddi.ResourceFlagUnorderedAccess, useOf("postbuild-info", "0"), false, []ddi.CommandListType{direct, compute},
		[]string{"AS"},
		"postbuild-info X AS", nil},
	{"discard-rt", "color", ddi.ResourceFlagRenderTarget, useOf("discard", "0"), false, []ddi.CommandListType{direct},
		nil, "discard X", nil},
	{"video-decode", "video", 0, useOf("decode", "out"), false, []ddi.CommandListType{vDecode},
		[]string{"BITS"}, "decode in BITS out X", nil},
	{"video-process", "video", 0, useOf("process", "out"), false, []ddi.CommandListType{vProc},
		[]string{"INVP"}, "process in INVP out X", nil},
	{"video-encode", "video", 0, useOf("encode", "out"), false, []ddi.CommandListType{vEncode},
		[]string{"INVE"}, "encode in INVE out X", nil},
}

var rwReaders = []rwOp{
	{"ps-srv", "color", ddi.ResourceFlagShaderResource, useOf("draw", "ps-srv"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw ps-srv X rt OUT", []string{"OUT"}},
	{"ps-srv-depth", "depth", ddi.ResourceFlagShaderResource, useOf("draw", "ps-srv"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw ps-srv X rt OUT", []string{"OUT"}},
	{"ps-srv-buffer", "buffer", 0, useOf("draw", "ps-srv"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw ps-srv X rt OUT", []string{"OUT"}},
	{"vs-srv", "color", ddi.ResourceFlagShaderResource, useOf("draw", "vs-srv"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw vs-srv X rt OUT", []string{"OUT"}},
	{"cs-srv", "color", ddi.ResourceFlagShaderResource, useOf("dispatch", "srv"), false, []ddi.CommandListType{direct, compute},
		[]string{"OUTB"}, "dispatch srv X uav OUTB", []string{"OUTB"}},
	{"cs-srv-buffer", "buffer", 0, useOf("dispatch", "srv"), false, []ddi.CommandListType{direct, compute},
		[]string{"OUTB"}, "dispatch srv X uav OUTB", []string{"OUTB"}},
	{"copy-src-buffer", "buffer", 0, useOf("copy-buffer", "2"), false, []ddi.CommandListType{direct, compute, copyQ},
		[]string{"OUTB"}, "copy-buffer OUTB 0 X 0 4096", []string{"OUTB"}},
	{"copy-src-texture", "color", 0, useOf("copy-texture-to-buffer", "2"), true, []ddi.CommandListType{direct, compute, copyQ},
		[]string{"OUTB"},
		"copy-texture-to-buffer OUTB 0 X@0", []string{"OUTB"}},
	{"vertex-buffer", "buffer", 0, useOf("draw", "vb"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw vb X rt OUT", []string{"OUT"}},
	{"index-buffer", "buffer", 0, useOf("draw", "ib"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw ib X rt OUT", []string{"OUT"}},
	{"constant-buffer", "buffer", 0, useOf("draw", "ps-cbv"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw ps-cbv X rt OUT", []string{"OUT"}},
	{"indirect-args", "buffer", 0, useOf("dispatch", "args"), false, []ddi.CommandListType{direct, compute},
		[]string{"OUTB"}, "dispatch args X uav OUTB", []string{"OUTB"}},
	{"predication", "buffer", 0, useOf("predication", "0"), false, []ddi.CommandListType{direct, compute},
		// Predication ends at once: the read is the point, and a predicate
		// left on would skip the write after it, masking its hazard.
		nil, "predication X 0\n  predication NULL", nil},
	{"depth-read", "depth", 0, useOf("draw", "ds"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw ds X rt OUT", []string{"OUT"}},
	{"blend", "color", ddi.ResourceFlagRenderTarget, useOf("draw", "rt"), false, []ddi.CommandListType{direct},
		nil, "draw rt X", nil},
	{"cs-uav-read-buffer", "buffer", ddi.ResourceFlagUnorderedAccess, useOf("dispatch", "uav"), false, []ddi.CommandListType{direct, compute},
		nil, "dispatch uav X", nil},
	{"cs-uav-read-texture", "color", ddi.ResourceFlagUnorderedAccess, useOf("dispatch", "uav"), true, []ddi.CommandListType{direct, compute},
		nil, "dispatch uav X", nil},
	{"resolve-source", "ms", 0, useOf("resolve", "1"), false, []ddi.CommandListType{direct},
		[]string{"OUTT"}, "resolve OUTT@0 X@0", []string{"OUTT"}},
	{"trace-rays", "as", 0, useOf("dispatch-rays", "as"), false, []ddi.CommandListType{direct, compute},
		[]string{"OUTB"}, "dispatch-rays as X uav OUTB", []string{"OUTB"}},
	{"copy-as", "as", 0, useOf("copy-as", "1"), false, []ddi.CommandListType{direct, compute},
		[]string{"OUTAS"}, "copy-as OUTAS X", []string{"OUTAS"}},
	{"build-as-source", "as", 0, useOf("build-as", "source"), false, []ddi.CommandListType{direct, compute},
		[]string{"IN", "SCR", "OUTAS"}, "build-as OUTAS inputs IN source X scratch SCR", []string{"OUTAS"}},
	{"postbuild-source", "as", 0, useOf("postbuild-info", "1"), false, []ddi.CommandListType{direct, compute},
		[]string{"OUTB"},
		"postbuild-info OUTB X", []string{"OUTB"}},
	{"build-as-scratch-read", "buffer", ddi.ResourceFlagUnorderedAccess, useOf("build-as", "scratch"), false, []ddi.CommandListType{direct, compute},
		[]string{"IN", "OUTAS"},
		"build-as OUTAS inputs IN scratch X", []string{"OUTAS"}},
	{"shading-rate", "color", 0, useOf("draw", "shading-rate"), false, []ddi.CommandListType{direct},
		[]string{"OUT"}, "draw shading-rate X rt OUT", []string{"OUT"}},
	{"video-decode-reference", "video", 0, useOf("decode", "ref"), false, []ddi.CommandListType{vDecode},
		[]string{"BITS", "OUTVD"}, "decode in BITS ref X out OUTVD", []string{"OUTVD"}},
	{"video-process-input", "video", 0, useOf("process", "in"), false, []ddi.CommandListType{vProc},
		[]string{"OUTVP"}, "process in X out OUTVP", []string{"OUTVP"}},
	{"video-encode-input", "video", 0, useOf("encode", "in"), false, []ddi.CommandListType{vEncode},
		[]string{"OUTBS"}, "encode in X out OUTBS", []string{"OUTBS"}},
}

// rwDecl declares X for a pair.
func rwDecl(kind string, flags ddi.ResourceFlags, layout ddi.BarrierLayout) string {
	f := ""
	if flags != 0 {
		f = " flags " + flags.String()
	}
	switch kind {
	case "buffer", "as":
		return "buffer X 16384" + f
	case "depth":
		return fmt.Sprintf("texture X 32x32 format D32_FLOAT%s layout %s", f, layout)
	case "ms":
		return fmt.Sprintf("texture X 32x32 samples 4%s layout %s", f, layout)
	case "video":
		return fmt.Sprintf("texture X 64x64 format NV12%s layout %s", f, layout)
	}
	return fmt.Sprintf("texture X 32x32%s layout %s", f, layout)
}

func genWriteRead() map[string]string {
	files := map[string]*genFile{}
	for _, w := range rwWriters {
		for _, r := range rwReaders {
			if w.kind != r.kind {
				continue
			}
			for _, q := range rwQueues {
				wl, wok := w.layoutOn(q)
				rl, rok := r.layoutOn(q)
				if !wok || !rok {
					continue
				}
				name := strings.ToLower(q.String()) + ".ebs"
				g := files[name]
				if g == nil {
					g = &genFile{}
					g.header("every writer × reader pair on %s lists, with the minimal barrier between them (writeread.go)", q)
					files[name] = g
				}
				g.section(fmt.Sprintf("%s then %s", w.name, r.name), rwCase(w, r, q, wl, rl, rwMinimal)...)
				// A layout change cannot be dropped: the barrier after the
				// priming read is narrowed to a stage that does not cover
				// the read instead. (The barrier after the write cannot
				// be: it must contain the priming barrier's SyncAfter.)
				if st, ok := missedStage(r, q); ok && wl != rl && !rasterOrdered(w, r) && r.Access != ddi.AccessIndirectArgument {
					g.section(fmt.Sprintf("%s then %s, the read's stage missed (%s)", w.name, r.name, st),
						rwCase(w, r, q, wl, rl, rwMissedRead)...)
				}
				if wl == rl && !rasterOrdered(w, r) {
					g.section(fmt.Sprintf("%s then %s, no barrier after the write", w.name, r.name), rwCase(w, r, q, wl, rl, rwNoBarrierAfter)...)
					// The command processor reads indirect arguments
					// as it issues the work, before any later command
					// can write them: no barrier orders that read.
					if r.Access != ddi.AccessIndirectArgument {
						g.section(fmt.Sprintf("%s then %s, no barrier before the write", w.name, r.name), rwCase(w, r, q, wl, rl, rwNoBarrierBefore)...)
					}
				}
			}
		}
	}
	out := map[string]string{}
	for n, g := range files {
		out[n] = g.text()
	}
	return out
}

// rwForm is how a pair's case orders the write and the reads.
type rwForm int

const (
	rwMinimal         rwForm = iota // the minimal correct barriers
	rwNoBarrierAfter                // no barrier between the write and the read
	rwNoBarrierBefore               // no barrier between the priming read and the write
	rwMissedRead                    // SyncBefore after the priming read names another stage
)

// missedStages are the single stages a narrowed SyncBefore may name.
var missedStages = []ddi.BarrierSync{ddi.SyncVertexShading, ddi.SyncPixelShading, ddi.SyncComputeShading,
	ddi.SyncCopy, ddi.SyncRenderTarget, ddi.SyncDepthStencil, ddi.SyncIndexInput, ddi.SyncResolve,
	ddi.SyncExecuteIndirect, ddi.SyncRaytracing, ddi.SyncBuildRaytracingAccelerationStructure}

// missedStage is the first stage the queue type and the operation's
// access allow as SyncBefore that does not cover the operation's own
// stage: a barrier scoped so waits for other work (a wrong stage mask).
func missedStage(op rwOp, q ddi.CommandListType) (ddi.BarrierSync, bool) {
	own := op.Sync | ddi.ExpandSync(op.Sync)
	rules, _ := ddi.QueueRulesFor(q)
	for _, st := range missedStages {
		if ok, _ := ddi.AccessSyncOK(op.Access, st); ok && rules.Syncs&st != 0 && (st|ddi.ExpandSync(st))&own == 0 {
			return st, true
		}
	}
	return 0, false
}

// rasterOrdered reports whether the pipeline orders the write before the
// read with no barrier: render-target and depth-stencil accesses of
// successive work are ordered by the output merger.
func rasterOrdered(w, r rwOp) bool {
	om := ddi.AccessRenderTarget | ddi.AccessDepthStencilWrite | ddi.AccessDepthStencilRead
	return w.Access&om != 0 && r.Access&om != 0
}

// rwCase writes one pair's scenario in one form. The negative forms drop
// one of its two barriers, where the pair keeps its layout (a dropped
// layout change would be another error): with no barrier after the write
// nothing waits for it or makes it visible to the read; with none before
// it the write may land before the priming read is done. Where the layout
// changes, the barrier before the write waits for the wrong stage, so
// the write (and the layout change) may again overtake the read. The judge must
// report the hazard each mistake makes on X: read-after-write for the
// first, write-after-read for the other two. The kind matters: an
// operation that reads and writes one slot (a UAV, a scratch buffer,
// blending) races as a write even if the driver loses its read, so only
// read-after-write shows the read is seen. They run on an
// ALLOW_EXTENDED_ASYNC list, so that a copy or resolve writer is not made
// visible by the wait that synchronous copies end with (errata
// E-SYNC-COPY).
func rwCase(w, r rwOp, q ddi.CommandListType, wl, rl ddi.BarrierLayout, form rwForm) []string {
	lines := []string{rwDecl(w.kind, w.flags|r.flags, rl)}
	needs := map[string]bool{}
	for _, n := range append(append([]string{}, w.needs...), r.needs...) {
		needs[n] = true
	}
	var writes []string
	for _, n := range slices.Sorted(maps.Keys(needs)) {
		for _, d := range rwResources[n] {
			if strings.HasPrefix(d, "write ") {
				writes = append(writes, d)
			} else {
				lines = append(lines, d)
			}
		}
	}
	// The priming read's outputs: the same declarations, named with a 0.
	prime := r.cmd
	var outputs []string
	for _, o := range r.outputs {
		for _, d := range rwResources[o] {
			lines = append(lines, strings.Replace(d, " "+o+" ", " "+o+"0 ", 1))
		}
		prime = strings.ReplaceAll(prime, " "+o, " "+o+"0")
		outputs = append(outputs, o, o+"0")
	}
	lines = append(lines, writes...)
	barrier := func(a, b rwOp, al, bl ddi.BarrierLayout) string {
		if w.kind == "buffer" || w.kind == "as" {
			return fmt.Sprintf("  barrier buffer X sync %s -> %s access %s -> %s", a.Sync, b.Sync, a.Access, b.Access)
		}
		return fmt.Sprintf("  barrier texture X sync %s -> %s access %s -> %s layout %s -> %s", a.Sync, b.Sync, a.Access, b.Access, al, bl)
	}
	list, between, expect := "list L "+q.String(), barrier(w, r, wl, rl), "expect reference X"+prefixed(" ", outputs)
	before := barrier(r, w, rl, wl)
	switch form {
	case rwNoBarrierAfter:
		between = "  # no barrier"
	case rwNoBarrierBefore:
		before = "  # no barrier"
	case rwMissedRead:
		st, _ := missedStage(r, q)
		before = barrier(rwOp{Use: scenario.Use{Sync: st, Access: r.Access}}, w, rl, wl)
	}
	switch form {
	case rwNoBarrierAfter:
		expect = "expect hazard read-after-write on X"
	case rwNoBarrierBefore, rwMissedRead:
		expect = "expect hazard write-after-read on X"
	}
	if form != rwMinimal {
		list += " flags ALLOW_EXTENDED_ASYNC"
	}
	lines = append(lines,
		"queue Q "+q.String(),
		list,
		"  "+prime,
		before,
		"  "+w.cmd,
		between,
		"  "+r.cmd,
		"end",
		"execute Q L",
		expect)
	return lines
}

func prefixed(sep string, s []string) string {
	if len(s) == 0 {
		return ""
	}
	return sep + strings.Join(s, sep)
}
