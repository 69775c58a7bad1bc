package bench

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/resource"
)

// Strategy is how a workload's barriers are written.
type Strategy string

// The strategies.
const (
	// Legacy: ResourceBarrier transitions and UAV barriers, as an
	// application that tracks resource states writes them, through the
	// runtime's legacy layer (ddi/legacy).
	Legacy Strategy = "legacy"
	// Enhanced: the enhanced Barrier calls an expert writes for the same
	// frame.
	Enhanced Strategy = "enhanced"
	// Oracle: the limit. The enhanced recording, with its waits, cache
	// and surface operations replaced at the packet level by the least
	// its work's accesses need on the profile (bench/internal/oracle).
	Oracle Strategy = "oracle"
	// Translator: the enhanced recording with every Barrier call
	// translated by an author's translator (Config.Translator,
	// docs/translators.md) instead of the reference's.
	Translator Strategy = "translator"
)

// Strategies lists the strategies in report order (Translator runs when
// Config.Translator is set).
var Strategies = []Strategy{Legacy, Enhanced, Oracle, Best}

// recorded is the strategy whose scenario a strategy runs: the oracle
// and a translator run the enhanced one (a sample's own forms are
// written, not compiled: Source).
func (s Strategy) recorded() Strategy {
	if s == Oracle || s == Translator || s == Best {
		return Enhanced
	}
	return s
}

// compile writes a workload's frame in one strategy's barriers as a
// scenario (docs/scenarios.md): the frame's statements, each resource
// created in the layout (enhanced) or state (legacy) the frame leaves it
// in, so that the frame starts where the previous one ended, and before
// each work command one barrier call of what its views need since their
// last use. It builds the scenario as a syntax tree, the parsed frame with
// the strategy's calls and creation members added, and prints it with
// scenario.Format.
func compile(w *Workload, s Strategy) (string, error) {
	frame, err := frameOf(w)
	if err != nil {
		return "", err
	}
	cases := []*scenario.Scenario{frame}
	if s == Legacy {
		if err := stageSelfCopies(cases[0]); err != nil {
			return "", fmt.Errorf("%s: %w", w.Name, err)
		}
	}
	c := &compiler{strategy: s, res: map[string]*tracked{}, lists: map[string]*scenario.ListStep{}, before: map[at][]scenario.Cmd{},
		owners: map[string][]owner{}, after: map[at][]scenario.Cmd{}}
	if err := c.collect(cases[0]); err != nil {
		return "", fmt.Errorf("%s: %w", w.Name, err)
	}
	// Once to find where the frame leaves every subresource, once more
	// from there to write the barriers.
	for pass := range 2 {
		if pass == 1 {
			c.restart()
		}
		if err := c.walk(cases[0]); err != nil {
			return "", fmt.Errorf("%s: %w", w.Name, err)
		}
	}
	text, err := scenario.Format(c.build(cases[0]))
	if err != nil {
		return "", fmt.Errorf("%s (%s): %w", w.Name, s, err)
	}
	return text, nil
}

// frameOf is a workload's frame parsed: a transcribed sample's is its
// legacy form's tree without barriers (barrierFree), whose positions are
// the form's, so that an error names the line a reader finds; Frame is
// that tree printed.
func frameOf(w *Workload) (*scenario.Scenario, error) {
	if w.Sample != nil {
		return barrierFree(w.Name, w.Sample.Legacy)
	}
	cases, err := scenario.Parse(w.Name+".ebs", w.Frame, nil)
	if err != nil {
		return nil, err
	}
	if len(cases) != 1 {
		return nil, fmt.Errorf("%s: the frame must be one scenario, not %d", w.Name, len(cases))
	}
	return cases[0], nil
}

// stageName is the buffer the legacy form copies through.
const stageName = "STAGE"

// stageSelfCopies rewrites each copy of a buffer into itself as two copies
// through a staging buffer, declared first: with ResourceBarrier a buffer
// is never COPY_SOURCE and COPY_DEST at once (000 "No Self Copy"), so an
// application stages. The staging copies keep the copy's position.
func stageSelfCopies(sc *scenario.Scenario) error {
	var size uint64
	for _, st := range sc.Steps {
		if r, ok := st.(*scenario.ResourceStep); ok && r.Name == stageName {
			return fmt.Errorf("line %d: %s is the name the legacy form's staging buffer takes", r.Line, stageName)
		}
		if l, ok := st.(*scenario.ListStep); ok {
			for _, cmd := range l.Cmds {
				if selfCopy(cmd) {
					size = max(size, cmd.Args[2])
				}
			}
		}
	}
	if size == 0 {
		return nil
	}
	// The staging buffer is declared as the language declares one.
	decl, err := scenario.Parse(stageName+".ebs", fmt.Sprintf("buffer %s %d", stageName, size), nil)
	if err != nil {
		return err
	}
	sc.Steps = append([]scenario.Step{decl[0].Steps[0]}, sc.Steps...)
	stage := []scenario.ViewRef{named(stageName)}
	for _, st := range sc.Steps {
		l, ok := st.(*scenario.ListStep)
		if !ok {
			continue
		}
		var cmds []scenario.Cmd
		for _, cmd := range l.Cmds {
			if !selfCopy(cmd) {
				cmds = append(cmds, cmd)
				continue
			}
			// DST DSTOFF SRC SRCOFF SIZE: SRC into STAGE at 0, STAGE
			// into DST.
			dst, src, a := cmd.Views["0"], cmd.Views["2"], cmd.Args
			cmds = append(cmds,
				scenario.Cmd{Pos: cmd.Pos, Op: cmd.Op, Views: map[string][]scenario.ViewRef{"0": stage, "2": src}, Args: []uint64{0, a[1], a[2]}},
				scenario.Cmd{Pos: cmd.Pos, Op: cmd.Op, Views: map[string][]scenario.ViewRef{"0": dst, "2": stage}, Args: []uint64{a[0], 0, a[2]}})
		}
		l.Cmds = cmds
	}
	return nil
}

// selfCopy reports whether a command copies a buffer into itself: its
// destination and source views are one.
func selfCopy(cmd scenario.Cmd) bool {
	return cmd.Op == "copy-buffer" && cmd.Views["0"][0].String() == cmd.Views["2"][0].String()
}

// tracked is one resource as the compiler follows it.
type tracked struct {
	name    string
	texture bool
	r       *resource.Resource
	line    int                    // its declaration's line
	decl    *scenario.ResourceStep // its declaration, which build gives its layout or state
	subs    []subState
	// spans are a buffer's byte ranges by last use, for the enhanced
	// form (its buffers have no state; the legacy form follows subs)
	spans   []span
	created string // the layout or state it is created in
	// heap, at and end place a placed resource's memory
	heap    string
	at, end uint64
	// syncs are the syncs of its uses in submission exec, which a resource
	// that takes its memory in that submission waits for
	syncs []string
	exec  int
	// queues are the types of the lists that use it in the frame; a
	// texture with more than one takes generic layouts (enhanced) and is
	// handed over in a state the next queue may use (legacy)
	queues []string
}

// generic reports whether a texture takes generic layouts.
func (t *tracked) generic() bool { return len(t.queues) > 1 }

// layout is the layout a use gives the texture on a list of listType. A
// texture a copy queue uses is in the layout a copy queue may use (COMMON:
// 000 "Copy Queues") wherever that layout supports the use's access (000
// "COMMON Layout": shader-resource and copy accesses), so that no queue
// changes its layout for the copy queue; a use COMMON does not support
// takes its generic layout, and the other queue changes it back before the
// copy queue's next use (handOverLayout).
func (t *tracked) layout(u use, listType string) string {
	if t.onCopyQueue() && (listType == copyType || commonSupports(u.access)) {
		return copyLayout
	}
	return u.layoutFor(listType, t.generic())
}

// onCopyQueue reports whether a copy queue uses the texture in the frame.
func (t *tracked) onCopyQueue() bool { return t.texture && slices.Contains(t.queues, copyType) }

// legacyResource is the resource as the legacy layer's rules see it.
func (t *tracked) legacyResource() legacy.Resource {
	return legacy.Resource{Texture: t.texture, Simultaneous: t.r.Desc.IsSimultaneousAccess()}
}

// copyType is the copy queue's list type as the scenario language names it.
var copyType = ddi.CommandListTypeCopy.String()

// copyLayout is the one layout a copy queue's barriers may name besides
// UNDEFINED (ddi.Queues: COMMON, 000 "Copy Queues").
var copyLayout = func() string {
	q, _ := ddi.QueueRulesFor(ddi.CommandListTypeCopy)
	for _, l := range q.Layouts {
		if l != ddi.LayoutUndefined {
			return l.String()
		}
	}
	panic("bench: ddi.Queues gives a copy queue no layout but UNDEFINED")
}()

// commonSupports reports whether a texture in the copy queue's layout may
// be used with access, one of the uses' (uses.go).
func commonSupports(access string) bool { return commonAccesses[access] }

// commonAccesses are the uses' accesses the copy queue's layout supports
// (ddi.LayoutAccesses). The accesses are the constants of bench's table,
// so one that does not parse is bench's own mistake.
var commonAccesses = func() map[string]bool {
	l, err := ddi.ParseBarrierLayout(copyLayout)
	if err != nil {
		panic(fmt.Sprintf("bench: %s: %v", copyLayout, err))
	}
	out := map[string]bool{}
	for _, roles := range uses {
		for _, u := range roles {
			a, err := ddi.ParseBarrierAccess(u.access)
			if err != nil {
				panic(fmt.Sprintf("bench: a use's access %q: %v", u.access, err))
			}
			out[u.access] = ddi.LayoutAccessOK(l, l, a)
		}
	}
	return out
}()

// owner says which placed resource used a byte range of a heap last: the
// one that holds it (000 "Resource Aliasing").
type owner struct {
	lo, hi uint64
	t      *tracked
}

// span is a byte range of a buffer and its last use. The use is shared
// by the pieces a later use cuts it into: spans stay small, and a use
// that cuts into the middle of many moves pointers, not states.
type span struct {
	lo, hi uint64
	st     *subState
}

// subState is what a subresource's last use was and where.
type subState struct {
	u        use
	listType string
	list     string // the list it was recorded in
	exec     int    // the submission's ordinal in the frame; -1: the previous frame
	set      bool
	// copied are the regions copies have written into it since its last
	// barrier, while its last uses were copies into it in one list.
	copied []region
	// promoted: a legacy buffer's state was reached from COMMON by use
	// alone, so further reads add to it without a barrier
	promoted bool
}

// same reports whether two subresources' last uses were the same.
func (s subState) same(o subState) bool {
	return s.u == o.u && s.listType == o.listType && s.list == o.list && s.exec == o.exec && s.set == o.set &&
		slices.Equal(s.copied, o.copied) && s.promoted == o.promoted
}

// region is a box of a subresource a copy writes: texels of a texture, or
// bytes of a buffer (x only).
type region struct{ lo, hi [3]uint64 }

func (a region) meets(b region) bool {
	for i := range a.lo {
		if a.hi[i] <= b.lo[i] || b.hi[i] <= a.lo[i] {
			return false
		}
	}
	return true
}

type compiler struct {
	strategy Strategy
	res      map[string]*tracked
	order    []*tracked
	lists    map[string]*scenario.ListStep
	exec     int
	before   map[at][]scenario.Cmd // the calls to record before a command
	// owners are each heap's byte ranges by holder, kept from the first
	// pass to the second: the frame starts as it ends
	owners map[string][]owner
	// seq is the frame's commands in the order they run; pos is the next
	// one's index
	seq   []step
	pos   int
	after map[at][]scenario.Cmd // the calls to record after a command
}

// at is a command of the frame: its list and its index there.
type at struct {
	list string
	cmd  int
}

// step is one command of the frame, in its list.
type step struct {
	l   *scenario.ListStep
	cmd scenario.Cmd
}

func (c *compiler) collect(sc *scenario.Scenario) error {
	executed := map[string]bool{}
	heaps := map[string]uint64{} // sizes
	for _, st := range sc.Steps {
		switch s := st.(type) {
		case *scenario.HeapStep:
			heaps[s.Name] = s.Size
		case *scenario.ResourceStep:
			if s.HasLayout || s.HasState {
				return fmt.Errorf("line %d: %s: the frame writes no layout or state; the strategy gives them", s.Line, s.Name)
			}
			d := resource.DescFromCreateResource(&s.Desc)
			d.Alignment = s.Align // align N: a small resource's size is its 4 KiB multiple
			r, err := resource.New(d)
			if err != nil {
				return fmt.Errorf("line %d: %s: %w", s.Line, s.Name, err)
			}
			if size, ok := heaps[s.Heap]; s.Heap != "" && (!ok || s.Offset > size || r.Size > size-s.Offset) {
				// The owners of a heap's bytes are followed by range.
				return fmt.Errorf("line %d: %s: %d bytes at %d do not lie in heap %s (%d bytes)", s.Line, s.Name, r.Size, s.Offset, s.Heap, size)
			}
			t := &tracked{name: s.Name, texture: !d.IsBuffer(), r: r, line: s.Line, decl: s, subs: make([]subState, r.SubresourceCount()),
				heap: s.Heap, at: s.Offset, end: s.Offset + r.Size}
			c.res[s.Name] = t
			c.order = append(c.order, t)
		case *scenario.ListStep:
			if s.Reset { // a second `list` of one name is the parser's error
				return fmt.Errorf("line %d: list %s: each list is recorded once", s.Line, s.Name)
			}
			if s.Flags != 0 {
				return fmt.Errorf("line %d: list %s: the frame writes no list flags; the strategy gives them", s.Line, s.Name)
			}
			c.lists[s.Name] = s
			for _, cmd := range s.Cmds {
				for _, views := range cmd.Views {
					for _, v := range views {
						if t := c.res[v.Res]; t != nil && !slices.Contains(t.queues, s.Type.String()) {
							t.queues = append(t.queues, s.Type.String())
						}
					}
				}
			}
		case *scenario.ExecuteStep:
			for _, l := range s.Lists {
				if executed[l] {
					return fmt.Errorf("line %d: list %s: each list is executed once", s.Line, l)
				}
				if ls := c.lists[l]; ls != nil {
					for _, cmd := range ls.Cmds {
						c.seq = append(c.seq, step{ls, cmd})
					}
				}
				executed[l] = true
			}
		}
	}
	return nil
}

// restart makes the previous frame's last uses the starting point.
func (c *compiler) restart() {
	c.exec, c.pos = 0, 0
	c.before, c.after = map[at][]scenario.Cmd{}, map[at][]scenario.Cmd{}
	for _, t := range c.order {
		t.exec, t.syncs = -1, nil // the previous frame's
	}
	for _, t := range c.order {
		first := t.subs[0]
		t.created = ""
		switch {
		case !first.set:
		case c.strategy == Legacy && t.texture:
			t.created = first.u.state
		case c.strategy == Legacy:
			t.created = "COMMON" // buffers decay to COMMON at every ExecuteCommandLists
		case t.texture:
			t.created = t.layout(first.u, first.listType)
		}
		for i := range t.spans {
			// The previous frame's last uses, each where it was.
			t.spans[i].st.exec, t.spans[i].st.list = -1, ""
		}
		for i := range t.subs {
			// Every subresource starts as the first did; one that the
			// frame leaves otherwise gets its barrier in the frame.
			t.subs[i] = subState{u: first.u, listType: first.listType, exec: -1, set: first.set}
			if c.strategy == Legacy && !t.texture {
				t.subs[i].u = use{state: "COMMON"}
			}
		}
	}
}

// walk follows the frame in submission order: a list's commands run when
// the list is executed.
func (c *compiler) walk(sc *scenario.Scenario) error {
	for _, st := range sc.Steps {
		e, ok := st.(*scenario.ExecuteStep)
		if !ok {
			continue
		}
		for _, name := range e.Lists {
			l := c.lists[name] // the parser knows every list an execute names
			for i, cmd := range l.Cmds {
				if err := c.command(l, i, cmd); err != nil {
					return err
				}
				c.pos++
			}
			if c.strategy == Legacy {
				c.handOver(l)
			} else {
				c.handOverLayout(l)
			}
		}
		if c.strategy == Legacy {
			c.decay(c.lists[e.Lists[0]].Type)
		}
		c.exec++
	}
	return nil
}

// allows reports whether a queue of type q may hold a texture in legacy
// state s: the layout, accesses and syncs the state stands for
// (ddi.LegacyEquivalent, 000 "Legacy layouts") are ones the queue's
// barriers may name (ddi.Queues). A copy queue holds COMMON only (000
// "Copy Queues": its textures are COMMON when its submissions start).
// States and types are bench's own (uses.go, the parsed frame), so one
// that does not parse is refused.
func allows(q, s string) bool {
	st, err := ddi.ParseResourceStates(s)
	if err != nil {
		return false
	}
	e, err := ddi.LegacyEquivalent(st, true)
	if err != nil {
		return false
	}
	qt, err := ddi.ParseCommandListType(q)
	if err != nil {
		return false
	}
	rules, ok := ddi.QueueRulesFor(qt)
	return ok && rules.AllowsLayout(e.Layout) && e.Access&^rules.Accesses == 0 && e.Sync&^rules.Syncs == 0
}

// handOver is what the legacy form writes in a list for each texture it
// used whose next use, on another type of queue, cannot see the state the
// list leaves it in (000 "Compute Queues and PIXEL_SHADER_RESOURCE"): a
// transition, right after the texture's last use in the list, to the next
// use's state, or to COMMON where this queue may not use that one; one
// call after each command.
func (c *compiler) handOver(l *scenario.ListStep) {
	calls := map[int][]barrier{} // by the command they follow
	for _, t := range c.order {
		last := -1
		for i, cmd := range l.Cmds {
			if names(cmd, t.name) {
				last = i
			}
		}
		if !t.texture || len(t.queues) < 2 || last < 0 {
			continue
		}
		next, q, ok := c.nextUse(t)
		if !ok || q == l.Type.String() {
			continue
		}
		// One transition for the whole texture when its subresources
		// agree, one per subresource to hand over otherwise.
		uniform := !slices.ContainsFunc(t.subs, func(s subState) bool {
			return s.u.state != t.subs[0].u.state || s.promoted != t.subs[0].promoted || s.exec != t.subs[0].exec
		})
		for i := range t.subs {
			cur := t.subs[i].u.state
			if allows(q, cur) || c.decays(t, t.subs[i], l.Type) {
				continue
			}
			to := next.state
			if !allows(l.Type.String(), to) || !allows(q, to) {
				to = "COMMON"
			}
			sub := -1
			if !uniform {
				sub = i
			}
			calls[last] = append(calls[last], transitionOf(t.name, cur, to, sub))
			for j := range t.subs {
				if uniform || j == i {
					t.subs[j].u, t.subs[j].promoted = use{state: to}, false
				}
			}
			if uniform {
				break
			}
		}
	}
	for _, i := range slices.Sorted(maps.Keys(calls)) {
		c.after[at{l.Name, i}] = append(c.after[at{l.Name, i}], callOf(calls[i]))
	}
}

// names reports whether a command names resource name.
func names(cmd scenario.Cmd, name string) bool {
	for _, views := range cmd.Views {
		for _, v := range views {
			if v.Res == name {
				return true
			}
		}
	}
	return false
}

// nextUse is a texture's next use after the commands walked so far,
// wrapping to the next frame, and its list's type.
func (c *compiler) nextUse(t *tracked) (use, string, bool) {
	for i := range c.seq {
		st := c.seq[(c.pos+i)%len(c.seq)]
		for role, views := range st.cmd.Views {
			for _, v := range views {
				if v.Res == t.name {
					return uses[st.cmd.Op][role], st.l.Type.String(), true
				}
			}
		}
	}
	return use{}, "", false
}

// decay is the legacy rule at the end of ExecuteCommandLists on a queue
// of type q: buffers return to COMMON, and so do the texture subresources
// the submission used on a copy queue or promoted to read states alone
// (000 "Resource State Promotion and Decay", legacy.Decays).
func (c *compiler) decay(q ddi.CommandListType) {
	for _, t := range c.order {
		for i := range t.subs {
			if !t.subs[i].set {
				continue
			}
			if !t.texture || t.subs[i].exec == c.exec && c.decays(t, t.subs[i], q) {
				t.subs[i].u, t.subs[i].promoted = use{state: "COMMON"}, false
			}
		}
	}
}

// decays reports whether a texture's subresource, last used as s in the
// submission on a queue of type q, returns to COMMON at its end.
func (c *compiler) decays(t *tracked, s subState, q ddi.CommandListType) bool {
	return legacy.Decays(t.legacyResource(), q, s.promoted && !slices.ContainsFunc(stateSet(s.u.state), legacyWrite))
}

// need is one subresource's (or a whole resource's) use by a command.
type need struct {
	t   *tracked
	sub int // -1: every subresource
	u   use
	// copy is the region a copy writes into it; set only for copies
	// into part of a subresource
	copy *region
	// lo, hi are the bytes of a buffer it uses
	lo, hi uint64
}

// activate is what a command's use of a placed resource needs when other
// resources used its memory since it did (000 "Resource Aliasing"): in the
// legacy form an aliasing barrier from each one used in this submission
// (deact); in the enhanced form a barrier that deactivates each of those
// still active, its writes made available (deact), and the resource's own
// from UNDEFINED, waiting for every access to the memory in this
// submission (act), with DISCARD unless the command replaces it whole.
// The spec forbids DISCARD in the call that flushes the memory's writes:
// the command then puts the deactivations in a call of their own. It
// leaves the resource's last use unset, so no other barrier of it follows
// in the call.
func (c *compiler) activate(l *scenario.ListStep, t *tracked, needs []need) (deact []barrier, act *barrier) {
	if t.heap == "" {
		return nil, nil
	}
	var displaced []*tracked
	for _, o := range c.owners[t.heap] {
		if o.t != t && o.hi > t.at && t.end > o.lo && !slices.Contains(displaced, o.t) {
			displaced = append(displaced, o.t)
		}
	}
	if len(displaced) == 0 {
		return nil, nil
	}
	slices.SortFunc(displaced, func(a, b *tracked) int { return cmp.Compare(a.line, b.line) })
	var waits []string
	for _, x := range displaced {
		if x.exec != c.exec || len(x.syncs) == 0 {
			continue // an earlier submission's end finished and wrote back its work
		}
		if c.strategy == Legacy {
			deact = append(deact, aliasingOf(x.name, t.name))
			continue
		}
		for _, s := range x.syncs {
			addOnce(&waits, s)
		}
		deact = append(deact, c.deactivate(x)...)
	}
	if c.strategy == Legacy {
		return deact, nil
	}
	n := needs[slices.IndexFunc(needs, func(m need) bool { return m.t == t })]
	before := "NONE"
	if len(waits) > 0 {
		before = strings.Join(waits, "|")
	}
	var b barrier
	if t.texture {
		b = textureBarrierOf(t.name, before, n.u.sync, "NO_ACCESS", n.u.access, "UNDEFINED", t.layout(n.u, l.Type.String()), -1,
			n.u.flags&scenario.UseWhole == 0)
	} else {
		b = bufferBarrierOf(t.name, before, n.u.sync, "NO_ACCESS", n.u.access)
	}
	for i := range t.subs {
		t.subs[i].set = false
	}
	t.spans = nil
	return deact, &b
}

// deactivate is the barriers that end a resource's accesses in this
// submission, its writes made available, after which nothing of it may
// follow here (SyncAfter NONE, AccessAfter NO_ACCESS); none if it was
// deactivated already. Each starts where the last barriers left what it
// covers (000 "Sequential Barriers"): a buffer's joins the syncs and
// accesses of every range used in the submission, and a texture whose
// subresources were left in different uses gets one per subresource.
func (c *compiler) deactivate(x *tracked) []barrier {
	defer func() {
		for i := range x.subs {
			x.subs[i].set = false
		}
		x.spans = nil
	}()
	if c.bySpans(x) {
		var syncs, accesses []string
		for _, sp := range x.spans {
			if sp.st.set && sp.st.exec == c.exec {
				addOnce(&syncs, sp.st.u.sync)
				addOnce(&accesses, sp.st.u.access)
			}
		}
		if len(syncs) == 0 {
			return nil
		}
		return []barrier{bufferBarrierOf(x.name, strings.Join(syncs, "|"), "NONE", strings.Join(accesses, "|"), "NO_ACCESS")}
	}
	uniform := !slices.ContainsFunc(x.subs, func(s subState) bool { return !s.same(x.subs[0]) })
	var out []barrier
	for i, s := range x.subs {
		if !s.set || s.exec != c.exec || uniform && i > 0 {
			continue
		}
		lay := x.layout(s.u, s.listType)
		sub := -1
		if !uniform {
			sub = i
		}
		out = append(out, textureBarrierOf(x.name, s.u.sync, "NONE", s.u.access, "NO_ACCESS", lay, lay, sub, false))
	}
	return out
}

// addOnce adds v to a set of barrier members kept in order of first use.
func addOnce(set *[]string, v string) {
	if !slices.Contains(*set, v) {
		*set = append(*set, v)
	}
}

// hold makes a placed resource the holder of its memory.
func (c *compiler) hold(t *tracked) {
	if t.heap == "" {
		return
	}
	var out []owner
	for _, o := range c.owners[t.heap] {
		if o.hi <= t.at || t.end <= o.lo {
			out = append(out, o)
			continue
		}
		if o.lo < t.at {
			out = append(out, owner{o.lo, t.at, o.t})
		}
		if t.end < o.hi {
			out = append(out, owner{t.end, o.hi, o.t})
		}
	}
	c.owners[t.heap] = append(out, owner{t.at, t.end, t})
}

// bufferBarrier is the one barrier a command needs on a buffer (the
// enhanced form follows buffers by byte range): the bytes each of its
// uses touches need one only where an earlier use of them does (000
// "Simultaneous access, but only across queues": a buffer's disjoint
// ranges are independent), and the command's uses share one barrier,
// their syncs and accesses joined, as sequential barriers on one buffer in
// one call must (000 "Sequential Barriers").
func (c *compiler) bufferBarrier(l *scenario.ListStep, t *tracked, needs []need) (barrier, bool) {
	var syncBefore, accessBefore, syncAfter, accessAfter []string
	for _, n := range needs {
		if n.t != t {
			continue
		}
		i, j := t.meeting(n.lo, n.hi)
		for _, sp := range t.spans[i:j] {
			// A use in an earlier submission needs none: a buffer has
			// no layout, and that submission's end finished it.
			if _, ok := enhancedBarrier(t, -1, *sp.st, n.u, l.Type.String(), c.exec); !sp.st.set || !ok {
				continue
			}
			addOnce(&syncBefore, sp.st.u.sync)
			addOnce(&accessBefore, sp.st.u.access)
			addOnce(&syncAfter, n.u.sync)
			addOnce(&accessAfter, n.u.access)
		}
	}
	if len(syncAfter) == 0 {
		return barrier{}, false
	}
	return bufferBarrierOf(t.name, strings.Join(syncBefore, "|"), strings.Join(syncAfter, "|"), strings.Join(accessBefore, "|"),
		strings.Join(accessAfter, "|")), true
}

// mergeReads joins a command's reads of one subresource in different
// states into one use of the combined read state, as an application
// writes one transition to INDIRECT_ARGUMENT|INDEX_BUFFER for an
// ExecuteIndirect that reads both from one buffer.
func mergeReads(needs []need) []need {
	var out []need
	for _, n := range needs {
		i := slices.IndexFunc(out, func(o need) bool {
			return o.t == n.t && o.sub == n.sub && !o.u.writes() && !n.u.writes() && o.u.state != n.u.state
		})
		if i < 0 {
			out = append(out, n)
			continue
		}
		out[i].u.state += "|" + n.u.state
	}
	return out
}

// bySpans reports whether a resource's uses are followed by byte range:
// the enhanced form's buffers.
func (c *compiler) bySpans(t *tracked) bool { return !t.texture && c.strategy != Legacy }

// meeting is the spans [i, j) that [lo, hi) meets: spans are sorted by
// lo and disjoint, so they are found by binary search, and a command
// costs the spans it touches, not every span the buffer has.
func (t *tracked) meeting(lo, hi uint64) (i, j int) {
	i = sort.Search(len(t.spans), func(k int) bool { return t.spans[k].hi > lo })
	j = i
	for j < len(t.spans) && t.spans[j].lo < hi {
		j++
	}
	return i, j
}

// use makes st the last use of [lo, hi) of a buffer, cutting the spans it
// overlaps.
func (t *tracked) use(lo, hi uint64, st subState) {
	i, j := t.meeting(lo, hi)
	var cut [3]span
	n := 0
	if i < j && t.spans[i].lo < lo {
		cut[n], n = span{t.spans[i].lo, lo, t.spans[i].st}, n+1
	}
	cut[n], n = span{lo, hi, &st}, n+1
	if i < j && hi < t.spans[j-1].hi {
		cut[n], n = span{hi, t.spans[j-1].hi, t.spans[j-1].st}, n+1
	}
	t.spans = slices.Replace(t.spans, i, j, cut[:n]...)
}

// copyRegion is the region of its destination a copy-texture writes,
// or an error naming the box or point that leaves a subresource (the
// region is followed per texel, so it must lie inside).
func (c *compiler) copyRegion(cmd scenario.Cmd) (*region, error) {
	// DST@SUB X Y Z SRC@SUB [box]
	dst, src := cmd.Views["0"][0], cmd.Views["4"][0]
	dims := func(v scenario.ViewRef) ([3]uint64, error) {
		t := c.res[v.Res]
		if t == nil {
			return [3]uint64{}, fmt.Errorf("line %d: %s is not a resource of the frame", cmd.Line, v.Res)
		}
		fp, err := t.r.Footprint(v.Sub)
		if err != nil {
			return [3]uint64{}, fmt.Errorf("line %d: %s: %s: %w", cmd.Line, cmd.Op, v, err)
		}
		return [3]uint64{uint64(fp.Width), uint64(fp.Height), uint64(fp.Depth)}, nil
	}
	srcDims, err := dims(src)
	if err != nil {
		return nil, err
	}
	size := srcDims
	if b := cmd.Box; b != nil {
		lo, hi := [3]uint64{uint64(b.Left), uint64(b.Top), uint64(b.Front)}, [3]uint64{uint64(b.Right), uint64(b.Bottom), uint64(b.Back)}
		for i := range size {
			if hi[i] < lo[i] || hi[i] > srcDims[i] {
				return nil, fmt.Errorf("line %d: %s: the box %d..%d on axis %s leaves %s (%d texels)", cmd.Line, cmd.Op, lo[i], hi[i], axes[i], src, srcDims[i])
			}
			size[i] = hi[i] - lo[i]
		}
	}
	dstDims, err := dims(dst)
	if err != nil {
		return nil, err
	}
	r := region{lo: [3]uint64{cmd.Args[0], cmd.Args[1], cmd.Args[2]}}
	for i := range r.hi {
		if r.lo[i] > dstDims[i] || size[i] > dstDims[i]-r.lo[i] {
			return nil, fmt.Errorf("line %d: %s: %d texels from %d on axis %s leave %s (%d texels)", cmd.Line, cmd.Op, size[i], r.lo[i], axes[i], dst, dstDims[i])
		}
		r.hi[i] = r.lo[i] + size[i]
	}
	return &r, nil
}

// axes name a region's dimensions in errors.
var axes = [3]string{"x", "y", "z"}

// bytesOf is the bytes [lo, hi) of a buffer a view uses, or an error
// naming the range that leaves it.
func bytesOf(cmd scenario.Cmd, t *tracked, lo, size uint64) (uint64, uint64, error) {
	if n := t.r.DataSize; lo > n || size > n-lo {
		return 0, 0, fmt.Errorf("line %d: %s: %d bytes from %d leave %s (%d bytes)", cmd.Line, cmd.Op, size, lo, t.name, n)
	}
	return lo, lo + size, nil
}

// maxCopied is how many regions of a subresource the compiler follows
// between barriers: past it, the next copy gets a barrier, so that each
// copy costs at most this many comparisons (a frame of 20,000 tiles
// copied into one texture compiles in linear time).
const maxCopied = 64

// asyncCopies reports whether a list's copies, discards and resolves run
// without the implicit wait and flush (its list gets ALLOW_EXTENDED_ASYNC):
// the enhanced strategy's lists do, so the barriers say what orders them.
func (c *compiler) asyncCopies() bool { return c.strategy != Legacy }

// besideCopies reports whether a copy into region of a subresource needs
// no barrier after its last uses: copies into it in the same list, of
// regions it does not meet, with asynchronous copies (000 "Synchronous
// Copy, Discard and Resolve": independent copies may overlap).
func (c *compiler) besideCopies(prev subState, n need, l *scenario.ListStep) bool {
	// One list (which runs once): one submission.
	if !c.asyncCopies() || n.copy == nil || prev.u != copyDst || n.u != copyDst || prev.list != l.Name ||
		len(prev.copied) >= maxCopied {
		return false
	}
	for _, r := range prev.copied {
		if r.meets(*n.copy) {
			return false
		}
	}
	return true
}

func (c *compiler) command(l *scenario.ListStep, index int, cmd scenario.Cmd) error {
	roles, ok := uses[cmd.Op]
	if !ok {
		return fmt.Errorf("line %d: %s: the workloads' compiler does not know this command's uses", cmd.Line, cmd.Op)
	}
	var needs []need
	for _, role := range slices.Sorted(maps.Keys(cmd.Views)) { // roles in one order: the barriers' order
		views := cmd.Views[role]
		u := roles[role] // every role the language gives a compiled command has one (scenario.TestUsesCoverTheLanguage)
		for _, v := range views {
			t := c.res[v.Res]
			if t == nil {
				return fmt.Errorf("line %d: %s is not a resource of the frame", cmd.Line, v.Res)
			}
			n := need{t: t, sub: -1, u: u, hi: t.r.DataSize}
			if v.HasSub {
				n.sub = int(v.Sub)
			}
			var err error
			switch {
			case cmd.Op == "copy-buffer": // DST DSTOFF SRC SRCOFF SIZE
				off := cmd.Args[0]
				if role == "2" {
					off = cmd.Args[1]
				}
				n.lo, n.hi, err = bytesOf(cmd, t, off, cmd.Args[2])
			case v.HasRange:
				n.lo, n.hi, err = bytesOf(cmd, t, v.Offset, v.Size)
			case cmd.Op == "copy-texture" && role == "0":
				n.copy, err = c.copyRegion(cmd)
			}
			if err != nil {
				return err
			}
			if cmd.Op == "copy-buffer" && role == "0" {
				n.copy = &region{lo: [3]uint64{n.lo, 0, 0}, hi: [3]uint64{n.hi, 1, 1}}
			}
			needs = append(needs, n)
		}
	}
	if c.strategy == Legacy {
		needs = mergeReads(needs)
	}
	// Map order is random: barriers are written in resource order.
	var call, first []barrier // the command's call; first: a call of its own before it
	for _, t := range c.order {
		if slices.ContainsFunc(needs, func(n need) bool { return n.t == t }) {
			deact, act := c.activate(l, t, needs)
			if len(deact) > 0 && act != nil && act.discards() {
				first = append(first, deact...)
			} else {
				call = append(call, deact...)
			}
			if act != nil {
				call = append(call, *act)
			}
		}
	}
	for _, t := range c.order {
		if c.bySpans(t) {
			if b, ok := c.bufferBarrier(l, t, needs); ok {
				call = append(call, b)
			}
			continue
		}
		for _, n := range needs {
			if n.t == t {
				bs, err := c.barriers(l, cmd, n)
				if err != nil {
					return err
				}
				call = append(call, bs...)
			}
		}
	}
	for _, n := range needs {
		c.hold(n.t)
		if n.t.exec != c.exec {
			n.t.exec, n.t.syncs = c.exec, nil
		}
		if !slices.Contains(n.t.syncs, n.u.sync) {
			n.t.syncs = append(n.t.syncs, n.u.sync)
		}
		if c.bySpans(n.t) {
			n.t.use(n.lo, n.hi, subState{u: n.u, listType: l.Type.String(), list: l.Name, exec: c.exec, set: true})
			continue
		}
		for i := range n.t.subs {
			if n.sub < 0 || n.sub == i {
				prev := n.t.subs[i]
				next := subState{u: n.u, listType: l.Type.String(), list: l.Name, exec: c.exec, set: true}
				if c.strategy == Legacy {
					next.u.state, next.promoted = legacyState(n.t, prev, n.u)
				}
				if n.copy != nil {
					if c.besideCopies(prev, n, l) {
						next.copied = append(slices.Clip(prev.copied), *n.copy)
					} else {
						next.copied = []region{*n.copy}
					}
				}
				n.t.subs[i] = next
			}
		}
	}
	here := at{l.Name, index}
	if len(first) > 0 {
		c.before[here] = append(c.before[here], callOf(first))
	}
	if len(call) > 0 {
		c.before[here] = append(c.before[here], callOf(call))
	}
	return nil
}

// barriers are what one view's use needs since the last use of its
// subresources (a resource followed by subresource; bufferBarrier is the
// enhanced form's buffers'): one barrier for the whole resource when every
// subresource's last use was the same, one per subresource otherwise.
//
// A copy queue changes no layout and starts each submission with its
// textures in COMMON (000 "Copy Queues"; legacy: 000 "Resource State
// Promotion and Decay"): the list of another queue that leaves a texture
// otherwise hands it back (handOver, handOverLayout), and a frame in which
// none can (subresources left in different uses) is refused, not written
// wrong.
func (c *compiler) barriers(l *scenario.ListStep, cmd scenario.Cmd, n need) ([]barrier, error) {
	subs := []int{n.sub}
	if n.sub < 0 {
		uniform := true
		for _, s := range n.t.subs[1:] {
			uniform = uniform && s.same(n.t.subs[0])
		}
		if !uniform {
			subs = subs[:0]
			for i := range n.t.subs {
				subs = append(subs, i)
			}
		}
	}
	var out []barrier
	for _, sub := range subs {
		prev := n.t.subs[max(sub, 0)]
		if !prev.set || c.besideCopies(prev, n, l) {
			continue
		}
		if err := c.copyQueueStart(l, cmd, n.t, sub, prev); err != nil {
			return nil, err
		}
		var b barrier
		var ok bool
		if c.strategy == Legacy {
			b, ok = legacyBarrier(n.t, sub, prev, n.u)
		} else {
			b, ok = enhancedBarrier(n.t, sub, prev, n.u, l.Type.String(), c.exec)
		}
		if ok {
			out = append(out, b)
		}
	}
	return out, nil
}

// copyQueueStart is the error for a texture a copy list uses that the
// frame leaves, from an earlier submission, in a state other than COMMON
// (legacy) or a layout the copy queue cannot change (enhanced).
func (c *compiler) copyQueueStart(l *scenario.ListStep, cmd scenario.Cmd, t *tracked, sub int, prev subState) error {
	if l.Type.String() != copyType || !t.texture {
		return nil
	}
	left := ""
	switch {
	case c.strategy == Legacy && prev.exec < c.exec && prev.u.state != "COMMON":
		left = "state " + prev.u.state
	case c.strategy != Legacy && t.layout(prev.u, prev.listType) != copyLayout:
		left = "layout " + t.layout(prev.u, prev.listType)
	default:
		return nil
	}
	what := t.name
	if sub >= 0 {
		what = fmt.Sprintf("%s subresource %d", t.name, sub)
	}
	return fmt.Errorf("line %d: %s: %s: the copy queue needs it in COMMON (000 \"Copy Queues\"), and the frame leaves it in %s: "+
		"the workloads' compiler hands a texture back only when its subresources were last used alike, in the list before", cmd.Line, cmd.Op, what, left)
}

// legacyBarrier is the ResourceBarrier an application that tracks states
// writes: a transition when the state changes, a UAV barrier between two
// unordered-access uses, nothing for a use whose state the current one
// holds. A buffer in COMMON is promoted by its use, and one promoted to
// read states is promoted further by another read (000 "Resource State
// Promotion and Decay"; legacy-interop fact 2).
func legacyBarrier(t *tracked, sub int, prev subState, next use) (barrier, bool) {
	switch {
	case prev.u.state == next.state && next.state == "UNORDERED_ACCESS" && prev.u.writes():
		return uavOf(t.name), true
	case holds(prev.u.state, next.state):
		return barrier{}, false
	case promotes(t, prev, next):
		return barrier{}, false
	}
	return transitionOf(t.name, prev.u.state, next.state, sub), true
}

// stateSet is a legacy state's parts ("A|B").
func stateSet(s string) []string { return strings.Split(s, "|") }

// holds reports whether state s includes every part of state x.
func holds(s, x string) bool {
	parts := stateSet(s)
	for _, p := range stateSet(x) {
		if !slices.Contains(parts, p) {
			return false
		}
	}
	return true
}

// legacyWrite reports whether a part of a legacy state writes
// (ddi.LegacyWriteStates); a promoted state with one stands alone.
func legacyWrite(p string) bool {
	st, err := ddi.ParseResourceStates(p)
	return err == nil && st&ddi.LegacyWriteStates != 0
}

// promotes reports whether a subresource reaches next's state by
// promotion: from COMMON, or from read states it was promoted to, by a
// read; a texture's only to the states the legacy layer promotes a texture
// to (legacy.Promotable: copy and shader-resource states).
func promotes(t *tracked, prev subState, next use) bool {
	switch {
	case t.texture && !legacyPromotable(t, next.state):
		return false
	case prev.u.state == "COMMON":
		return true
	}
	return prev.promoted && !next.writes() && !slices.ContainsFunc(stateSet(prev.u.state), legacyWrite)
}

// legacyPromotable reports whether the texture in COMMON may be used in
// state s without a barrier (legacy.Promotable).
func legacyPromotable(t *tracked, s string) bool {
	st, err := ddi.ParseResourceStates(s)
	return err == nil && legacy.Promotable(t.legacyResource(), st)
}

// legacyState is a subresource's legacy state after a use: the use's, or,
// without a transition, the state it holds already, or that and the read
// it was promoted to as well.
func legacyState(t *tracked, prev subState, next use) (string, bool) {
	switch {
	case !prev.set:
		return next.state, false
	case holds(prev.u.state, next.state) && next.state != "UNORDERED_ACCESS":
		return prev.u.state, prev.promoted
	case promotes(t, prev, next) && prev.u.state != "COMMON":
		parts := append(stateSet(prev.u.state), next.state)
		slices.Sort(parts)
		return strings.Join(slices.Compact(parts), "|"), true
	case promotes(t, prev, next):
		return next.state, true
	}
	return next.state, false
}

// enhancedBarrier is the barrier an expert writes between two uses of a
// subresource:
//   - none between reads in one layout, nor between render-target (or
//     depth) writes, which the output merger keeps in order, nor after a use in an earlier
//     ExecuteCommandLists that left the layout as it is (its end finished
//     and flushed everything: 000 "Excessive flush operations");
//   - after an earlier submission, a layout change that neither waits nor
//     flushes (SyncBefore NONE, AccessBefore NO_ACCESS);
//   - before a command that replaces the whole subresource, a layout from
//     UNDEFINED: the old contents need no decompression (000
//     "Full-Subresource Clear, Copy or Discard");
//   - otherwise the two uses' sync and access, and their layouts.
func enhancedBarrier(t *tracked, sub int, prev subState, next use, listType string, exec int) (barrier, bool) {
	before, after := "", ""
	if t.texture {
		before, after = t.layout(prev.u, prev.listType), t.layout(next, listType)
	}
	earlier := prev.exec < exec
	switch {
	case before == after && earlier:
		return barrier{}, false
	case before == after && !prev.u.writes() && !next.writes():
		return barrier{}, false
	case before == after && prev.u.flags&next.flags&scenario.UseOrdered != 0 && prev.u.access == next.access:
		return barrier{}, false
	}
	syncBefore, accessBefore := prev.u.sync, prev.u.access
	if earlier {
		syncBefore, accessBefore = "NONE", "NO_ACCESS"
	}
	if t.texture && next.flags&scenario.UseWhole != 0 && before != after {
		before, accessBefore = "UNDEFINED", "NO_ACCESS"
	}
	if !t.texture {
		return bufferBarrierOf(t.name, syncBefore, next.sync, accessBefore, next.access), true
	}
	return textureBarrierOf(t.name, syncBefore, next.sync, accessBefore, next.access, before, after, sub, false), true
}

// syncCommands are the commands a list without ALLOW_EXTENDED_ASYNC runs
// synchronously (000 "Synchronous Copy, Discard and Resolve").
var syncCommands = map[string]bool{"copy-buffer": true, "copy-texture": true, "copy-resource": true,
	"copy-texture-to-buffer": true, "copy-buffer-to-texture": true, "resolve": true, "discard": true}

// build is the frame with the strategy's layouts or states, list flags
// and barrier calls: the parsed frame's tree, changed in place, and the
// check of the bytes.
func (c *compiler) build(sc *scenario.Scenario) *scenario.Scenario {
	for _, t := range c.order {
		switch {
		case t.created == "":
		case c.strategy == Legacy:
			t.decl.State, t.decl.HasState = statesOf(t.created), true
		default:
			t.decl.Desc.InitialBarrierLayout, t.decl.HasLayout = layoutOf(t.created), true
		}
	}
	for _, st := range sc.Steps {
		l, ok := st.(*scenario.ListStep)
		if !ok {
			continue
		}
		if c.asyncCopies() && slices.ContainsFunc(l.Cmds, func(cmd scenario.Cmd) bool { return syncCommands[cmd.Op] }) {
			l.Flags = ddi.CommandListFlagAllowExtendedAsync
		}
		cmds := make([]scenario.Cmd, 0, len(l.Cmds))
		for i, cmd := range l.Cmds {
			cmds = append(cmds, c.before[at{l.Name, i}]...)
			cmds = append(cmds, cmd)
			cmds = append(cmds, c.after[at{l.Name, i}]...)
		}
		l.Cmds = cmds
	}
	sc.Expects = append(sc.Expects, c.expectReference())
	return sc
}

// expectReference is the frame's check of the bytes: every resource's,
// but for placed ones whose memory another took since they used it (their
// bytes are the other's now).
func (c *compiler) expectReference() scenario.Expect {
	var views []scenario.ViewRef
	for _, t := range c.order {
		if t.heap == "" || !slices.ContainsFunc(c.owners[t.heap], func(o owner) bool {
			return o.t != t && o.hi > t.at && t.end > o.lo
		}) {
			views = append(views, named(t.name))
		}
	}
	if len(views) == len(c.order) {
		views = nil // every resource
	}
	return scenario.Expect{Kind: "reference", Res: views}
}
