package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ebref/ebref/ddi"
)

// Random legacy programs (suite "random-legacy"): ResourceBarrier streams
// over promotion and decay, drawn from a seed. A program declares buffers,
// colour textures with mips and array slices, simultaneous-access
// textures and depth-stencil textures with two planes, all through the
// legacy path (`state S`), and records work on direct, compute and copy
// queues, one to three submissions of one or two lists each, with fences
// where the queue changes. Before each command the generator asks its own
// model of legacy state what each subresource holds and writes the
// barriers an application must: a transition (of one subresource, or of
// the whole resource when every subresource is in one state; sometimes
// split into BEGIN_ONLY and END_ONLY around other work), a UAV barrier
// between two unordered writes, nothing where the subresource holds the
// state or is promoted to it; aliasing and NULL UAV barriers ride along.
//
// The model (lgUnit, lgGen.use, lgGen.transition, lgGen.execute) is
// written from the state tables (000 "Resource State Promotion and Decay",
// /work/shared/legacy-interop.md rules 2 and 3), not from ddi/legacy: it
// uses ddi's state constants and nothing of the translation or the
// tracker. Promotion: out of COMMON on use, a buffer or a
// simultaneous-access texture to any state but the depth ones, another
// texture to COPY_DEST, COPY_SOURCE, NON_PIXEL_ and PIXEL_SHADER_RESOURCE
// only; read states accumulate within the list that promoted them, a write
// stands alone. Decay at the end of ExecuteCommandLists, never between its
// lists: every subresource the submission touched of a buffer or a
// simultaneous-access texture, everything a copy queue touched, and what
// was reached by promotion to read states alone return to COMMON; a
// texture promoted to COPY_DEST keeps it. Every later StateBefore names
// what the model predicts, so a legacy layer that tracks otherwise reports
// a mismatch the case does not expect; TestLegacyRandomModel also compares
// the model's states after every submission with what the layer tracks.
//
// Negative forms, each cut right after the command that shows the
// mistake (so one mistake makes one finding) and expecting the message the
// model computes: "-drop" leaves out one single-subresource transition
// whose next use or transition in its list then finds the subresource in
// the wrong state (GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE or
// RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH, when the list records or when
// it is executed); "-before" gives one transition a StateBefore the
// subresource is not in (preferably COMMON, the state a forgotten
// promotion or decay leaves an application believing).

// lgRes is a resource of a legacy program.
type lgRes struct {
	name  string
	kind  string // buf, tex (colour, 2 mips x 2 slices), sa (simultaneous access, 2 slices), depth (2 slices x 2 planes)
	decl  string
	units []*lgUnit
}

func (r *lgRes) texture() bool { return r.kind != "buf" }

// lgUnit is one subresource and what the model knows of it.
type lgUnit struct {
	res *lgRes
	sub int
	// state is the legacy state the subresource is in now: after the
	// barriers and promotions recorded so far.
	state ddi.ResourceStates
	// promoted: state was reached from COMMON by use alone, in list
	// promList (reads accumulate only there).
	promoted bool
	promList *lgList
	// dirty: written since the last barrier that orders it (cleared by a
	// transition, a UAV barrier in UNORDERED_ACCESS, the end of a
	// submission).
	dirty bool
	begun bool // between the halves of a split transition
	// judged: the driver leaves this subresource's layout to the legacy
	// layer (it has no layout, its layout is a LEGACY_* one, or a
	// translated transition set it in an earlier submission); a
	// texture's initial is its state at creation.
	judged  bool
	initial ddi.ResourceStates
	// naive is what an application that forgot the last submission's
	// decay (or that a write promotion does not decay) would believe the
	// subresource is in now, when naiveSet.
	naive    ddi.ResourceStates
	naiveSet bool
	// eclStart is the state at the start of the current submission.
	eclStart ddi.ResourceStates
	touched  bool // the current submission touched it
	events   []*lgEvent
}

func (u *lgUnit) String() string {
	if u.res.kind == "buf" {
		return u.res.name
	}
	return fmt.Sprintf("%s@%d", u.res.name, u.sub)
}

// lgEvent is something a list does to a unit, with what the runtime's
// list-local validation knows at that point (for the negative forms).
type lgEvent struct {
	cmd   *lgCmd
	trans *lgTrans           // a transition (or a split's BEGIN_ONLY); nil: a use
	state ddi.ResourceStates // a use's state
	uav   bool               // a UAV barrier (no state)
	// known: an earlier transition in the list named the unit; uses: what
	// the list's work used it as before its first transition.
	known bool
	uses  ddi.ResourceStates
	// before is the unit's state right before the event, promoted and
	// promList its promotion then; listStart its state when the list
	// starts to run (after the lists before it in the submission).
	before    ddi.ResourceStates
	promoted  bool
	promList  *lgList
	listStart ddi.ResourceStates
	judged    bool
	naive     ddi.ResourceStates // the unit's naive, when naiveSet and the list starts in eclStart
	naiveSet  bool
}

// lgTrans is one transition barrier.
type lgTrans struct {
	units         []*lgUnit
	whole         bool // AllSubresources
	before, after ddi.ResourceStates
	begin, end    *lgCmd // a split's halves (begin is the call holding the BEGIN_ONLY)
	cmd           *lgCmd // the call holding it (a split: its BEGIN_ONLY)
	line          int    // its line in the call's lines
	// rec is, per unit, the event of it.
	rec []*lgEvent
}

// lgCmd is a statement of a list: work or a ResourceBarrier call.
type lgCmd struct {
	lines []string // a call: "resource-barriers", forms..., "end"; or one line
	list  *lgList
	seq   int
	begun bool // a split was open in the list when it was recorded
}

type lgList struct {
	name  string
	q     ddi.CommandListType
	ecl   int
	cmds  []*lgCmd
	local map[*lgUnit]*lgLocal
}

// lgLocal is what the runtime's view of one list knows of a unit.
type lgLocal struct {
	known bool
	uses  ddi.ResourceStates
}

type lgGen struct {
	rng   *rand.Rand
	res   []*lgRes
	lists []*lgList
	// steps are the top-level statements, lists as "@NAME"; eclSteps the
	// index of each submission's execute among them.
	steps  []string
	queues map[ddi.CommandListType]bool
	seq    int
	list   *lgList
	open   int // split transitions begun and not ended in the list
	trans  []*lgTrans
	// states are the model's states of every unit after each submission.
	states [][]ddi.ResourceStates
	// submitCut: the negative form being written submits the list it is
	// cut in (its finding is the submission's).
	submitCut bool
}

// lgQueueStates are the states a queue type's lists may transition
// between (the layouts and syncs they stand for are the queue's):
// copy queues know only COMMON and the copy states (000 "Copy Queues").
var lgQueueStates = map[ddi.CommandListType]ddi.ResourceStates{
	ddi.CommandListTypeCompute: ddi.StateUnorderedAccess | ddi.StateNonPixelShaderResource | ddi.StateCopySource | ddi.StateCopyDest,
	ddi.CommandListTypeCopy:    ddi.StateCopySource | ddi.StateCopyDest,
}

// queueAllows reports whether a list of type q may name state s.
func queueAllows(q ddi.CommandListType, s ddi.ResourceStates) bool {
	set, ok := lgQueueStates[q]
	return !ok || s&^set == 0 && s&(s-1) == 0 // combined reads are direct-only
}

// lgPromotable is the promotion table: may a unit of r in COMMON be used
// in s (a combination) without a barrier.
func lgPromotable(r *lgRes, s ddi.ResourceStates) bool {
	const depth = ddi.StateDepthWrite | ddi.StateDepthRead
	if s&ddi.LegacyWriteStates != 0 && s&(s-1) != 0 {
		return false // a write stands alone
	}
	if r.kind == "buf" || r.kind == "sa" {
		return s&depth == 0
	}
	return s&^(ddi.StateCopyDest|ddi.StateCopySource|ddi.StateNonPixelShaderResource|ddi.StatePixelShaderResource) == 0
}

// lgLayout names the kind of layout a texture's legacy state stands
// for, as far as the driver tells them apart: LEGACY for the states
// promotion may stand in for (000 "Legacy layouts").
func lgLayout(s ddi.ResourceStates) string {
	switch s {
	case ddi.StateCommon, ddi.StateRenderTarget, ddi.StateUnorderedAccess, ddi.StateDepthWrite, ddi.StateDepthRead:
		return s.String()
	case ddi.StateCopyDest, ddi.StateCopySource, ddi.StatePixelShaderResource, ddi.StateNonPixelShaderResource:
		return "LEGACY"
	}
	return "COMBINED:" + s.String()
}

// lgDriverAgrees reports whether the driver, which judges the layout of
// a subresource the legacy layer has not taken over (judged false: its
// initial layout, which promotion leaves), finds a list's first
// transition from state w in it: only then is the legacy layer's
// message the only one. (Every resource these programs create comes
// through the legacy path, which the legacy layer judges from creation:
// regressions/legacy-created-one-message.ebs.)
func lgDriverAgrees(e *lgEvent, u *lgUnit, w ddi.ResourceStates) bool {
	if e.judged || u.res.kind == "sa" {
		return true
	}
	l0, lw := lgLayout(u.initial), lgLayout(w)
	return l0 == lw || lw == "LEGACY" && u.initial == ddi.StateCommon
}

// lgPlain reports whether a unit in state s is in a layout whose bytes
// are plain on every profile (no compression): a buffer, a
// simultaneous-access texture, COMMON or a LEGACY_* layout. A negative
// form the submission finds runs its list, and a texture in the wrong
// compressed layout would show a compression hazard of the invalid
// program's rather than the finding alone.
func lgPlain(u *lgUnit, s ddi.ResourceStates) bool {
	l := lgLayout(s)
	return u.res.kind == "buf" || u.res.kind == "sa" || l == "COMMON" || l == "LEGACY"
}

func isWrite(s ddi.ResourceStates) bool { return s&ddi.LegacyWriteStates != 0 }

// lgRole is a resource a kind of work uses.
type lgRole struct {
	kinds string // resource kinds, space-separated
	state ddi.ResourceStates
}

// lgOp is a kind of work: its roles and its text from their units.
type lgOp struct {
	queues string // d (direct), c (compute), p (copy)
	roles  []lgRole
	text   func(g *lgGen, us []*lgUnit) string
}

const (
	lgColour = "tex sa"
	lgUAV    = "tex sa buf"
	lgSRV    = "tex sa depth buf"
)

var lgOps = []lgOp{
	{"d", []lgRole{{lgColour, ddi.StateRenderTarget}}, func(_ *lgGen, u []*lgUnit) string { return "draw rt " + u[0].String() }},
	{"d", []lgRole{{"tex sa depth", ddi.StatePixelShaderResource}, {lgColour, ddi.StateRenderTarget}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("draw ps-srv %s rt %s", u[0], u[1]) }},
	{"d", []lgRole{{lgSRV, ddi.StateNonPixelShaderResource}, {lgColour, ddi.StateRenderTarget}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("draw vs-srv %s rt %s", u[0], u[1]) }},
	{"d", []lgRole{{"buf", ddi.StateVertexAndConstantBuffer}, {lgColour, ddi.StateRenderTarget}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("draw vb %s rt %s", u[0], u[1]) }},
	{"d", []lgRole{{"buf", ddi.StateIndexBuffer}, {lgColour, ddi.StateRenderTarget}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("draw ib %s rt %s", u[0], u[1]) }},
	{"d", []lgRole{{"depth", ddi.StateDepthWrite}}, func(_ *lgGen, u []*lgUnit) string { return "draw ds-write " + u[0].String() }},
	{"d", []lgRole{{"depth", ddi.StateDepthRead}, {lgColour, ddi.StateRenderTarget}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("draw ds %s rt %s", u[0], u[1]) }},
	{"dc", []lgRole{{lgUAV, ddi.StateUnorderedAccess}}, func(_ *lgGen, u []*lgUnit) string { return "dispatch uav " + u[0].String() }},
	{"dc", []lgRole{{lgSRV, ddi.StateNonPixelShaderResource}, {lgUAV, ddi.StateUnorderedAccess}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("dispatch srv %s uav %s", u[0], u[1]) }},
	{"dcp", []lgRole{{lgColour, ddi.StateCopyDest}},
		func(g *lgGen, u []*lgUnit) string {
			return fmt.Sprintf("copy-buffer-to-texture %s UP %d", u[0], 4096*g.rng.IntN(4))
		}},
	{"dcp", []lgRole{{"tex sa depth", ddi.StateCopySource}, {"buf", ddi.StateCopyDest}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("copy-texture-to-buffer %s 0 %s", u[1], u[0]) }},
	{"dcp", []lgRole{{"buf", ddi.StateCopyDest}},
		func(g *lgGen, u []*lgUnit) string {
			return fmt.Sprintf("copy-buffer %s 0 UP %d 4096", u[0], 4096*g.rng.IntN(4))
		}},
	{"dcp", []lgRole{{"buf", ddi.StateCopySource}, {"buf", ddi.StateCopyDest}},
		func(_ *lgGen, u []*lgUnit) string { return fmt.Sprintf("copy-buffer %s 0 %s 0 4096", u[1], u[0]) }},
}

// lgReadCombos are read states a transition may move a unit to when a
// read needs one of them (direct lists only: the combined read layout is
// direct-only), by resource kind.
var lgReadCombos = map[string][]ddi.ResourceStates{
	"buf": {ddi.StateGenericRead, ddi.StateNonPixelShaderResource | ddi.StateCopySource, ddi.StateVertexAndConstantBuffer | ddi.StateIndexBuffer},
	"tex": {ddi.StateAllShaderResource, ddi.StatePixelShaderResource | ddi.StateCopySource, ddi.StateNonPixelShaderResource | ddi.StateCopySource},
	"sa":  {ddi.StateAllShaderResource, ddi.StateNonPixelShaderResource | ddi.StateCopySource},
	"depth": {ddi.StateDepthRead | ddi.StatePixelShaderResource, ddi.StateDepthRead | ddi.StateNonPixelShaderResource,
		ddi.StateAllShaderResource | ddi.StateCopySource},
}

// LegacyProgram is a generated legacy program and its negative forms.
type LegacyProgram struct {
	Seed     uint64
	Positive string
	// Drop leaves a transition out, Before names a wrong StateBefore
	// ("" when the program has none that shows).
	Drop, Before string
	// States are the model's states of every subresource after each
	// submission, by "NAME@SUB".
	States []map[string]ddi.ResourceStates
}

// GenerateLegacy writes the legacy program of a seed.
func GenerateLegacy(seed uint64) LegacyProgram {
	g := &lgGen{rng: rand.New(rand.NewPCG(seed, 0x6c6567616379)), queues: map[ddi.CommandListType]bool{}}
	kinds := []string{"buf", "tex", "tex", "sa", "depth", "buf"}
	nres := 3 + g.rng.IntN(3)
	for i := range nres {
		k := kinds[g.rng.IntN(len(kinds))]
		if i < 2 { // a colour texture and a buffer, so every queue has work
			k = []string{"tex", "buf"}[i]
		}
		g.res = append(g.res, g.newRes(fmt.Sprintf("%s%d", map[string]string{"buf": "B", "tex": "T", "sa": "S", "depth": "D"}[k], i), k))
	}
	types := []ddi.CommandListType{ddi.CommandListTypeDirect, ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy}
	necl := 2 + g.rng.IntN(2)
	prev, fence := ddi.CommandListType(0), 0
	for e := range necl {
		q := types[g.rng.IntN(len(types))]
		if e == 0 {
			q = ddi.CommandListTypeDirect
		}
		g.queues[q] = true
		if e > 0 && q != prev {
			fence++
			g.steps = append(g.steps, fmt.Sprintf("signal %s F %d", lgQueueName(prev), fence), fmt.Sprintf("wait %s F %d", lgQueueName(q), fence))
		}
		for _, r := range g.res {
			for _, u := range r.units {
				u.eclStart, u.touched = u.state, false
			}
		}
		var names []string
		for range 1 + g.rng.IntN(2) {
			names = append(names, g.genList(q, e))
		}
		g.steps = append(g.steps, "execute "+lgQueueName(q)+" "+strings.Join(names, " "))
		g.execute(q)
		prev = q
	}
	p := LegacyProgram{Seed: seed, Positive: g.text(seed, "", nil, nil)}
	for _, st := range g.states {
		m := map[string]ddi.ResourceStates{}
		for i, r := range g.res {
			for j, u := range r.units {
				m[fmt.Sprintf("%s@%d", r.name, u.sub)] = st[lgIndex(g.res, i, j)]
			}
		}
		p.States = append(p.States, m)
	}
	p.Drop = g.dropForm(seed)
	p.Before = g.beforeForm(seed)
	return p
}

func lgIndex(res []*lgRes, i, j int) int {
	n := 0
	for _, r := range res[:i] {
		n += len(r.units)
	}
	return n + j
}

func lgQueueName(q ddi.CommandListType) string {
	return map[ddi.CommandListType]string{ddi.CommandListTypeDirect: "QD", ddi.CommandListTypeCompute: "QC", ddi.CommandListTypeCopy: "QP"}[q]
}

func (g *lgGen) newRes(name, kind string) *lgRes {
	r := &lgRes{name: name, kind: kind}
	var subs int
	initial := ddi.StateCommon
	switch kind {
	case "buf":
		r.decl, subs = "buffer "+name+" 8192 flags UNORDERED_ACCESS", 1
	case "tex":
		initial = []ddi.ResourceStates{ddi.StateCommon, ddi.StateCommon, ddi.StateRenderTarget, ddi.StatePixelShaderResource, ddi.StateCopyDest, ddi.StateUnorderedAccess}[g.rng.IntN(6)]
		r.decl, subs = "texture "+name+" 16x16 mips 2 array 2 flags RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE", 4
	case "sa":
		r.decl, subs = "texture "+name+" 16x16 array 2 flags RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE|SIMULTANEOUS_ACCESS", 2
	case "depth":
		initial = []ddi.ResourceStates{ddi.StateCommon, ddi.StateDepthWrite, ddi.StateDepthRead}[g.rng.IntN(3)]
		r.decl, subs = "texture "+name+" 16x16 format D32_FLOAT_S8X24_UINT array 2 flags DEPTH_STENCIL|SHADER_RESOURCE", 4
	}
	r.decl += " state " + initial.String()
	for i := range subs {
		// Every resource here is created through the legacy path, which
		// the runtime tells the driver (umd.Device.LegacyCreated): the
		// legacy layer judges it from the start.
		r.units = append(r.units, &lgUnit{res: r, sub: i, state: initial, initial: initial, judged: true})
	}
	return r
}

func (g *lgGen) genList(q ddi.CommandListType, ecl int) string {
	l := &lgList{name: fmt.Sprintf("L%d", len(g.lists)+1), q: q, ecl: ecl, local: map[*lgUnit]*lgLocal{}}
	g.lists, g.list = append(g.lists, l), l
	g.steps = append(g.steps, "@"+l.name)
	for _, r := range g.res {
		for _, u := range r.units {
			// The list's view of a unit starts with what the lists
			// before it left (no decay between them).
			if u.promList != nil && u.promList != l {
				u.promList = nil
			}
		}
	}
	for n := 2 + g.rng.IntN(5); n > 0; n-- {
		g.genOp(nil)
	}
	return l.name
}

// local is the list's record of a unit, made on first touch.
func (g *lgGen) local(u *lgUnit) *lgLocal {
	lc := g.list.local[u]
	if lc == nil {
		lc = &lgLocal{}
		g.list.local[u] = lc
	}
	return lc
}

// listStart is the state the unit is in when the current list starts to
// run: its state before the list's first event on it.
func (g *lgGen) listStart(u *lgUnit) ddi.ResourceStates {
	for _, e := range u.events {
		if e.cmd.list == g.list {
			return e.listStart
		}
	}
	return u.state
}

func (g *lgGen) event(u *lgUnit, c *lgCmd, t *lgTrans, state ddi.ResourceStates, uav bool) *lgEvent {
	lc := g.local(u)
	e := &lgEvent{cmd: c, trans: t, state: state, uav: uav, known: lc.known, uses: lc.uses,
		before: u.state, promoted: u.promoted, promList: u.promList, listStart: g.listStart(u), judged: u.judged}
	if u.naiveSet && e.listStart == u.eclStart {
		e.naive, e.naiveSet = u.naive, true
	}
	u.events = append(u.events, e)
	u.touched = u.touched || !uav // a UAV barrier is no state's business
	return e
}

func (g *lgGen) add(lines ...string) *lgCmd {
	g.seq++
	c := &lgCmd{lines: lines, list: g.list, seq: g.seq, begun: g.open > 0}
	g.list.cmds = append(g.list.cmds, c)
	return c
}

// genOp records one command, with the barriers it needs first; avoid are
// resources it may not use (those a split in progress is for).
func (g *lgGen) genOp(avoid []*lgRes) bool {
	q := g.list.q
	letter := map[ddi.CommandListType]string{ddi.CommandListTypeDirect: "d", ddi.CommandListTypeCompute: "c", ddi.CommandListTypeCopy: "p"}[q]
	if g.rng.IntN(8) == 0 && g.release(avoid) {
		return true
	}
	for try := 0; try < 20; try++ {
		op := &lgOps[g.rng.IntN(len(lgOps))]
		if !strings.Contains(op.queues, letter) {
			continue
		}
		us, ok := g.pick(op, avoid)
		if !ok {
			continue
		}
		g.prepare(op, us)
		c := g.add("  " + op.text(g, us))
		for i, u := range us {
			g.use(u, c, op.roles[i].state)
		}
		return true
	}
	return false
}

// release transitions a unit (or its whole resource) back to COMMON, as
// an application hands a resource on: from there promotion, or another
// transition, takes it.
func (g *lgGen) release(avoid []*lgRes) bool {
	var cands []*lgUnit
	for _, r := range g.res {
		if slices.Contains(avoid, r) || g.list.q == ddi.CommandListTypeCopy && r.kind == "depth" {
			continue
		}
		for _, u := range r.units {
			if u.state != ddi.StateCommon && g.reachable(u, ddi.StateCommon) && queueAllows(g.list.q, u.state) {
				cands = append(cands, u)
			}
		}
	}
	if len(cands) == 0 {
		return false
	}
	u := cands[g.rng.IntN(len(cands))]
	t := g.plan(u, ddi.StateCommon)
	t.cmd = g.add("  resource-barrier " + g.form(t, ""))
	g.transition(t)
	return true
}

// pick chooses a unit for each role: distinct resources, none avoided
// or between split halves, each able to reach the role's state on the
// list's queue.
func (g *lgGen) pick(op *lgOp, avoid []*lgRes) ([]*lgUnit, bool) {
	q := g.list.q
	var us []*lgUnit
	used := slices.Clone(avoid)
	for _, role := range op.roles {
		var cands []*lgUnit
		for _, r := range g.res {
			if !slices.Contains(strings.Fields(role.kinds), r.kind) || slices.Contains(used, r) {
				continue
			}
			if q == ddi.CommandListTypeCopy && r.kind == "depth" {
				continue
			}
			for _, u := range r.units {
				if g.reachable(u, role.state) {
					cands = append(cands, u)
				}
			}
		}
		if len(cands) == 0 {
			return nil, false
		}
		u := cands[g.rng.IntN(len(cands))]
		us, used = append(us, u), append(used, u.res)
	}
	return us, true
}

// reachable reports whether a unit can be used in s on the list's queue:
// as it is, promoted, after a UAV barrier or after a transition.
func (g *lgGen) reachable(u *lgUnit, s ddi.ResourceStates) bool {
	q := g.list.q
	if u.begun || u.res.texture() && !queueAllows(q, u.state) {
		return false // a texture in a layout the queue does not know
	}
	// A copy queue takes a texture only in COMMON (it decays there).
	if q == ddi.CommandListTypeCopy && u.res.texture() && u.eclStart != ddi.StateCommon {
		return false
	}
	if g.usable(u, s) || g.promotes(u, s) || u.dirty && u.state == s && s == ddi.StateUnorderedAccess {
		return true
	}
	if u.dirty && u.state == s {
		return false // a second write in a write state needs two transitions
	}
	return queueAllows(q, u.state)
}

// usable: the unit holds the state and nothing unordered was written.
func (g *lgGen) usable(u *lgUnit, s ddi.ResourceStates) bool {
	return !u.dirty && u.state&s == s && (!isWrite(s) || u.state == s)
}

// promotes: the unit is in COMMON, or was promoted in this list, and the
// table lets it be used in s too.
func (g *lgGen) promotes(u *lgUnit, s ddi.ResourceStates) bool {
	if u.dirty {
		return false
	}
	// A texture promoted to two reads would need a barrier from the
	// combined read layout, which it is not in (it stayed COMMON): the
	// translation has no LEGACY_* layout for it, so the generator keeps
	// a texture's promotion to one state (a finding of issue 33 item 3).
	if u.res.kind == "tex" || u.res.kind == "depth" {
		if u.state|s != s && u.state != ddi.StateCommon || u.state != ddi.StateCommon && u.state|s != u.state {
			return false
		}
	}
	return (u.state == ddi.StateCommon || u.promoted && u.promList == g.list) && lgPromotable(u.res, u.state|s)
}

// prepare writes the barriers the units need before they are used in the
// roles' states: UAV barriers, then transitions in one call or several,
// a lone one sometimes split around other work.
func (g *lgGen) prepare(op *lgOp, us []*lgUnit) {
	var forms []string
	var ts []*lgTrans
	var uavs []*lgUnit
	for i, u := range us {
		s := op.roles[i].state
		switch {
		case g.usable(u, s) || g.promotes(u, s):
		case u.dirty && u.state == s && s == ddi.StateUnorderedAccess:
			uavs = append(uavs, u)
		default:
			ts = append(ts, g.plan(u, s))
		}
	}
	for _, u := range uavs {
		all := true
		for _, v := range u.res.units {
			all = all && v.state == ddi.StateUnorderedAccess && !v.begun
		}
		// A texture's UAV barrier is translated with every subresource
		// in UNORDERED_ACCESS (legacy.Translate), which the driver
		// refuses when one is in another layout: NULL then (a finding
		// of issue 33 item 3, reported, not fixed here).
		if g.rng.IntN(3) == 0 || u.res.texture() && !all {
			forms = append(forms, "uav NULL")
		} else {
			forms = append(forms, "uav "+u.res.name)
		}
	}
	if len(ts) == 1 && len(forms) == 0 && g.open == 0 && g.rng.IntN(3) == 0 {
		g.split(ts[0], us)
		return
	}
	if g.rng.IntN(6) == 0 && g.list.q != ddi.CommandListTypeCopy { // a UAV barrier's syncs are shaders'
		forms = append(forms, "uav NULL")
	}
	if g.rng.IntN(6) == 0 {
		a, b := g.res[g.rng.IntN(len(g.res))], g.res[g.rng.IntN(len(g.res))]
		forms = append(forms, []string{"aliasing NULL NULL", "aliasing " + a.name + " NULL", "aliasing " + a.name + " " + b.name}[g.rng.IntN(3)])
	}
	if len(ts)+len(forms) == 0 {
		return
	}
	// One call, or one call each.
	together := g.rng.IntN(2) == 0
	var c *lgCmd
	emit := func(form string) (*lgCmd, int) {
		if c == nil || !together {
			c = g.add("  resource-barriers", "  end")
		}
		c.lines = slices.Insert(c.lines, len(c.lines)-1, "    "+form)
		return c, len(c.lines) - 2
	}
	for _, f := range forms {
		emit(f)
	}
	for _, u := range uavs {
		g.event(u, c, nil, 0, true)
		u.dirty = false
	}
	for _, t := range slices.Backward(ts) {
		t.cmd, t.line = emit(g.form(t, ""))
		g.transition(t)
	}
}

// plan chooses a transition of u to a state holding s.
func (g *lgGen) plan(u *lgUnit, s ddi.ResourceStates) *lgTrans {
	to := s
	if s != ddi.StateCommon && !isWrite(s) && g.list.q == ddi.CommandListTypeDirect && g.rng.IntN(3) == 0 {
		var combos []ddi.ResourceStates
		for _, c := range lgReadCombos[u.res.kind] {
			if c&s == s && c != u.state {
				combos = append(combos, c)
			}
		}
		if len(combos) > 0 {
			to = combos[g.rng.IntN(len(combos))]
		}
	}
	if to == u.state {
		// Held but dirty, or between lists: a read state it holds
		// already needs no barrier, which usable would have seen; here
		// the state differs only by being a write (handled by reachable).
		panic(fmt.Sprintf("hlk: legacy generator: %s to its own state %s", u, to))
	}
	t := &lgTrans{units: []*lgUnit{u}, before: u.state, after: to}
	// The whole resource, when every subresource is in one state and
	// none is between split halves.
	if len(u.res.units) > 1 && g.rng.IntN(2) == 0 {
		whole := true
		for _, v := range u.res.units {
			whole = whole && v.state == u.state && !v.begun
		}
		if whole {
			t.units, t.whole = u.res.units, true
		}
	} else if len(u.res.units) == 1 && g.rng.IntN(2) == 0 {
		t.whole = true
	}
	return t
}

func (g *lgGen) form(t *lgTrans, flag string) string {
	f := fmt.Sprintf("transition %s %s -> %s", t.units[0].res.name, t.before, t.after)
	if !t.whole {
		f += fmt.Sprintf(" subresource %d", t.units[0].sub)
	}
	if flag != "" {
		f += " " + flag
	}
	return f
}

// transition applies a transition (or a split's BEGIN_ONLY) to the model.
func (g *lgGen) transition(t *lgTrans) {
	g.trans = append(g.trans, t)
	for _, u := range t.units {
		t.rec = append(t.rec, g.event(u, t.cmd, t, 0, false))
		g.local(u).known = true
		u.state, u.promoted, u.promList, u.dirty = t.after, false, nil, false
	}
}

// split begins t, records up to two commands on other resources, and ends it.
func (g *lgGen) split(t *lgTrans, us []*lgUnit) {
	t.begin = g.add("  resource-barrier " + g.form(t, "begin"))
	t.cmd, t.line = t.begin, 0
	g.transition(t)
	for _, u := range t.units {
		u.begun = true
	}
	g.open++
	var avoid []*lgRes
	for _, u := range us {
		avoid = append(avoid, u.res)
	}
	for n := g.rng.IntN(3); n > 0; n-- {
		g.genOp(avoid)
	}
	g.open--
	t.end = g.add("  resource-barrier " + g.form(t, "end"))
	for _, u := range t.units {
		u.begun = false
	}
}

// use applies a command's use of a unit in state s: promotion, or the
// state it holds; a write leaves it dirty.
func (g *lgGen) use(u *lgUnit, c *lgCmd, s ddi.ResourceStates) {
	g.event(u, c, nil, s, false)
	lc := g.local(u)
	if !lc.known {
		lc.uses |= s
	}
	if !g.usable(u, s) {
		if !g.promotes(u, s) {
			panic(fmt.Sprintf("hlk: legacy generator: %s used as %s in %s", u, s, u.state))
		}
		u.state |= s
		u.promoted, u.promList = true, g.list
	}
	if isWrite(s) {
		u.dirty = true
	}
}

// execute ends a submission on a queue of type q: what it touched decays.
func (g *lgGen) execute(q ddi.CommandListType) {
	var st []ddi.ResourceStates
	for _, r := range g.res {
		for _, u := range r.units {
			decays := u.touched && (r.kind == "buf" || r.kind == "sa" || q == ddi.CommandListTypeCopy || u.promoted && !isWrite(u.state))
			switch {
			case decays && u.state != ddi.StateCommon:
				u.naive, u.naiveSet = u.state, true
			case u.touched && u.promoted:
				u.naive, u.naiveSet = ddi.StateCommon, true // a write promotion, kept
			case u.touched:
				u.naiveSet = false
			}
			if decays {
				u.state = ddi.StateCommon
			}
			u.promoted, u.promList, u.dirty = false, nil, false
			st = append(st, u.state)
			for _, e := range u.events {
				u.judged = u.judged || e.trans != nil
			}
		}
	}
	g.states = append(g.states, st)
}

// text writes the program, or a negative form: cut right after the
// command cut (with the lists before it in its submission, then its
// execute), without the transition skip (nil: none), with the
// expectations expect instead of the reference's.
func (g *lgGen) text(seed uint64, mode string, cut *lgCmd, edit func(c *lgCmd) []string, expect ...string) string {
	var b strings.Builder
	what := "its barriers from the model of legacy state; it must match the reference with no hazard and no message"
	if mode != "" {
		what = mode
	}
	fmt.Fprintf(&b, "# A random legacy program (hlk/gen/legacyrandom.go), seed %d: %s.\n", seed, what)
	fmt.Fprintf(&b, "# Reproduce: ebref hlk --suite random-legacy --random %d --seed %d\n", LegacyShare, seed)
	b.WriteString("debug\n")
	for _, r := range g.res {
		b.WriteString(r.decl + "\n")
	}
	b.WriteString("buffer UP 16384 in upload\n")
	for i := range 4 {
		fmt.Fprintf(&b, "write UP %d fill 0x%02x 4096\n", i*4096, 1+(seed+uint64(i)*41)%255)
	}
	for _, q := range []ddi.CommandListType{ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy} {
		if g.queues[q] {
			fmt.Fprintf(&b, "queue %s %s\n", lgQueueName(q), q)
		}
	}
	b.WriteString("fence F\n")
	var pending []string // lists of the submission being written
	for _, st := range g.steps {
		if !strings.HasPrefix(st, "@") {
			b.WriteString(st + "\n")
			pending = nil
			continue
		}
		l := g.lists[slices.IndexFunc(g.lists, func(l *lgList) bool { return "@"+l.name == st })]
		fmt.Fprintf(&b, "list %s %s\n", l.name, l.q)
		done := false
		for _, c := range l.cmds {
			lines := c.lines
			if edit != nil {
				lines = edit(c)
			}
			for _, line := range lines {
				b.WriteString(line + "\n")
			}
			if c == cut {
				done = true
				break
			}
		}
		b.WriteString("end\n")
		pending = append(pending, l.name)
		if done {
			// A mistake the list shows when it records needs no
			// submission; one the submission finds runs it.
			if g.submitCut {
				fmt.Fprintf(&b, "execute %s %s\n", lgQueueName(l.q), strings.Join(pending, " "))
			}
			break
		}
	}
	if mode == "" {
		b.WriteString("expect reference\nexpect no-hazard\n")
	}
	for _, e := range expect {
		b.WriteString(e + "\n")
	}
	return b.String()
}

// lgFence is the barrier a negative form puts where the mistake is: a
// legacy aliasing barrier of NULL and NULL, a global barrier that waits
// for all work and makes every write visible (E-LEGACY-ALIASING) and
// changes no state. The GPU stays ordered, so an invalid program's race
// does not stand in for the finding: the case judges the legacy layer's
// message alone.
const lgFence = "aliasing NULL NULL"

// without is an edit that puts lgFence in place of a transition's form
// (a split's BEGIN_ONLY; its END_ONLY goes).
func (t *lgTrans) without() func(c *lgCmd) []string {
	return func(c *lgCmd) []string {
		switch {
		case c == t.end:
			return nil
		case c != t.cmd:
			return c.lines
		}
		lines := slices.Clone(c.lines)
		if len(lines) == 1 {
			return []string{"  resource-barrier " + lgFence}
		}
		lines[t.line] = "    " + lgFence
		return lines
	}
}

// dropForm is the program with one transition left out, cut after the
// command that shows it, or "" when no transition shows so.
func (g *lgGen) dropForm(seed uint64) string {
	type cand struct {
		t      *lgTrans
		cut    *lgCmd
		expect string
		late   bool // found at ExecuteCommandLists
	}
	var cands []cand
	for _, t := range g.trans {
		if len(t.units) != 1 {
			continue
		}
		u, te := t.units[0], t.rec[0]
		// The next event on the unit, UAV barriers aside, in the list.
		var e *lgEvent
		for _, x := range u.events[slices.Index(u.events, te)+1:] {
			if x.cmd == t.end || x.uav {
				continue
			}
			e = x
			break
		}
		if e == nil || e.cmd.list != te.cmd.list || e.cmd.begun || e.trans != nil && e.trans.begin != nil {
			continue
		}
		list := te.cmd.list
		a := te.before
		promoted := te.promoted && te.promList == list
		var msg string
		switch {
		case e.trans == nil && te.known:
			if a&e.state == e.state || (a == ddi.StateCommon || promoted) && lgPromotable(u.res, a|e.state) {
				continue
			}
			msg = "expect error GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE in " + list.name
		case e.trans == nil:
			uses := te.uses | e.state
			if act := te.listStart; act&uses == uses || act == ddi.StateCommon && lgPromotable(u.res, uses) || !te.judged || !lgPlain(u, act) {
				continue
			}
			msg = "expect error GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE"
		case te.known:
			msg = "expect error RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH in " + list.name + " field StateBefore"
		default:
			b := e.trans.before
			if b&te.uses != te.uses {
				msg = "expect error RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH in " + list.name + " field StateBefore"
				break
			}
			if act := te.listStart; act == b || act == ddi.StateCommon && lgPromotable(u.res, b|te.uses) || !lgDriverAgrees(te, u, b) || !lgPlain(u, act) {
				continue
			}
			msg = "expect error RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH field StateBefore"
		}
		cands = append(cands, cand{t, e.cmd, msg, !strings.Contains(msg, " in ")})
	}
	if len(cands) == 0 {
		return ""
	}
	c := cands[g.rng.IntN(len(cands))]
	if late := slices.DeleteFunc(slices.Clone(cands), func(c cand) bool { return !c.late }); len(late) > 0 && g.rng.IntN(4) != 0 {
		c = late[g.rng.IntN(len(late))]
	}
	mode := fmt.Sprintf("the transition %q left out (a global barrier in its place keeps the GPU ordered), and the program cut after the command that shows it; the legacy layer must report it",
		strings.TrimSpace(g.form(c.t, "")))
	g.submitCut = c.late
	defer func() { g.submitCut = false }()
	return g.text(seed, mode, c.cut, c.t.without(), c.expect)
}

// beforeForm is the program with one transition's StateBefore wrong,
// cut after its call, or "" when none shows.
func (g *lgGen) beforeForm(seed uint64) string {
	type cand struct {
		t      *lgTrans
		w      ddi.ResourceStates
		expect string
		late   bool // found at ExecuteCommandLists
		naive  bool // the state a forgotten decay or kept promotion suggests
	}
	var cands []cand
	for _, t := range g.trans {
		if t.begin != nil || t.cmd.begun {
			continue
		}
		list := t.cmd.list
		// Wrong states to try: COMMON first, then the queue's others.
		var ws []ddi.ResourceStates
		naive := t.rec[0].naiveSet
		for _, e := range t.rec {
			naive = naive && e.naiveSet && e.naive == t.rec[0].naive
		}
		var first []ddi.ResourceStates
		if naive {
			first = append(first, t.rec[0].naive)
		}
		for _, w := range append(first, ddi.StateCommon, ddi.StateCopyDest, ddi.StateCopySource, ddi.StateNonPixelShaderResource,
			ddi.StateUnorderedAccess, ddi.StateRenderTarget, ddi.StateDepthRead, ddi.StatePixelShaderResource) {
			if slices.Contains(ws, w) || w == t.before || w == t.after || !queueAllows(list.q, w) {
				continue
			}
			if w&(ddi.StateDepthRead|ddi.StateDepthWrite) != 0 && t.units[0].res.kind != "depth" || w&ddi.StateRenderTarget != 0 && t.units[0].res.kind == "depth" ||
				w&ddi.StateRenderTarget != 0 && t.units[0].res.kind == "buf" || w&ddi.StateUnorderedAccess != 0 && t.units[0].res.kind == "depth" {
				continue
			}
			ws = append(ws, w)
		}
		for _, w := range ws {
			atRecord := false
			for _, e := range t.rec {
				atRecord = atRecord || e.known || w&e.uses != e.uses
			}
			n := 0
			for i, e := range t.rec {
				if act := e.listStart; act != w && !(act == ddi.StateCommon && lgPromotable(t.units[i].res, w|e.uses)) {
					n++
				}
				if !atRecord && (!lgDriverAgrees(e, t.units[i], w) || !lgPlain(t.units[i], e.listStart)) {
					n = -1000 // the driver would report the layout too
				}
			}
			switch {
			case atRecord:
				cands = append(cands, cand{t, w, "expect error RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH in " + list.name + " field StateBefore", false, naive && w == first[0]})
			case n > 0:
				// Found when the submission runs: what the list assumed
				// against what the submissions before left (promotion
				// and decay), the layer's memory across submissions.
				cands = append(cands, cand{t, w, fmt.Sprintf("expect error RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH field StateBefore count %d", n), true, naive && w == first[0]})
			default:
				continue
			}
			break
		}
	}
	if len(cands) == 0 {
		return ""
	}
	// Mostly a mistake about promotion and decay: the state they
	// suggest, else one the submission finds.
	c := cands[g.rng.IntN(len(cands))]
	for _, keep := range []func(c cand) bool{func(c cand) bool { return c.late }, func(c cand) bool { return c.naive }} {
		if some := slices.DeleteFunc(slices.Clone(cands), func(c cand) bool { return !keep(c) }); len(some) > 0 && g.rng.IntN(4) != 0 {
			c = some[g.rng.IntN(len(some))]
		}
	}
	right := g.form(c.t, "")
	wrong := *c.t
	wrong.before = c.w
	mode := fmt.Sprintf("the transition %q names StateBefore %s (after a global barrier that keeps the GPU ordered), and the program is cut after its call; the legacy layer must report it",
		strings.TrimSpace(right), c.w)
	edit := func(x *lgCmd) []string {
		if x != c.t.cmd {
			return x.lines
		}
		lines := slices.Clone(x.lines)
		lines[c.t.line] = strings.Replace(lines[c.t.line], right, g.form(&wrong, ""), 1)
		return append([]string{"  resource-barrier " + lgFence}, lines...)
	}
	g.submitCut = c.late
	defer func() { g.submitCut = false }()
	return g.text(seed, mode, c.t.cmd, edit, c.expect)
}
