package bench

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ebref/ebref/hlk"
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
)

// Strategies lists the strategies in report order.
var Strategies = []Strategy{Legacy, Enhanced, Oracle}

// recorded is the strategy whose scenario a strategy runs: the oracle
// runs the enhanced one.
func (s Strategy) recorded() Strategy {
	if s == Oracle {
		return Enhanced
	}
	return s
}

// compile writes a workload's frame in one strategy's barriers as a
// scenario (docs/scenarios.md): the frame's lines as written, each
// resource created in the layout (enhanced) or state (legacy) the frame
// leaves it in, so that the frame starts where the previous one ended, and
// before each work command one barrier call of what its views need since
// their last use.
func compile(w *Workload, s Strategy) (string, error) {
	cases, err := hlk.Parse(w.Name+".ebs", w.Frame, nil)
	if err != nil {
		return "", err
	}
	if len(cases) != 1 {
		return "", fmt.Errorf("%s: the frame must be one scenario, not %d", w.Name, len(cases))
	}
	c := &compiler{strategy: s, res: map[string]*tracked{}, lists: map[string]*hlk.ListStep{}, before: map[int][]string{}}
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
	return c.text(w.Frame), nil
}

// tracked is one resource as the compiler follows it.
type tracked struct {
	name    string
	texture bool
	r       *resource.Resource
	line    int // its declaration's line
	subs    []subState
	created string // the layout or state it is created in
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
}

// same reports whether two subresources' last uses were the same.
func (s subState) same(o subState) bool {
	return s.u == o.u && s.listType == o.listType && s.list == o.list && s.exec == o.exec && s.set == o.set &&
		slices.Equal(s.copied, o.copied)
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
	lists    map[string]*hlk.ListStep
	exec     int
	before   map[int][]string // lines to insert before a line (1-based), by line
}

func (c *compiler) collect(sc *hlk.Scenario) error {
	executed := map[string]bool{}
	for _, st := range sc.Steps {
		switch s := st.(type) {
		case *hlk.ResourceStep:
			if s.HasLayout || s.HasState {
				return fmt.Errorf("line %d: %s: the frame writes no layout or state; the strategy gives them", s.Line, s.Name)
			}
			d := resource.DescFromCreateResource(&s.Desc)
			r, err := resource.New(d)
			if err != nil {
				return fmt.Errorf("line %d: %s: %w", s.Line, s.Name, err)
			}
			t := &tracked{name: s.Name, texture: !d.IsBuffer(), r: r, line: s.Line, subs: make([]subState, r.SubresourceCount())}
			c.res[s.Name] = t
			c.order = append(c.order, t)
		case *hlk.ListStep:
			if s.Reset { // a second `list` of one name is the parser's error
				return fmt.Errorf("line %d: list %s: each list is recorded once", s.Line, s.Name)
			}
			if s.Flags != 0 {
				return fmt.Errorf("line %d: list %s: the frame writes no list flags; the strategy gives them", s.Line, s.Name)
			}
			c.lists[s.Name] = s
		case *hlk.ExecuteStep:
			for _, l := range s.Lists {
				if executed[l] {
					return fmt.Errorf("line %d: list %s: each list is executed once", s.Line, l)
				}
				executed[l] = true
			}
		}
	}
	return nil
}

// restart makes the previous frame's last uses the starting point.
func (c *compiler) restart() {
	c.exec = 0
	c.before = map[int][]string{}
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
			t.created = first.u.layoutOn(first.listType)
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
func (c *compiler) walk(sc *hlk.Scenario) error {
	for _, st := range sc.Steps {
		e, ok := st.(*hlk.ExecuteStep)
		if !ok {
			continue
		}
		for _, name := range e.Lists {
			l := c.lists[name] // the parser knows every list an execute names
			for _, cmd := range l.Cmds {
				if err := c.command(l, cmd); err != nil {
					return err
				}
			}
		}
		c.exec++
		if c.strategy == Legacy {
			c.decay()
		}
	}
	return nil
}

// decay is the legacy rule at the end of ExecuteCommandLists: buffers
// return to COMMON (000 "Resource State Promotion and Decay").
func (c *compiler) decay() {
	for _, t := range c.order {
		if t.texture {
			continue
		}
		for i := range t.subs {
			if t.subs[i].set {
				t.subs[i].u = use{state: "COMMON"}
			}
		}
	}
}

// need is one subresource's (or a whole resource's) use by a command.
type need struct {
	t   *tracked
	sub int // -1: every subresource
	u   use
	// copy is the region a copy writes into it; set only for copies
	// into part of a subresource
	copy *region
}

// copyRegion is the region of its destination a copy command writes, nil
// if it writes whole subresources (or is not a copy).
func (c *compiler) copyRegion(cmd hlk.Cmd) *region {
	switch cmd.Op {
	case "copy-buffer": // DST DSTOFF SRC SRCOFF SIZE
		return &region{lo: [3]uint64{cmd.Args[0], 0, 0}, hi: [3]uint64{cmd.Args[0] + cmd.Args[2], 1, 1}}
	case "copy-texture": // DST@SUB X Y Z SRC@SUB [box]
		r := region{lo: [3]uint64{cmd.Args[0], cmd.Args[1], cmd.Args[2]}}
		size := [3]uint64{}
		if b := cmd.Box; b != nil {
			size = [3]uint64{uint64(b.Right - b.Left), uint64(b.Bottom - b.Top), uint64(b.Back - b.Front)}
		} else if src := c.res[cmd.Views["4"][0].Res]; src != nil {
			fp, err := src.r.Footprint(cmd.Views["4"][0].Sub)
			if err != nil {
				return nil
			}
			size = [3]uint64{uint64(fp.Width), uint64(fp.Height), uint64(fp.Depth)}
		}
		for i := range r.hi {
			r.hi[i] = r.lo[i] + size[i]
		}
		return &r
	}
	return nil
}

// asyncCopies reports whether a list's copies, discards and resolves run
// without the implicit wait and flush (its list gets ALLOW_EXTENDED_ASYNC):
// the enhanced strategy's lists do, so the barriers say what orders them.
func (c *compiler) asyncCopies() bool { return c.strategy != Legacy }

// besideCopies reports whether a copy into region of a subresource needs
// no barrier after its last uses: copies into it in the same list, of
// regions it does not meet, with asynchronous copies (000 "Synchronous
// Copy, Discard and Resolve": independent copies may overlap).
func (c *compiler) besideCopies(prev subState, n need, l *hlk.ListStep) bool {
	// One list (which runs once): one submission.
	if !c.asyncCopies() || n.copy == nil || prev.u != useCopyDst || n.u != useCopyDst || prev.list != l.Name {
		return false
	}
	for _, r := range prev.copied {
		if r.meets(*n.copy) {
			return false
		}
	}
	return true
}

func (c *compiler) command(l *hlk.ListStep, cmd hlk.Cmd) error {
	roles, ok := uses[cmd.Op]
	if !ok {
		return fmt.Errorf("line %d: %s: the workloads' compiler does not know this command's uses", cmd.Line, cmd.Op)
	}
	var needs []need
	for _, role := range slices.Sorted(maps.Keys(cmd.Views)) { // roles in one order: the barriers' order
		views := cmd.Views[role]
		u, ok := roles[role]
		if !ok {
			return fmt.Errorf("line %d: %s %s: the workloads' compiler does not know this role's use", cmd.Line, cmd.Op, role)
		}
		for _, v := range views {
			t := c.res[v.Res]
			if t == nil {
				return fmt.Errorf("line %d: %s is not a resource of the frame", cmd.Line, v.Res)
			}
			n := need{t: t, sub: -1, u: u}
			if v.HasSub {
				n.sub = int(v.Sub)
			}
			if u.writes() && role == "0" {
				n.copy = c.copyRegion(cmd)
			}
			needs = append(needs, n)
		}
	}
	// Map order is random: barriers are written in resource order.
	var lines []string
	for _, t := range c.order {
		for _, n := range needs {
			if n.t == t {
				lines = append(lines, c.barriers(l, n)...)
			}
		}
	}
	for _, n := range needs {
		for i := range n.t.subs {
			if n.sub < 0 || n.sub == i {
				prev := n.t.subs[i]
				next := subState{u: n.u, listType: l.Type.String(), list: l.Name, exec: c.exec, set: true}
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
	if len(lines) > 0 {
		c.before[cmd.Line] = append(c.before[cmd.Line], c.call(lines)...)
	}
	return nil
}

// call wraps barrier lines in one call of the strategy's kind.
func (c *compiler) call(lines []string) []string {
	open := "call"
	if c.strategy == Legacy {
		open = "resource-barriers"
	}
	out := []string{"  " + open}
	for _, l := range lines {
		out = append(out, "    "+l)
	}
	return append(out, "  end")
}

// barriers are what one view's use needs since the last use of its
// subresources: one barrier for the whole resource when every
// subresource's last use was the same, one per subresource otherwise.
func (c *compiler) barriers(l *hlk.ListStep, n need) []string {
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
	var out []string
	for _, sub := range subs {
		prev := n.t.subs[max(sub, 0)]
		if !prev.set || c.besideCopies(prev, n, l) {
			continue
		}
		var b string
		if c.strategy == Legacy {
			b = legacyBarrier(n.t, sub, prev, n.u)
		} else {
			b = enhancedBarrier(n.t, sub, prev, n.u, l.Type.String(), c.exec)
		}
		if b != "" {
			out = append(out, b)
		}
	}
	return out
}

// legacyBarrier is the ResourceBarrier an application that tracks states
// writes: a transition when the state changes, a UAV barrier between two
// unordered-access uses, nothing between uses in one state. A buffer in
// COMMON is promoted by its use.
func legacyBarrier(t *tracked, sub int, prev subState, next use) string {
	switch {
	case prev.u.state == next.state && next.state == "UNORDERED_ACCESS":
		return "uav " + t.name
	case prev.u.state == next.state:
		return ""
	case !t.texture && prev.u.state == "COMMON":
		return ""
	}
	b := fmt.Sprintf("transition %s %s -> %s", t.name, prev.u.state, next.state)
	if sub >= 0 {
		b += fmt.Sprintf(" subresource %d", sub)
	}
	return b
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
func enhancedBarrier(t *tracked, sub int, prev subState, next use, listType string, exec int) string {
	before, after := "", ""
	if t.texture {
		before, after = prev.u.layoutOn(prev.listType), next.layoutOn(listType)
	}
	earlier := prev.exec < exec
	switch {
	case before == after && earlier:
		return ""
	case before == after && !prev.u.writes() && !next.writes():
		return ""
	case before == after && prev.u.flags&next.flags&ordered != 0 && prev.u.access == next.access:
		return ""
	}
	syncBefore, accessBefore := prev.u.sync, prev.u.access
	if earlier {
		syncBefore, accessBefore = "NONE", "NO_ACCESS"
	}
	if t.texture && next.flags&whole != 0 && before != after {
		before, accessBefore = "UNDEFINED", "NO_ACCESS"
	}
	if !t.texture {
		return fmt.Sprintf("buffer %s sync %s -> %s access %s -> %s", t.name, syncBefore, next.sync, accessBefore, next.access)
	}
	b := fmt.Sprintf("texture %s sync %s -> %s access %s -> %s layout %s -> %s", t.name, syncBefore, next.sync,
		accessBefore, next.access, before, after)
	if sub >= 0 {
		b += fmt.Sprintf(" subresources %d", sub)
	}
	return b
}

// syncCommands are the commands a list without ALLOW_EXTENDED_ASYNC runs
// synchronously (000 "Synchronous Copy, Discard and Resolve").
var syncCommands = map[string]bool{"copy-buffer": true, "copy-texture": true, "copy-resource": true,
	"copy-texture-to-buffer": true, "copy-buffer-to-texture": true, "resolve": true, "discard": true}

// text is the frame with the strategy's layouts or states and barriers.
func (c *compiler) text(frame string) string {
	created := map[int]string{}
	for _, t := range c.order {
		if t.created == "" {
			continue
		}
		if c.strategy == Legacy {
			created[t.line] = " state " + t.created
		} else {
			created[t.line] = " layout " + t.created
		}
	}
	if c.asyncCopies() {
		for _, l := range c.lists {
			if slices.ContainsFunc(l.Cmds, func(cmd hlk.Cmd) bool { return syncCommands[cmd.Op] }) {
				created[l.Line] = " flags ALLOW_EXTENDED_ASYNC"
			}
		}
	}
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimRight(frame, "\n"), "\n") {
		for _, l := range c.before[i+1] {
			b.WriteString(l + "\n")
		}
		b.WriteString(line + created[i+1] + "\n")
	}
	b.WriteString("expect reference\n")
	return b.String()
}
