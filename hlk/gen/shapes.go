package gen

import (
	"fmt"
	"github.com/ebref/ebref/hlk/scenario"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ebref/ebref/ddi"
)

// Shape programs (part of the suite random, files shapes-SEED*.ebs): the
// shapes random.go's derived programs never build (issue 33), each a
// fragment with its parameters drawn from the seed, two to four fragments
// a program, their steps spread over the calls, lists, submissions and
// queues the seed draws:
//
//   - touch: buffers placed side by side in one heap (touching), written,
//     then one Barrier call over all of them with the barriers in
//     ascending, descending or mixed address order, then read;
//   - atomic: a ranged atomic copy whose source a dispatch wrote with no
//     barrier since, so the copy's own ACQUIRE is what orders and shows it
//     (000 "D3D12DDI_RANGED_BARRIER_0094", errata E-RANGED-FLAGS);
//   - common: COMMON as AccessBefore or AccessAfter, on a buffer, a
//     texture (where it stands for what the layout allows) and a
//     simultaneous-access texture (where it stands for the set of errata
//     E-SA-COMMON-ACCESS);
//   - gaps: a barrier over a partial selection of subresources (one mip of
//     every slice) while a dispatch writes the unselected ones lying
//     between them;
//   - sync: a synchronous copy, discard or resolve followed by a command
//     of another stage into the same bytes (errata E-SYNC-COPY), and a
//     discard of every subresource of a simultaneous-access texture
//     followed, with no barrier, by a copy into a later one (two
//     synchronous writes through different caches, the last one winning);
//   - resolves: two resolves into one destination subresource, with no
//     barrier between them in a synchronous list and a write-after-write
//     barrier in an ALLOW_EXTENDED_ASYNC one.
//
// A program must end with the reference bytes and no hazard (`expect
// reference`). Its negative form (shapes-SEED-drop.ebs) is one fragment
// whose needed barrier can be left out without breaking a validation rule
// (no layout changes in it), alone in one list, the barrier left out:
// `expect detected`. A third file (shapes-SEED-destroy.ebs), for a third
// of the seeds, destroys placed resources while work is in flight: an
// unused neighbour goes at once, the one in use is refused
// (OBJECT_DELETED_WHILE_STILL_IN_USE, errata E-DESTROY) and goes after a
// wait-idle.

// shapeBuf is the size of a placed shape buffer: D3D12's placement
// alignment for buffers, so buffers placed one after the other touch. The
// work on one uses a window of shapeWin bytes at either end, next to a
// neighbour (window): the bytes a range cut short or run long reaches
// first, at a sixteenth of the work.
const (
	shapeBuf = 65536
	shapeWin = 4096
)

// window draws the offset of a placed buffer's window.
func (g *shapeGen) window() int { return []int{0, shapeBuf - shapeWin}[g.rng.IntN(2)] }

// view is a buffer's window as a view.
func view(b string, off int) string { return fmt.Sprintf("%s[%d+%d]", b, off, shapeWin) }

// A shapePhase is one step of a fragment: its lines and the queue types it
// may run on (queueLetters). A fragment's steps are valid in any lists
// after one another: in a later submission, a barrier orders what the end
// of the submission ordered already.
type shapePhase struct {
	queues string
	lines  []string
	// async: the lines must be in an ALLOW_EXTENDED_ASYNC list; sync: in
	// one without (0: either).
	async, sync bool
}

// A shapeFrag is one shape: its resources and steps, and, if it has one,
// the line a negative form leaves out (a barrier line of one step).
type shapeFrag struct {
	kind   string
	decls  []string // committed resources
	placed []string // buffers placed in the heap, in this order (each shapeBuf bytes)
	phases []shapePhase
	// dropPhase, dropLine: the barrier a negative form leaves out
	// (dropLine -1: none).
	dropPhase, dropLine int
}

// shapeGen is one shape program being generated.
type shapeGen struct {
	rng   *rand.Rand
	seed  uint64
	n     int // fragments so far, for names
	value int
}

func (g *shapeGen) name(base string) string { return fmt.Sprintf("%s%d", base, g.n) }

func (g *shapeGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *shapeGen) clearValue() string {
	g.value++
	return fmt.Sprintf("0x%08x", 0x20304050+uint32(g.value)*0x01010101)
}

// A buffer writer: the work, its use of the buffer (scenario.Uses: the
// sync and access a barrier gives it), and the queue types it runs on.
// All are asynchronous, so a missing barrier after them is a hazard.
type shapeUse struct {
	text string // with %s for the view
	scenario.Use
	queues string
	syncOp bool
}

var shapeWriters = []shapeUse{
	{"dispatch uav %s", scenario.Uses["dispatch"]["uav"], "DC", false},
	{"draw ps-uav %s", scenario.Uses["draw"]["ps-uav"], "D", false},
	{"clear-uav %s 0x5a5a0001", scenario.Uses["clear-uav"]["0"], "DC", false},
}

// shapeReaders read a buffer's window %[1]s (%[4]s from offset %[5]s)
// into a buffer %[2]s or render target %[3]s that nothing else uses.
var shapeReaders = []shapeUse{
	{"dispatch srv %[1]s uav %[2]s", scenario.Uses["dispatch"]["srv"], "DC", false},
	{"copy-buffer %[2]s 0 %[4]s %[5]s " + fmt.Sprint(shapeWin), scenario.Uses["copy-buffer"]["2"], "DCP", true},
	{"draw ps-srv %[1]s rt %[3]s", scenario.Uses["draw"]["ps-srv"], "D", false},
}

// GenerateShapes writes the shape program of a seed: the positive form,
// the negative one ("" when no fragment has a barrier to drop) and the
// destroy-in-flight program ("" for two seeds in three).
func GenerateShapes(seed uint64) (pos, neg, destroy string) {
	g := &shapeGen{rng: rand.New(rand.NewPCG(seed, 0x7368617065)), seed: seed}
	var frags []*shapeFrag
	for range 2 + g.rng.IntN(3) {
		g.n++
		var f *shapeFrag
		switch g.rng.IntN(6) {
		case 0:
			f = g.touch()
		case 1:
			f = g.atomic()
		case 2:
			f = g.common()
		case 3:
			f = g.gaps()
		case 4:
			f = g.syncFollow()
		default:
			f = g.resolves()
		}
		frags = append(frags, f)
	}
	pos = g.program(frags, -1, "its barriers written for each shape; it must match the reference with no hazard")
	var droppable []int
	for i, f := range frags {
		if f.dropLine >= 0 {
			droppable = append(droppable, i)
		}
	}
	if len(droppable) > 0 {
		i := droppable[g.rng.IntN(len(droppable))]
		neg = g.program(frags[i:i+1], 0, "one shape alone, its needed barrier left out (the #drop line); the judge must see a hazard or wrong bytes")
	}
	if g.rng.IntN(3) == 0 {
		destroy = g.destroyInFlight()
	}
	return pos, neg, destroy
}

// A shapeSeg is one list of the program: its type, whether it is
// ALLOW_EXTENDED_ASYNC, and the submission it belongs to.
type shapeSeg struct {
	q     ddi.CommandListType
	async bool
	sub   int
	lines []string
}

// program lays the fragments' steps out over lists, submissions and
// queues and writes the program; drop >= 0: a negative form, all in one
// direct list with the fragment's drop line commented out.
func (g *shapeGen) program(frags []*shapeFrag, drop int, mode string) string {
	var segs []*shapeSeg
	if drop >= 0 {
		f := frags[0]
		seg := &shapeSeg{q: direct, async: f.needsAsync()}
		for pi, ph := range f.phases {
			for li, l := range ph.lines {
				if pi == f.dropPhase && li == f.dropLine {
					var out []string
					for _, part := range strings.Split(l, "\n") {
						out = append(out, "#drop: "+strings.TrimSpace(part))
					}
					l = strings.Join(out, "\n")
				}
				seg.lines = append(seg.lines, l)
			}
		}
		segs = []*shapeSeg{seg}
	} else {
		segs = g.layout(frags)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# A shape program (hlk/gen/shapes.go), seed %d: %s.\n# Reproduce: ebref hlk --suite random --random 8 --seed %d --run shapes-%d\n", g.seed, mode, g.seed, g.seed)
	if drop < 0 {
		b.WriteString("debug\n")
	}
	var placed []string
	for _, f := range frags {
		placed = append(placed, f.placed...)
	}
	if len(placed) > 0 {
		fmt.Fprintf(&b, "heap H default 0x%x\n", len(placed)*shapeBuf)
		for i, p := range placed {
			fmt.Fprintf(&b, "buffer %s %d flags UNORDERED_ACCESS at H 0x%x\n", p, shapeBuf, i*shapeBuf)
		}
	}
	for _, f := range frags {
		for _, d := range f.decls {
			b.WriteString(d + "\n")
		}
	}
	fmt.Fprintf(&b, "buffer UP %d in upload\n", shapeBuf)
	for i := range 16 {
		fmt.Fprintf(&b, "write UP %d fill 0x%02x %d\n", i*4096, 1+(g.seed+uint64(i)*37)%255, 4096)
	}
	used := map[ddi.CommandListType]bool{}
	for _, s := range segs {
		used[s.q] = true
	}
	for _, q := range queueNames {
		if used[q.t] {
			fmt.Fprintf(&b, "queue %s %s\n", q.name, q.t)
		}
	}
	b.WriteString("fence F\n")
	qname := func(t ddi.CommandListType) string {
		return queueNames[slices.IndexFunc(queueNames, func(n queueName) bool { return n.t == t })].name
	}
	fence := 0
	var prevQ ddi.CommandListType
	for i := 0; i < len(segs); {
		j := i
		var names []string
		for ; j < len(segs) && segs[j].sub == segs[i].sub; j++ {
			s := segs[j]
			fmt.Fprintf(&b, "list L%d %s", j+1, s.q)
			if s.async {
				b.WriteString(" flags ALLOW_EXTENDED_ASYNC")
			}
			b.WriteString("\n")
			for _, l := range s.lines {
				b.WriteString("  " + l + "\n")
			}
			b.WriteString("end\n")
			names = append(names, fmt.Sprintf("L%d", j+1))
		}
		q := segs[i].q
		if i > 0 && q != prevQ {
			fence++
			fmt.Fprintf(&b, "signal %s F %d\nwait %s F %d\n", qname(prevQ), fence, qname(q), fence)
		}
		fmt.Fprintf(&b, "execute %s %s\n", qname(q), strings.Join(names, " "))
		prevQ = q
		i = j
	}
	if drop >= 0 {
		b.WriteString("expect detected\n")
	} else {
		b.WriteString("expect reference\n")
	}
	return b.String()
}

// needsAsync reports whether some step of the fragment must run in an
// ALLOW_EXTENDED_ASYNC list.
func (f *shapeFrag) needsAsync() bool {
	return slices.ContainsFunc(f.phases, func(p shapePhase) bool { return p.async })
}

// layout draws the lists (one to four, each of a queue type, some
// ALLOW_EXTENDED_ASYNC, grouped into one to three submissions) and puts
// each fragment's steps into them in order: a step goes into a list at or
// after its previous step's, of a type it runs on, and into the same
// submission when it must share one. The last list is a direct one of
// the last submission, in which every step runs, so every step has a
// place.
func (g *shapeGen) layout(frags []*shapeFrag) []*shapeSeg {
	var segs []*shapeSeg
	sub := 0
	for i := range g.rng.IntN(4) {
		s := &shapeSeg{q: []ddi.CommandListType{direct, direct, compute, copyQ}[g.rng.IntN(4)], sub: sub, async: g.rng.IntN(4) == 0}
		if i > 0 && (s.q != segs[i-1].q || g.rng.IntN(2) == 0) {
			sub++ // a list of another type is another submission, on its queue
			s.sub = sub
		}
		segs = append(segs, s)
	}
	// A last submission of two direct lists, one of each flavour, where
	// every step runs: every step has a place.
	if len(segs) > 0 && (segs[len(segs)-1].q != direct || g.rng.IntN(2) == 0) {
		sub++
	}
	flavour := g.rng.IntN(2) == 0
	segs = append(segs, &shapeSeg{q: direct, sub: sub, async: flavour}, &shapeSeg{q: direct, sub: sub, async: !flavour})
	// Each fragment's steps, interleaved with the others' in a random
	// order that keeps each fragment's own.
	type cursor struct {
		f    *shapeFrag
		next int
		seg  int
	}
	var cur []*cursor
	for _, f := range frags {
		cur = append(cur, &cursor{f: f})
	}
	for len(cur) > 0 {
		k := g.rng.IntN(len(cur))
		c := cur[k]
		ph := c.f.phases[c.next]
		var fits []int
		for i := c.seg; i < len(segs); i++ {
			s := segs[i]
			if !strings.Contains(ph.queues, queueLetters[s.q]) || ph.async && !s.async || ph.sync && s.async {
				continue
			}
			fits = append(fits, i)
		}
		if len(fits) == 0 {
			panic(fmt.Sprintf("hlk: shape seed %d: no list for step %d of %s", g.seed, c.next, c.f.kind))
		}
		// Three times in four a step stays in its previous step's
		// submission where it can: a barrier then orders work the end
		// of a submission has not.
		if same := slices.DeleteFunc(slices.Clone(fits), func(i int) bool { return segs[i].sub != segs[c.seg].sub }); c.next > 0 && len(same) > 0 && g.rng.IntN(4) != 0 {
			fits = same
		}
		// Mostly near: a step follows its previous one closely.
		at := fits[min(len(fits)-1, g.rng.IntN(1+g.rng.IntN(len(fits))))]
		segs[at].lines = append(segs[at].lines, ph.lines...)
		c.seg = at
		c.next++
		if c.next == len(c.f.phases) {
			cur = slices.Delete(cur, k, k+1)
		}
	}
	return slices.DeleteFunc(segs, func(s *shapeSeg) bool { return len(s.lines) == 0 })
}

// touch: two or three buffers placed side by side, written, one barrier
// call over all of them in a drawn address order, then read.
func (g *shapeGen) touch() *shapeFrag {
	f := &shapeFrag{kind: "touch"}
	k := 2 + g.rng.IntN(2)
	names := make([]string, k)
	for i := range names {
		names[i] = fmt.Sprintf("T%d_%d", g.n, i)
	}
	f.placed = names
	w := shapeWriters[g.rng.IntN(len(shapeWriters))]
	r := shapeReaders[g.rng.IntN(len(shapeReaders))]
	var writes, reads []string
	offs := map[string]int{}
	for i, n := range names {
		out := fmt.Sprintf("TO%d_%d", g.n, i)
		f.decls = append(f.decls, fmt.Sprintf("buffer %s %d flags UNORDERED_ACCESS", out, shapeWin))
		if strings.Contains(r.text, "%[3]s") {
			f.decls = append(f.decls, fmt.Sprintf("texture %sRT 8x8 flags RENDER_TARGET layout RENDER_TARGET", out))
		}
		off := g.window()
		offs[n] = off
		writes = append(writes, fmt.Sprintf(w.text, view(n, off)))
		reads = append(reads, subst(r.text, view(n, off), out, out+"RT", n, fmt.Sprint(off)))
	}
	order := slices.Clone(names)
	switch g.rng.IntN(3) {
	case 0: // ascending, as placed
	case 1:
		slices.Reverse(order)
	default:
		g.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	call := []string{"call"}
	for _, n := range order {
		call = append(call, fmt.Sprintf("  buffer %s sync %s -> %s access %s -> %s", n, w.Sync, r.Sync, w.Access, r.Access))
	}
	call = append(call, "end")
	if g.rng.IntN(3) == 0 {
		// The 0088 entry point, its ranged barriers over each buffer's
		// window alone.
		call = []string{"call-0088"}
		for _, n := range order {
			call = append(call, fmt.Sprintf("  ranged %s sync %s -> %s access %s -> %s flags ATOMIC_COPY subresources 0 range %d+%d", n, w.Sync, r.Sync, w.Access, r.Access, offs[n], shapeWin))
		}
		call = append(call, "end")
	}
	q := common(w.queues, r.queues)
	f.phases = []shapePhase{{queues: w.queues, lines: writes}, {queues: q, lines: []string{strings.Join(call, "\n  ")}}, {queues: r.queues, lines: reads}}
	f.dropPhase, f.dropLine = 1, 0
	return f
}

// subst fills a template's %[1]s, %[2]s, ... with args (those it names).
func subst(t string, args ...string) string {
	var pairs []string
	for i, a := range args {
		pairs = append(pairs, fmt.Sprintf("%%[%d]s", i+1), a)
	}
	return strings.NewReplacer(pairs...).Replace(t)
}

// common is the queue letters both sets have.
func common(a, b string) string {
	var out []byte
	for i := range len(a) {
		if strings.IndexByte(b, a[i]) >= 0 {
			out = append(out, a[i])
		}
	}
	return string(out)
}

// atomic: a dispatch writes a buffer and an atomic copy reads a few of
// its bytes with no barrier between them but its own ranged ones.
func (g *shapeGen) atomic() *shapeFrag {
	f := &shapeFrag{kind: "atomic", dropLine: -1}
	src, dst, out := g.name("AS"), g.name("AD"), g.name("AO")
	off := 0
	if g.rng.IntN(2) == 0 {
		f.placed, off = []string{src}, g.window()
	} else {
		f.decls = append(f.decls, fmt.Sprintf("buffer %s %d flags UNORDERED_ACCESS", src, shapeWin))
	}
	f.decls = append(f.decls, fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", dst), fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out))
	w := shapeWriters[g.rng.IntN(len(shapeWriters))]
	var copies []string
	for range 1 + g.rng.IntN(2) {
		wide := g.rng.IntN(2) == 0
		n := 4
		if wide {
			n = 8
		}
		at := g.rng.IntN(4096/n) * n
		line := fmt.Sprintf("atomic-copy %s %d %s %d", dst, at, src, off+g.rng.IntN(shapeWin/n)*n)
		if wide {
			line += " 64"
		}
		copies = append(copies, line)
	}
	read := g.pick("dispatch srv %[1]s uav %[2]s", "copy-buffer %[2]s 0 %[1]s 0 4096")
	ru, rq := scenario.Uses["dispatch"]["srv"], "DC"
	if strings.HasPrefix(read, "copy") {
		ru, rq = scenario.Uses["copy-buffer"]["2"], "DCP"
	}
	rs, ra := ru.Sync, ru.Access
	f.phases = []shapePhase{
		{queues: w.queues, lines: []string{fmt.Sprintf(w.text, view(src, off))}},
		{queues: "DCP", lines: copies},
		{queues: rq, lines: []string{fmt.Sprintf("barrier buffer %s sync COPY -> %s access COPY_DEST -> %s", dst, rs, ra), fmt.Sprintf(read, dst, out)}},
	}
	return f
}

// commonAccess: COMMON as the access before or after a barrier on a
// buffer, a texture or a simultaneous-access texture.
func (g *shapeGen) common() *shapeFrag {
	f := &shapeFrag{kind: "common", dropLine: -1}
	before := g.rng.IntN(2) == 0 // COMMON before; else after
	accs := func(a, b ddi.BarrierAccess) (string, string) {
		if before {
			return "COMMON", b.String()
		}
		return a.String(), "COMMON"
	}
	switch g.rng.IntN(3) {
	case 0: // a buffer
		b, out := g.name("CB"), g.name("CO")
		off := 0
		if g.rng.IntN(2) == 0 {
			f.placed, off = []string{b}, g.window()
		} else {
			f.decls = append(f.decls, fmt.Sprintf("buffer %s %d flags UNORDERED_ACCESS", b, shapeWin))
		}
		f.decls = append(f.decls, fmt.Sprintf("buffer %s %d flags UNORDERED_ACCESS", out, shapeWin), fmt.Sprintf("texture %sRT 8x8 flags RENDER_TARGET layout RENDER_TARGET", out))
		w := shapeWriters[g.rng.IntN(len(shapeWriters))]
		r := shapeReaders[g.rng.IntN(len(shapeReaders))]
		a, c := accs(w.Access, r.Access)
		f.phases = []shapePhase{
			{queues: w.queues, lines: []string{fmt.Sprintf(w.text, view(b, off))}},
			{queues: common(w.queues, r.queues), lines: []string{fmt.Sprintf("barrier buffer %s sync %s -> %s access %s -> %s", b, w.Sync, r.Sync, a, c)}},
			{queues: r.queues, lines: []string{subst(r.text, view(b, off), out, out+"RT", b, fmt.Sprint(off))}},
		}
		f.dropPhase, f.dropLine = 1, 0
	case 1: // a texture, from a writing layout to a reading one
		t, out := g.name("CT"), g.name("CO")
		f.decls = append(f.decls, fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out))
		if g.rng.IntN(2) == 0 {
			f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 mips 2 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET", t))
			a, c := accs(ddi.AccessRenderTarget, ddi.AccessShaderResource)
			f.phases = []shapePhase{
				{queues: "D", lines: []string{fmt.Sprintf("clear-rt %s %s", t, g.clearValue()), fmt.Sprintf("draw rt %s@0", t)}},
				{queues: "D", lines: []string{fmt.Sprintf("barrier texture %s sync RENDER_TARGET -> COMPUTE_SHADING access %s -> %s layout RENDER_TARGET -> SHADER_RESOURCE", t, a, c),
					fmt.Sprintf("dispatch srv %s uav %s", t, out)}},
			}
		} else {
			f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 array 2 flags UNORDERED_ACCESS|SHADER_RESOURCE layout UNORDERED_ACCESS", t))
			a, c := accs(ddi.AccessUnorderedAccess, ddi.AccessCopySource)
			f.phases = []shapePhase{
				{queues: "D", lines: []string{fmt.Sprintf("dispatch uav %s", t)}},
				{queues: "D", lines: []string{fmt.Sprintf("barrier texture %s sync COMPUTE_SHADING -> COPY access %s -> %s layout UNORDERED_ACCESS -> COPY_SOURCE", t, a, c),
					fmt.Sprintf("copy-texture-to-buffer %s 0 %s@1", out, t)}},
			}
		}
	default: // a simultaneous-access texture, always in COMMON
		t, out := g.name("CS"), g.name("CO")
		f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 flags RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE|SIMULTANEOUS_ACCESS layout COMMON", t),
			fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out))
		type use struct {
			text string
			scenario.Use
		}
		ws := []use{{"draw rt %[1]s", scenario.Uses["draw"]["rt"]}, {"dispatch uav %[1]s", scenario.Uses["dispatch"]["uav"]},
			{"clear-rt %[1]s " + g.clearValue(), scenario.Uses["clear-rt"]["0"]}}
		rs := []use{{"dispatch srv %[1]s uav %[2]s", scenario.Uses["dispatch"]["srv"]},
			{"copy-texture-to-buffer %[2]s 0 %[1]s@0", scenario.Uses["copy-texture-to-buffer"]["2"]}}
		w, r := ws[g.rng.IntN(len(ws))], rs[g.rng.IntN(len(rs))]
		a, c := accs(w.Access, r.Access)
		f.phases = []shapePhase{
			{queues: "D", lines: []string{subst(w.text, t)}},
			{queues: "D", lines: []string{fmt.Sprintf("barrier texture %s sync %s -> %s access %s -> %s layout COMMON -> COMMON", t, w.Sync, r.Sync, a, c)}},
			{queues: "D", lines: []string{subst(r.text, t, out)}},
		}
		f.dropPhase, f.dropLine = 1, 0
	}
	return f
}

// gaps: a texture of two mips and three slices; a barrier moves one mip
// of every slice (subresources with the other mip's between them) from
// render target to shader resource while a dispatch writes the other mip.
func (g *shapeGen) gaps() *shapeFrag {
	f := &shapeFrag{kind: "gaps", dropLine: -1}
	t, out, out2 := g.name("GT"), g.name("GO"), g.name("GU")
	slices := 2 + g.rng.IntN(2)
	f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 mips 2 array %d flags RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE layout UNORDERED_ACCESS", t, slices),
		fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out), fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out2))
	m := g.rng.IntN(2) // the selected mip; the other is the gaps
	sel := fmt.Sprintf("subresources mips %d+1", m)
	var clears, srvs, gapWork []string
	for s := range slices {
		clears = append(clears, fmt.Sprintf("clear-rt %s@%d %s", t, m+2*s, g.clearValue()))
		srvs = append(srvs, fmt.Sprintf("%s@%d", t, m+2*s))
		gapWork = append(gapWork, fmt.Sprintf("%s@%d", t, 1-m+2*s))
	}
	f.phases = []shapePhase{
		{queues: "D", lines: append([]string{fmt.Sprintf("barrier texture %s sync NONE -> RENDER_TARGET access NO_ACCESS -> RENDER_TARGET layout UNORDERED_ACCESS -> RENDER_TARGET %s", t, sel)}, clears...)},
		{queues: "D", lines: []string{
			// The gaps, written while the selection changes layout.
			fmt.Sprintf("dispatch uav %s", strings.Join(gapWork, " ")),
			fmt.Sprintf("barrier texture %s sync RENDER_TARGET -> COMPUTE_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> SHADER_RESOURCE %s", t, sel),
			fmt.Sprintf("dispatch srv %s uav %s", strings.Join(srvs, " "), out)}},
		{queues: "D", lines: []string{
			fmt.Sprintf("barrier texture %s sync COMPUTE_SHADING -> COMPUTE_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> SHADER_RESOURCE subresources mips %d+1", t, 1-m),
			fmt.Sprintf("dispatch srv %s uav %s", strings.Join(gapWork, " "), out2)}},
	}
	return f
}

// syncFollow: a synchronous copy, discard or resolve, then a command of
// another stage into the same bytes after the barrier it needs.
func (g *shapeGen) syncFollow() *shapeFrag {
	f := &shapeFrag{kind: "sync", dropLine: -1}
	async := g.rng.IntN(3) == 0 // the same shape with the copy asynchronous
	switch g.rng.IntN(5) {
	case 4:
		// A discard of every subresource of a simultaneous-access texture,
		// then a copy into a later one with no barrier: two synchronous
		// writes through different caches (COLOR, the copy's), which
		// E-SYNC-COPY orders, the last one winning. Only the discard's
		// write-back over all it wrote keeps its older bytes from landing
		// over the copy's later.
		t := g.name("SW")
		n := 2 + g.rng.IntN(2)
		f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 array %d flags RENDER_TARGET|SHADER_RESOURCE|SIMULTANEOUS_ACCESS layout COMMON", t, n))
		f.phases = []shapePhase{
			{queues: "D", lines: []string{fmt.Sprintf("clear-rt %s %s", t, g.clearValue()), fmt.Sprintf("discard %s", t)}},
			{queues: "D", lines: []string{fmt.Sprintf("copy-buffer-to-texture %s@%d UP %d", t, 1+g.rng.IntN(n-1), g.rng.IntN(14)*4096)}},
		}
		for i := range f.phases {
			f.phases[i].sync = true
		}
		return f
	case 0: // a buffer copy, then a dispatch reading or rewriting it
		b, out := g.name("SB"), g.name("SO")
		off := 0
		if g.rng.IntN(2) == 0 {
			f.placed, off = []string{b}, g.window()
		} else {
			f.decls = append(f.decls, fmt.Sprintf("buffer %s %d flags UNORDERED_ACCESS", b, shapeWin))
		}
		f.decls = append(f.decls, fmt.Sprintf("buffer %s %d flags UNORDERED_ACCESS", out, shapeWin))
		after := g.pick("dispatch uav %[1]s", "dispatch srv %[1]s uav %[2]s")
		acc := ddi.AccessUnorderedAccess
		if strings.Contains(after, "srv") {
			acc = ddi.AccessShaderResource
		}
		// A copy of several hundred bytes up to the window's end.
		at := g.rng.IntN(8) * 256
		f.phases = []shapePhase{
			{queues: "DCP", lines: []string{fmt.Sprintf("copy-buffer %s %d UP %d %d", b, off+at, g.rng.IntN(15)*4096, shapeWin-at)}},
			{queues: "DC", lines: []string{fmt.Sprintf("barrier buffer %s sync COPY -> COMPUTE_SHADING access COPY_DEST -> %s", b, acc), subst(after, view(b, off), out)}},
		}
		f.dropPhase, f.dropLine = 1, 0
	case 1: // a footprint copy into a texture of several rows, then sampled
		t, out := g.name("ST"), g.name("SO")
		f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 array 2 flags UNORDERED_ACCESS|SHADER_RESOURCE layout COPY_DEST", t),
			fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out))
		sub := g.rng.IntN(2)
		after := []string{fmt.Sprintf("barrier texture %s sync COPY -> COMPUTE_SHADING access COPY_DEST -> UNORDERED_ACCESS layout COPY_DEST -> UNORDERED_ACCESS subresources %d", t, sub),
			fmt.Sprintf("dispatch uav %s@%d", t, sub)}
		if g.rng.IntN(2) == 0 {
			after = []string{fmt.Sprintf("barrier texture %s sync COPY -> COMPUTE_SHADING access COPY_DEST -> SHADER_RESOURCE layout COPY_DEST -> SHADER_RESOURCE subresources %d", t, sub),
				fmt.Sprintf("dispatch srv %s@%d uav %s", t, sub, out)}
		}
		f.phases = []shapePhase{
			{queues: "D", lines: []string{fmt.Sprintf("copy-buffer-to-texture %s@%d UP %d", t, sub, g.rng.IntN(14)*4096)}},
			{queues: "D", lines: after},
		}
	case 2: // a discard of a render target, then a dispatch writing it
		t := g.name("SD")
		f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 flags RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE layout RENDER_TARGET", t))
		f.phases = []shapePhase{
			{queues: "D", lines: []string{fmt.Sprintf("clear-rt %s %s", t, g.clearValue()), fmt.Sprintf("discard %s", t)}},
			{queues: "D", lines: []string{fmt.Sprintf("barrier texture %s sync RENDER_TARGET -> COMPUTE_SHADING access RENDER_TARGET -> UNORDERED_ACCESS layout RENDER_TARGET -> UNORDERED_ACCESS", t),
				fmt.Sprintf("dispatch uav %s", t)}},
		}
	default: // a resolve, then the destination read by a dispatch
		ms, d, out := g.name("SM"), g.name("SR"), g.name("SO")
		f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 samples 4 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET", ms),
			fmt.Sprintf("texture %s 8x8 flags RENDER_TARGET|SHADER_RESOURCE layout COMMON", d),
			fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out))
		f.phases = []shapePhase{
			{queues: "D", lines: []string{fmt.Sprintf("clear-rt %s %s", ms, g.clearValue()),
				fmt.Sprintf("call\n    texture %s sync RENDER_TARGET -> RESOLVE access RENDER_TARGET -> RESOLVE_SOURCE layout RENDER_TARGET -> RESOLVE_SOURCE\n    texture %s sync NONE -> RESOLVE access NO_ACCESS -> RESOLVE_DEST layout COMMON -> RESOLVE_DEST\n  end", ms, d),
				fmt.Sprintf("resolve %s@0 %s@0", d, ms)}},
			{queues: "D", lines: []string{fmt.Sprintf("barrier texture %s sync RESOLVE -> COMPUTE_SHADING access RESOLVE_DEST -> SHADER_RESOURCE layout RESOLVE_DEST -> SHADER_RESOURCE", d),
				fmt.Sprintf("dispatch srv %s uav %s", d, out)}},
		}
	}
	for i := range f.phases {
		f.phases[i].async, f.phases[i].sync = async, !async
	}
	if !async {
		f.dropLine = -1 // the synchronous command's own wait orders it: no hazard need show
	}
	return f
}

// resolves: two multisampled targets resolved into one subresource, the
// second after the first.
func (g *shapeGen) resolves() *shapeFrag {
	f := &shapeFrag{kind: "resolves", dropLine: -1}
	m1, m2, d, out := g.name("RM"), g.name("RN"), g.name("RD"), g.name("RO")
	f.decls = append(f.decls, fmt.Sprintf("texture %s 8x8 samples 4 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET", m1),
		fmt.Sprintf("texture %s 8x8 samples 4 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET", m2),
		fmt.Sprintf("texture %s 8x8 flags RENDER_TARGET|SHADER_RESOURCE layout COMMON", d),
		fmt.Sprintf("buffer %s 4096 flags UNORDERED_ACCESS", out))
	async := g.rng.IntN(2) == 0
	prep := []string{fmt.Sprintf("clear-rt %s %s", m1, g.clearValue()), fmt.Sprintf("clear-rt %s %s", m2, g.clearValue()),
		fmt.Sprintf("call\n    texture %s sync RENDER_TARGET -> RESOLVE access RENDER_TARGET -> RESOLVE_SOURCE layout RENDER_TARGET -> RESOLVE_SOURCE\n    texture %s sync RENDER_TARGET -> RESOLVE access RENDER_TARGET -> RESOLVE_SOURCE layout RENDER_TARGET -> RESOLVE_SOURCE\n    texture %s sync NONE -> RESOLVE access NO_ACCESS -> RESOLVE_DEST layout COMMON -> RESOLVE_DEST\n  end", m1, m2, d)}
	second := []string{fmt.Sprintf("resolve %s@0 %s@0", d, m2)}
	if async {
		// Asynchronous resolves into one subresource: a write-after-write
		// barrier between them, the one a negative form drops.
		second = append([]string{fmt.Sprintf("barrier texture %s sync RESOLVE -> RESOLVE access RESOLVE_DEST -> RESOLVE_DEST layout RESOLVE_DEST -> RESOLVE_DEST", d)}, second...)
		f.dropPhase, f.dropLine = 1, 0
	}
	f.phases = []shapePhase{
		{queues: "D", lines: append(prep, fmt.Sprintf("resolve %s@0 %s@0", d, m1))},
		{queues: "D", lines: second},
		{queues: "D", lines: []string{fmt.Sprintf("barrier texture %s sync RESOLVE -> COMPUTE_SHADING access RESOLVE_DEST -> SHADER_RESOURCE layout RESOLVE_DEST -> SHADER_RESOURCE", d),
			fmt.Sprintf("dispatch srv %s uav %s", d, out)}},
	}
	for i := range f.phases {
		f.phases[i].async, f.phases[i].sync = async, !async
	}
	return f
}

// destroyInFlight: buffers placed side by side, one used by work on a
// queue of a drawn type; its unused neighbour is destroyed while the work
// is in flight (accepted), then the one in use (refused), which goes
// after a wait-idle, and the third, untouched, is used after.
func (g *shapeGen) destroyInFlight() string {
	q := []ddi.CommandListType{direct, compute, copyQ}[g.rng.IntN(3)]
	work := "copy-buffer B1 0 UP 0 4096"
	if q != copyQ && g.rng.IntN(2) == 0 {
		work = "dispatch uav B1"
	}
	order := []string{"B0", "B2"}
	if g.rng.IntN(2) == 0 {
		order[0], order[1] = order[1], order[0]
	}
	qn := queueNames[slices.IndexFunc(queueNames, func(n queueName) bool { return n.t == q })].name
	var b strings.Builder
	fmt.Fprintf(&b, "# A shape program (hlk/gen/shapes.go), seed %d: placed buffers destroyed while work on one of them is in flight.\n", g.seed)
	fmt.Fprintf(&b, "# Reproduce: ebref hlk --suite random --random 8 --seed %d --run shapes-%d-destroy\n", g.seed, g.seed)
	fmt.Fprintf(&b, "heap H default 0x%x\n", 3*shapeBuf)
	for i := range 3 {
		fmt.Fprintf(&b, "buffer B%d %d flags UNORDERED_ACCESS at H 0x%x\n", i, shapeBuf, i*shapeBuf)
	}
	fmt.Fprintf(&b, "buffer UP 4096 in upload\nwrite UP 0 fill 0x%02x 4096\n", 1+g.seed%255)
	fmt.Fprintf(&b, "queue %s %s\n", qn, q)
	fmt.Fprintf(&b, "list L1 %s\n  %s\nend\nexecute %s L1\n", q, work, qn)
	fmt.Fprintf(&b, "destroy %s\n", order[0])
	b.WriteString("destroy B1\n")
	b.WriteString("expect error OBJECT_DELETED_WHILE_STILL_IN_USE field hResource\n")
	b.WriteString("wait-idle\ndestroy B1\n")
	fmt.Fprintf(&b, "list L2 %s\n  copy-buffer %s 0 UP 0 4096\nend\nexecute %s L2\n", q, order[1], qn)
	fmt.Fprintf(&b, "expect reference %s\n", order[1])
	return b.String()
}
